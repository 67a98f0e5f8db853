package seating_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/internal/racecheck"
	"github.com/revisor-sm/revisor/tournament/seating"
)

// quickHistory returns rounds of n players seated by a fixed rule (player p at
// table (p·(2w+1)+w) mod tables in round w, filled in order), quick to make
// for a large field.
func quickHistory(players []string, rounds int) []seating.Past {
	n := len(players)
	sizes, _ := seating.SplitTables(n)
	var out []seating.Past
	for w := range rounds {
		round := make(seating.Past, len(sizes))
		fill := make([]int, len(sizes))
		t := 0
		for k := range n {
			p := (k*(2*w+1) + w) % n
			for fill[t] == sizes[t] {
				t++
			}
			round[t][fill[t]] = players[p]
			fill[t]++
		}
		out = append(out, round)
	}
	return out
}

// drawCost seats one sm draw of n players after the given rounds and
// returns the bytes allocated (an upper bound on the draw's peak heap) and
// the CPU time taken.
func drawCost(tb testing.TB, n, rounds int) (alloc uint64, took time.Duration) {
	tb.Helper()
	players := ids(n)
	hist := quickHistory(players, rounds)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var res *seating.Result
	var err error
	took = cpuOf(func() {
		res, err = seating.Round(seating.Params{Players: players, History: hist, Mode: seating.Draw, Seed: 1, Budget: time.Minute})
	})
	runtime.ReadMemStats(&after)
	if err != nil {
		tb.Fatal(err)
	}
	if res.TimedOut {
		tb.Fatalf("Round(%d players) timed out", n)
	}
	return after.TotalAlloc - before.TotalAlloc, took
}

// TestDrawMemoryLinear fails when a draw's memory grows with the square
// of the field (a players × players table, as before issue 13): doubling
// the field must less than triple the bytes allocated. Serial: it reads
// the process's allocations, which parallel tests would add to (a
// clean-clone run read 103.5 MB for 2,500 players and 82.7 MB for 5,000
// beside TestSeatSpreadSample's parallel subtests).
func TestDrawMemoryLinear(t *testing.T) {
	small, _ := drawCost(t, 2500, 2)
	large, _ := drawCost(t, 5000, 2)
	t.Logf("2,500 players: %.1f MB allocated; 5,000: %.1f MB", float64(small)/1e6, float64(large)/1e6)
	if large > 3*small {
		t.Errorf("draw of 5,000 players allocates %d bytes, 2,500 players %d: want less than 3 times as much (linear memory)", large, small)
	}
	if perPlayer := large / 5000; perPlayer > 16<<10 {
		t.Errorf("draw of 5,000 players allocates %d bytes per player, want at most 16 KiB", perPlayer)
	}
}

// largestField is the most players a server lets into one tournament
// (tournament.MaxPlayersLimit).
const largestField = 10_000

// TestLargestDraw draws the largest field a server allows, after two
// rounds: under 256 MB allocated (an upper bound on its peak heap) and a
// few seconds of CPU.
func TestLargestDraw(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	// The draw is a pure function of its input: its CPU time is the
	// least of up to three (leastCPU), its bytes the first's.
	var alloc uint64
	took := leastCPU(5*time.Second, func() time.Duration {
		a, took := drawCost(t, largestField, 2)
		if alloc == 0 {
			alloc = a
		}
		return took
	})
	t.Logf("%d players: %.1f MB allocated, %v CPU", largestField, float64(alloc)/1e6, took)
	if alloc > 256<<20 {
		t.Errorf("draw of %d players allocates %d bytes, want under 256 MiB", largestField, alloc)
	}
	if !racecheck.Enabled && took > 5*time.Second {
		t.Errorf("draw of %d players took %v of CPU, want under 5s", largestField, took)
	}
}

// BenchmarkDrawLargest measures the draw of the largest field.
func BenchmarkDrawLargest(b *testing.B) {
	players := ids(largestField)
	hist := quickHistory(players, 2)
	b.ReportAllocs()
	for i := range b.N {
		if _, err := seating.Round(seating.Params{Players: players, History: hist, Mode: seating.Draw, Seed: uint64(i), Budget: time.Minute}); err != nil {
			b.Fatal(err)
		}
	}
}
