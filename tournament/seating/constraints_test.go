package seating_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/tournament/seating"
)

// playConstrained seats rounds one by one under constraints c.
func playConstrained(t *testing.T, players []string, rounds int, mode seating.Mode, c seating.Constraints) []*seating.Result {
	t.Helper()
	var out []*seating.Result
	var hist []seating.Past
	for w := range rounds {
		res, err := seating.Round(seating.Params{Players: players, History: hist, Mode: mode, Seed: uint64(w + 1),
			Budget: time.Minute, Constraints: c})
		if err != nil {
			t.Fatalf("Round %d: %v", w+1, err)
		}
		checkRound(t, fmt.Sprintf("round %d", w+1), len(players), res.Seating)
		out = append(out, res)
		hist = append(hist, res.IDs(players))
	}
	return out
}

func TestFixedTable(t *testing.T) {
	t.Parallel()
	players := ids(13) // tables 4, 3, 3, 3
	fixed := map[string]int{"p000": 1, "p005": 4, "p006": 4, "gone": 2}
	for _, mode := range []seating.Mode{seating.Mixed, seating.ByStandings, seating.Draw} {
		for w, res := range playConstrained(t, players, 6, mode, seating.Constraints{Fixed: fixed}) {
			for id, table := range fixed {
				var p int
				if _, err := fmt.Sscanf(id, "p%d", &p); err != nil {
					continue // not a player of this round
				}
				if got := tableOf(res.Seating, p); got != table {
					t.Errorf("%v round %d: %s at table %d, want fixed table %d", mode, w+1, id, got, table)
				}
			}
		}
	}
	for _, fixed := range []map[string]int{{"p001": 0}, {"p001": 5}, {"p001": 2, "p002": 2, "p003": 2, "p004": 2}} {
		_, err := seating.Round(seating.Params{Players: players, Constraints: seating.Constraints{Fixed: fixed}})
		var ce *seating.ConstraintError
		if !errors.As(err, &ce) {
			t.Errorf("Round(fixed %v) = %v, want a *ConstraintError", fixed, err)
		}
	}
}

// tableOf returns p's table number (from 1) in r, 0 when p is not seated.
func tableOf(r seating.Seating, p int) int {
	for i, tb := range r.Tables {
		for _, q := range tb.Players() {
			if q == p {
				return i + 1
			}
		}
	}
	return 0
}

func TestKeepApart(t *testing.T) {
	t.Parallel()
	players := ids(24)
	var clubs [][]string // six clubs of four, each club at one table in a naive draw
	for c := range 6 {
		clubs = append(clubs, players[4*c:4*c+4])
	}
	for _, mode := range []seating.Mode{seating.Mixed, seating.ByStandings, seating.Draw} {
		for w, res := range playConstrained(t, players, 3, mode, seating.Constraints{Apart: clubs}) {
			together := 0
			for _, tb := range res.Tables {
				ps := tb.Players()
				for i, a := range ps {
					for _, b := range ps[i+1:] {
						if a/4 == b/4 {
							together++
						}
					}
				}
			}
			if together != 0 || res.Together != 0 {
				t.Errorf("%v round %d: %d pairs of one club at a table (Together %d), want 0", mode, w+1, together, res.Together)
			}
		}
	}
	// A group larger than the tables cannot be kept apart: 8 players of one
	// club at 6 tables leave at least 2 pairs together.
	res := playConstrained(t, players, 1, seating.Draw, seating.Constraints{Apart: [][]string{players[:8]}})[0]
	if res.Together != 2 {
		t.Errorf("8 players of one club at 6 tables: Together = %d, want 2 (the fewest possible)", res.Together)
	}
}

// partnerships counts, over rounds, how often each pair partnered (seats 1
// and 3, seats 2 and 4 of a table of 4) and returns the repeats.
func partnerRepeats(rounds []*seating.Result) int {
	seen, again := map[[2]int]int{}, 0
	for _, r := range rounds {
		for _, tb := range r.Tables {
			if tb.Seats[3] == seating.Empty || tb.Seats[2] == seating.Empty {
				continue
			}
			for _, pr := range [][2]int{{tb.Seats[0], tb.Seats[2]}, {tb.Seats[1], tb.Seats[3]}} {
				pr[0], pr[1] = min(pr[0], pr[1]), max(pr[0], pr[1])
				if seen[pr]++; seen[pr] > 1 {
					again++
				}
			}
		}
	}
	return again
}

func TestPartners(t *testing.T) {
	t.Parallel()
	cases := []struct{ n, rounds int }{{8, 7}, {12, 8}, {20, 12}}
	if testing.Short() {
		cases = cases[:2] // the quick tier: without the longest search
	}
	for _, tt := range cases {
		players := ids(tt.n)
		with := playConstrained(t, players, tt.rounds, seating.Draw, seating.Constraints{Partners: true})
		without := playConstrained(t, players, tt.rounds, seating.Draw, seating.Constraints{})
		again := 0
		for _, r := range with {
			again += r.PartnersAgain
		}
		got := partnerRepeats(with)
		t.Logf("%d players x %d rounds: %d partnerships repeated (%d without the constraint)", tt.n, tt.rounds, got, partnerRepeats(without))
		if got != again {
			t.Errorf("%d x %d: PartnersAgain sums to %d, counted %d", tt.n, tt.rounds, again, got)
		}
		if got != 0 {
			t.Errorf("%d players x %d rounds with partnerships: %d repeated, want 0", tt.n, tt.rounds, got)
		}
	}
}
