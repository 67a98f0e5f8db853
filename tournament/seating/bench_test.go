package seating_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/internal/racecheck"
	"github.com/revisor-sm/revisor/tournament/seating"
)

// BenchmarkRound1000 seats one round of 1,000 players given 5 earlier
// rounds (issue 4 asks for under a second).
func BenchmarkRound1000(b *testing.B) {
	players := ids(1000)
	_, hist := playRounds(b, players, 5, seating.Mixed, 1)
	b.ResetTimer()
	for i := range b.N {
		res, err := seating.Round(seating.Params{Players: players, History: hist, Seed: uint64(i), Budget: time.Minute})
		if err != nil {
			b.Fatal(err)
		}
		if res.Repeats != 0 || res.TimedOut {
			b.Fatalf("Round(1000 players) = %d repeats, timed out %v", res.Repeats, res.TimedOut)
		}
	}
}

// BenchmarkRound1000ByStandings is the same in by-standings mode.
func BenchmarkRound1000ByStandings(b *testing.B) {
	players := ids(1000)
	_, hist := playRounds(b, players, 5, seating.ByStandings, 1)
	b.ResetTimer()
	for i := range b.N {
		if _, err := seating.Round(seating.Params{Players: players, History: hist, Mode: seating.ByStandings, Seed: uint64(i), Budget: time.Minute}); err != nil {
			b.Fatal(err)
		}
	}
}

// leastCPU returns the CPU time of run, a deterministic piece of work
// (the same work each time) that measures its own CPU time (cpuOf); when
// that is over limit, it runs it again, up to three times in all, and
// returns the least. On a machine shared with other work one run of
// TestRound1000's round read 689 ms of CPU, another 1.07 s (7 December): a
// bound on one run's CPU time fails by the machine, not by the code. The
// checks of the search's CPU time (TestRound1000, TestBenchmarkInstances,
// TestLargestDraw) all take it.
func leastCPU(limit time.Duration, run func() time.Duration) time.Duration {
	least := run()
	for try := 1; try < 3 && least > limit; try++ {
		least = min(least, run())
	}
	return least
}

// cpuOf returns the CPU time f takes.
func cpuOf(f func()) time.Duration {
	start := cpuTime()
	f()
	return cpuTime() - start
}

// TestRound1000 checks the 1,000-player round against its one-second
// target outside benchmarks too, in both Swiss modes.
func TestRound1000(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	players := ids(1000)
	for _, mode := range []seating.Mode{seating.Mixed, seating.ByStandings} {
		_, hist := playRounds(t, players, 5, mode, 1)
		var (
			res *seating.Result
			err error
		)
		took := leastCPU(time.Second, func() time.Duration {
			d := cpuOf(func() {
				res, err = seating.Round(seating.Params{Players: players, History: hist, Mode: mode, Seed: 6, Budget: time.Minute})
			})
			if err != nil {
				t.Fatal(err)
			}
			return d
		})
		checkRound(t, "Round(1000 players)", 1000, res.Seating)
		t.Logf("1000 players, %v, round 6: %d repeats in %v of CPU", mode, res.Repeats, took)
		if res.Repeats != 0 {
			t.Errorf("Round(1000 players, %v, round 6) repeats = %d, want 0", mode, res.Repeats)
		}
		if !racecheck.Enabled && took > time.Second {
			t.Errorf("Round(1000 players, %v) took %v of CPU, want under 1s", mode, took)
		}
	}
}

func BenchmarkPlan(b *testing.B) {
	for _, tt := range []struct{ n, rounds int }{{16, 5}, {28, 9}, {32, 10}, {13, 6}, {64, 10}} {
		b.Run(fmt.Sprintf("%dx%d", tt.n, tt.rounds), func(b *testing.B) {
			for i := range b.N {
				if _, err := seating.Plan(tt.n, tt.rounds, seating.Options{Seed: uint64(i)}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

var repeatTable = flag.Bool("repeat-table", false, "compute the repeats table for 8-64 players and write ../../docs/seating-table.md")

// knownDesign is a zero-repeat schedule for tables of 4 (or, minus one
// player, with one table of 3 per round) known from the design theory
// literature: how many rounds, and where from.
type knownDesign struct {
	rounds int
	source string
	ours   bool // Plan builds it (findDesign)
}

// knownDesigns lists, for n players, the longest zero-repeat schedules the
// literature gives for the families below (n or n+1 points, blocks of 4):
// resolvable BIBD(v,4,1) for v ≡ 4 (mod 12) (Hanani, Ray-Chaudhuri and
// Wilson 1972), resolvable transversal designs TD(4,q) for prime powers q
// (from 4 mutually orthogonal Latin squares), and resolvable 4-GDDs of
// type 3^u (u ≡ 0 mod 4, u ≥ 8) and 2^u (u ≡ 4 mod 6, u ≥ 16), as the
// CRC Handbook of Combinatorial Designs (2nd ed., resolvable GDDs) lists
// them. The minus-one schedules drop a point: its tables become tables of
// 3, one per round, and nobody sits at two.
func knownDesigns(n int) (best knownDesign) {
	consider := func(v, rounds int, source string, ours bool) {
		if (v == n || v == n+1) && rounds > best.rounds {
			if v == n+1 {
				source += ", minus one point"
			}
			best = knownDesign{rounds, source, ours}
		}
	}
	// A 4-RGDD minus a whole group of g points (g tables of 3 a round);
	// ours only where Plan finds an order of the rounds that keeps the
	// tables of 3 fair.
	minusGroup := func(v, g, rounds int, source string, ours bool) {
		if v-g == n && rounds > best.rounds {
			best = knownDesign{rounds, source + ", minus a group", ours}
		}
	}
	for v := 16; v <= 65; v += 12 {
		consider(v, (v-1)/3, fmt.Sprintf("RBIBD(%d,4,1) [HRW72]", v), true)
	}
	for _, q := range []int{4, 5, 7, 8, 9, 11, 13, 16} {
		consider(4*q, q, fmt.Sprintf("resolvable TD(4,%d) [MOLS]", q), true)
	}
	for u := 8; 3*u <= 65; u += 4 {
		consider(3*u, u-1, fmt.Sprintf("4-RGDD of type 3^%d [Handbook]", u), true)
		minusGroup(3*u, 3, u-1, fmt.Sprintf("4-RGDD of type 3^%d [Handbook]", u), u == 12 || u == 20)
	}
	for u := 16; 2*u <= 65; u += 6 {
		consider(2*u, 2*(u-1)/3, fmt.Sprintf("4-RGDD of type 2^%d [Handbook]", u), true)
		minusGroup(2*u, 2, 2*(u-1)/3, fmt.Sprintf("4-RGDD of type 2^%d [Handbook]", u), u == 22)
	}
	return best
}

// tableRounds is the last round count of n's row: the most rounds in which
// meetings are still avoidable by counting, and at least 10.
func tableRounds(n int) int {
	r := 10
	for seating.LowerBound(n, r+1) == 0 {
		r++
	}
	return r
}

// TestRepeatTable computes, for 8 to 64 players and 3 rounds up to the
// last where meetings are avoidable by counting (at least 10), the repeats
// Plan reaches (default work, seed 1, work-bounded) against the counting
// lower bound, with the zero-repeat designs the literature knows, and
// writes docs/seating-table.md. It takes minutes, so it runs only with
// -repeat-table:
//
//	go test ./tournament/seating -run TestRepeatTable -repeat-table -v
func TestRepeatTable(t *testing.T) {
	if !*repeatTable {
		t.Skip("run with -repeat-table")
	}
	var b strings.Builder
	maxR := tableRounds(64)
	b.WriteString("| players |")
	for r := 3; r <= maxR; r++ {
		fmt.Fprintf(&b, " r=%d |", r)
	}
	b.WriteString(" zero repeats known up to |\n|---|")
	for r := 3; r <= maxR+1; r++ {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	start := time.Now()
	var atBound, cells, missed int
	for n := 8; n <= 64; n++ {
		known := knownDesigns(n)
		fmt.Fprintf(&b, "| %d |", n)
		for r := 3; r <= maxR; r++ {
			if r > tableRounds(n) {
				b.WriteString(" |")
				continue
			}
			s, err := seating.Plan(n, r, seating.Options{Seed: 1, Budget: time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			cells++
			mark := ""
			switch {
			case s.Repeats == s.LowerBound:
				atBound++
			case r <= known.rounds:
				mark, missed = "‡", missed+1 // a design is known: a search limit
			default:
				mark = "*"
			}
			fmt.Fprintf(&b, " %d/%d%s |", s.Repeats, s.LowerBound, mark)
		}
		switch {
		case known.rounds == 0:
			b.WriteString(" – |\n")
		case known.ours:
			fmt.Fprintf(&b, " %d: %s, built by Plan |\n", known.rounds, known.source)
		default:
			fmt.Fprintf(&b, " %d: %s |\n", known.rounds, known.source)
		}
	}
	fmt.Fprintf(&b, "\n%d of %d cells reach the counting bound; %d cells (‡) stay above it although a zero-repeat "+
		"design is known; * marks the other cells above the bound (no design known to us, or none exists). "+
		"Computed in %v.\n", atBound, cells, missed, time.Since(start).Round(time.Second))
	t.Log("\n" + b.String())
	doc := tableIntro + b.String()
	if err := os.WriteFile(filepath.Join("..", "..", "docs", "seating-table.md"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
}

const tableIntro = `# Seating: repeats reached against the counting bound

Generated by ` + "`go test ./tournament/seating -run TestRepeatTable -repeat-table -v`" + ` (do not edit).
Each cell is what ` + "`seating.Plan`" + ` reaches for that many players and rounds (seed 1, default work,
bounded by work, not by the clock) / the counting lower bound: a player at tables of 3 in j of r rounds
meets 3r − j opponents but only n − 1 distinct ones, and each repeat is seen by both players, so
repeats ≥ ⌈Σ max(0, 3r − j − (n − 1)) / 2⌉ with the tables of 3 spread evenly. Rows run to the last
round count at which the bound is still 0 (at least 10). The last column gives the longest zero-repeat
schedule the design theory literature gives for that field (n or n + 1 points, blocks of 4) and where
from: [HRW72] H. Hanani, D. K. Ray-Chaudhuri, R. M. Wilson, On resolvable designs, Discrete Math. 3
(1972) (RBIBD(v,4,1) for every v ≡ 4 mod 12); [MOLS] a resolvable transversal design TD(4,q) from four
mutually orthogonal Latin squares of prime power order q; [Handbook] C. J. Colbourn, J. H. Dinitz
(eds.), Handbook of Combinatorial Designs, 2nd ed., resolvable group divisible designs (4-RGDDs of
type 3^u for u ≡ 0 mod 4, u ≥ 8, and type 2^u). "Minus one point" leaves one point empty (one table
of 3 a round, nobody at two); "minus a group" leaves empty a group of a 4-RGDD, 2 or 3 points that
never meet and that everyone else meets once (2 or 3 tables of 3 a round, each player at one 2 or 3
times), which keeps the rule that nobody sits at a table of 3 twice while another has not only in a
suitable order of the rounds: Plan finds one for 33, 42 and 57 players, none for the designs it
builds for 21, 30, 45 and 54, so those cells are search results. Other designs do not help as far
as we looked: for 30 and 54 players no schedule whose rounds are the translates of one round over
Z_m × 3 levels (m = 10, 18), its tables of 3 included (as in a 4-GDD with two fixed points minus
those), keeps the tables of 3 fair (a parity count, see balancedOrder in design.go), and TestGDD3Search enumerates the 4-RGDDs of type 3^8 and 3^16 built that way with a
base round invariant under (x, l) → (αx, l + 1) and the fixed points' tables one orbit (24 and 144,
every such design of type 3^16): balancedOrder finds a fair order for none, minus the fixed points
or minus a group {(x,0), (x,1), (x,2)}; nor for any of the 900 4-RGDDs of type 2^28 over Z_18 × 3
levels invariant under (x, l) → (7x, l + 1) that TestGDD2Search enumerates, minus a group {(x,l), (x+9,l)}. A design of another structure may. "built by Plan" marks the schedules the code constructs.

`
