package seating_test

import (
	"fmt"
	"testing"

	"github.com/revisor-sm/revisor/internal/racecheck"
	"github.com/revisor-sm/revisor/tournament/seating"
)

// spreadStats is what spreadSample measures.
type spreadStats struct {
	worst int // the worst seat spread after any round of any run
	runs  int // runs in which some player's spread reached 2
	over  int // player-rounds after which the player's spread was 2 or more
}

// spreadSample seats n players round by round, 16 runs (seeds) of 8 rounds
// each, and measures the seat spread after every round.
func spreadSample(t *testing.T, n int, mode seating.Mode) spreadStats {
	t.Helper()
	var st spreadStats
	for run := range 16 {
		rounds, _ := playRounds(t, ids(n), 8, mode, uint64(1000*run+n))
		counts := make([][4]int, n)
		bad := false
		for _, r := range rounds {
			for _, tb := range r.Tables {
				for s, p := range tb.Seats {
					if p != seating.Empty {
						counts[p][s]++
					}
				}
			}
			for _, c := range counts {
				s := max(c[0], c[1], c[2], c[3]) - min(c[0], c[1], c[2], c[3])
				st.worst = max(st.worst, s)
				if s > 1 {
					st.over++
					bad = true
				}
			}
		}
		if bad {
			st.runs++
		}
	}
	return st
}

// TestSeatSpreadSample seats small fields round by round (the sm draw and
// by_standings), 16 runs of 8 rounds, and checks every player's seat
// spread after every round. Round weighs seats above repeat meetings in
// fields up to maxSeatSearch players and balances the players' least-used
// seats for the next round, so the tight rounds (4 and 8, when every
// player has one least-used seat) keep the spread at 1. Nine players (three
// tables of 3) in the sm draw may still reach 2 (once in these 1,152
// player-rounds): a search limit, not proven unavoidable.
func TestSeatSpreadSample(t *testing.T) {
	t.Parallel()
	if testing.Short() || racecheck.Enabled {
		t.Skip("a measurement: slow under -short and -race")
	}
	// The six samples are independent: one subtest each, in parallel (one
	// after another they took 34 s of the pure packages' pass, one core idle).
	for _, mode := range []seating.Mode{seating.Draw, seating.ByStandings} {
		for _, n := range []int{9, 13, 16} {
			t.Run(fmt.Sprintf("%v/%d", mode, n), func(t *testing.T) {
				t.Parallel()
				st := spreadSample(t, n, mode)
				t.Logf("Round(%d players, %v), 16 runs of 8 rounds: worst spread %d, runs reaching 2: %d, player-rounds at 2: %d of %d",
					n, mode, st.worst, st.runs, st.over, 16*8*n)
				want := 1
				if n == 9 && mode == seating.Draw {
					want = 2
				}
				if st.worst > want {
					t.Errorf("Round(%d players, %v) x8: seat spread %d, want <= %d", n, mode, st.worst, want)
				}
			})
		}
	}
}
