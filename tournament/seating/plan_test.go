package seating_test

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/tournament/seating"
)

// checkRound checks one round of players 0..n-1: everybody seated exactly
// once, table sizes as SplitTables says (tables of 4 first), an empty seat
// exactly at tables of 3.
func checkRound(t *testing.T, what string, n int, r seating.Seating) {
	t.Helper()
	sizes, _ := seating.SplitTables(n)
	if len(r.Tables) != len(sizes) {
		t.Fatalf("%s: %d tables, want %d", what, len(r.Tables), len(sizes))
	}
	seen := make([]int, n)
	for i, tb := range r.Tables {
		ps := tb.Players()
		if len(ps) != sizes[i] {
			t.Errorf("%s: table %d seats %v, want %d players", what, i+1, tb.Seats, sizes[i])
		}
		for _, p := range ps {
			if p < 0 || p >= n {
				t.Fatalf("%s: table %d has player %d, want 0..%d", what, i+1, p, n-1)
			}
			seen[p]++
		}
		if len(ps) > 0 && tb.Dealer() != ps[0] {
			t.Errorf("%s: table %d dealer %d, want the player in the first occupied seat %d", what, i+1, tb.Dealer(), ps[0])
		}
	}
	for p, c := range seen {
		if c != 1 {
			t.Errorf("%s: player %d seated %d times, want 1", what, p, c)
		}
	}
}

// countRepeats is the benchmark metric, computed independently of the
// package.
func countRepeats(n int, rounds []seating.Seating) int {
	meet := map[[2]int]int{}
	for _, r := range rounds {
		for _, tb := range r.Tables {
			ps := tb.Players()
			for i := range ps {
				for j := i + 1; j < len(ps); j++ {
					meet[[2]int{min(ps[i], ps[j]), max(ps[i], ps[j])}]++
				}
			}
		}
	}
	total := 0
	for _, m := range meet {
		total += m - 1
	}
	return total
}

// threeTableSpread returns the worst spread, over round prefixes, of how
// often players have sat at a table of 3: more than 1 means someone sat at
// one twice while another had not.
func threeTableSpread(n int, rounds []seating.Seating) int {
	c3 := make([]int, n)
	worst := 0
	for _, r := range rounds {
		for _, tb := range r.Tables {
			if ps := tb.Players(); len(ps) == 3 {
				for _, p := range ps {
					c3[p]++
				}
			}
		}
		worst = max(worst, slices.Max(c3)-slices.Min(c3))
	}
	return worst
}

func checkSchedule(t *testing.T, n, rounds int, s *seating.Schedule) {
	t.Helper()
	what := fmt.Sprintf("Plan(%d, %d)", n, rounds)
	if len(s.Rounds) != rounds {
		t.Fatalf("%s has %d rounds, want %d", what, len(s.Rounds), rounds)
	}
	for w, r := range s.Rounds {
		checkRound(t, fmt.Sprintf("%s round %d", what, w+1), n, r)
	}
	if got := countRepeats(n, s.Rounds); got != s.Repeats {
		t.Errorf("%s.Repeats = %d, want %d (recounted)", what, s.Repeats, got)
	}
	if s.Repeats < s.LowerBound {
		t.Errorf("%s.Repeats = %d, below its lower bound %d", what, s.Repeats, s.LowerBound)
	}
	if s.SeatSpread > 1 || seating.SeatSpread(n, s.Rounds) != s.SeatSpread {
		t.Errorf("%s.SeatSpread = %d (recounted %d), want <= 1", what, s.SeatSpread, seating.SeatSpread(n, s.Rounds))
	}
	if got := threeTableSpread(n, s.Rounds); got > 1 {
		t.Errorf("%s: tables of 3 spread %d between players, want <= 1", what, got)
	}
}

func TestPlanProperties(t *testing.T) {
	t.Parallel()
	work := 100_000
	for n := 3; n <= 41; n++ {
		if n == 5 {
			continue
		}
		for _, rounds := range []int{1, 3, 7} {
			for _, mode := range []seating.Mode{seating.Mixed, seating.ByStandings} {
				s, err := seating.Plan(n, rounds, seating.Options{Seed: uint64(n*rounds) + 1, Mode: mode, Work: work})
				if err != nil {
					t.Fatalf("Plan(%d, %d) error %v", n, rounds, err)
				}
				checkSchedule(t, n, rounds, s)
			}
		}
	}
}

func TestPlanErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ n, rounds int }{{5, 3}, {2, 3}, {0, 1}, {8, 0}, {8, -1}} {
		if s, err := seating.Plan(tt.n, tt.rounds, seating.Options{}); err == nil {
			t.Errorf("Plan(%d, %d) = %v, nil, want an error", tt.n, tt.rounds, s)
		}
	}
}

func TestPlanDeterministic(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ n, rounds int }{{13, 4}, {16, 7}, {30, 6}, {12, 3}} {
		opt := seating.Options{Seed: 42, Work: 500_000, Budget: time.Minute}
		a, _ := seating.Plan(tt.n, tt.rounds, opt)
		b, _ := seating.Plan(tt.n, tt.rounds, opt)
		if a.TimedOut || b.TimedOut {
			t.Fatalf("Plan(%d, %d) timed out", tt.n, tt.rounds)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("Plan(%d, %d) twice with seed 42 gave different schedules", tt.n, tt.rounds)
		}
		opt.Seed = 43
		c, _ := seating.Plan(tt.n, tt.rounds, opt)
		if reflect.DeepEqual(a.Rounds, c.Rounds) {
			t.Errorf("Plan(%d, %d) with seeds 42 and 43 gave the same schedule", tt.n, tt.rounds)
		}
	}
}

// TestPlanDesigns checks every construction at its full length: no repeat
// at all, including the designs minus one player or minus a group, and
// (checkSchedule) every table of size 3 or 4 with nobody at a table of 3
// twice while another player has not been.
func TestPlanDesigns(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n, rounds int
		method    string
	}{
		{16, 5, "affine plane of order 4"},
		{15, 5, "affine plane of order 4"},
		{64, 21, "affine geometry AG(k,4)"},
		{63, 21, "affine geometry AG(k,4)"},
		{20, 5, "resolvable transversal design"},
		{19, 5, "resolvable transversal design"},
		{44, 11, "resolvable transversal design"},
		{32, 10, "resolvable 4-GDD of type 2^16"},
		{31, 10, "resolvable 4-GDD of type 2^16"},
		{36, 9, "resolvable transversal design"},
		{35, 9, "resolvable transversal design"},
		{100, 25, "resolvable transversal design"},
		{52, 13, "resolvable transversal design"},
		{24, 7, "resolvable 4-GDD of type 3^8"},
		{23, 7, "resolvable 4-GDD of type 3^8"},
		{28, 9, "resolvable (28,4,1) design"},
		{27, 9, "resolvable (28,4,1) design"},
		{40, 13, "resolvable (40,4,1) design"},
		{39, 13, "resolvable (40,4,1) design"},
		{52, 17, "resolvable (52,4,1) design"},
		{51, 17, "resolvable (52,4,1) design"},
		{36, 11, "resolvable 4-GDD of type 3^12"},
		{35, 11, "resolvable 4-GDD of type 3^12"},
		{48, 15, "resolvable 4-GDD of type 3^16"},
		{47, 15, "resolvable 4-GDD of type 3^16"},
		{60, 19, "resolvable 4-GDD of type 3^20"},
		{59, 19, "resolvable 4-GDD of type 3^20"},
		{44, 14, "resolvable 4-GDD of type 2^22"},
		{43, 14, "resolvable 4-GDD of type 2^22"},
		{42, 14, "resolvable 4-GDD of type 2^22"}, // minus a group: two tables of 3 a round
		{33, 11, "resolvable 4-GDD of type 3^12"}, // minus a group: three tables of 3 a round
		{57, 19, "resolvable 4-GDD of type 3^20"},
		{56, 18, "resolvable 4-GDD of type 2^28"},
		{55, 18, "resolvable 4-GDD of type 2^28"},
		{40, 9, "resolvable (40,4,1) design"}, // truncated
		{60, 12, "resolvable 4-GDD of type 3^20"},
	}
	for _, tt := range tests {
		s, err := seating.Plan(tt.n, tt.rounds, seating.Options{Seed: 7, Work: 1})
		if err != nil {
			t.Fatalf("Plan(%d, %d) error %v", tt.n, tt.rounds, err)
		}
		checkSchedule(t, tt.n, tt.rounds, s)
		if s.Repeats != 0 || s.Method != tt.method {
			t.Errorf("Plan(%d, %d) = %d repeats by %q, want 0 by %q", tt.n, tt.rounds, s.Repeats, s.Method, tt.method)
		}
	}
}
