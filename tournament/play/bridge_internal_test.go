package play

import (
	"fmt"
	"slices"
	"testing"

	"github.com/revisor-sm/revisor/engine/bridge"
	bridgesim "github.com/revisor-sm/revisor/engine/bridge/sim"
	"github.com/revisor-sm/revisor/internal/racecheck"
	"github.com/revisor-sm/revisor/tournament"
)

func names(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("p%02d", i+1)
	}
	return out
}

// TestBridgeTables draws several rounds for fields of every remainder:
// every player seated once or on a bye, tables of four and at most one of
// two, nobody partnering the same player twice while that is possible, a
// bye only to those with the fewest byes, draw bridge spread.
func TestBridgeTables(t *testing.T) {
	t.Parallel()
	racecheck.OutOfRace(t) // the draw's search
	for _, tc := range []struct{ players, rounds, maxAgain int }{
		{16, 4, 0}, {16, 5, 0}, {17, 5, 0}, {18, 5, 0}, {19, 5, 0}, {8, 3, 0}, {8, 7, 0}, {2, 2, 0}, {3, 3, 0}, {5, 4, 0}, {6, 4, 0},
	} {
		players := names(tc.players)
		var history []tournament.Round
		byes, twos, partners := map[string]int{}, map[string]int{}, map[[2]string]int{}
		again := 0
		for r := 1; r <= tc.rounds; r++ {
			tables, err := bridgeTables(history, players, int64(100*tc.players+r))
			if err != nil {
				t.Fatalf("%d players round %d: %v", tc.players, r, err)
			}
			seen := map[string]bool{}
			nTwo := 0
			for i, tb := range tables {
				if tb.Number != i+1 || (len(tb.Players) != 4 && len(tb.Players) != 2) || !slices.Contains(tb.Players, tb.FirstDealer) {
					t.Fatalf("%d players round %d: table %+v", tc.players, r, tb)
				}
				for _, p := range tb.Players {
					if seen[p] {
						t.Fatalf("%d players round %d: %s seated twice", tc.players, r, p)
					}
					seen[p] = true
				}
				if len(tb.Players) == 2 {
					nTwo++
					twos[tb.Players[0]]++
					twos[tb.Players[1]]++
					continue
				}
				for _, pair := range [][2]string{{tb.Players[0], tb.Players[2]}, {tb.Players[1], tb.Players[3]}} {
					slices.Sort(pair[:])
					if partners[pair] > 0 {
						again++
					}
					partners[pair]++
				}
			}
			wantByes := tc.players % 2
			if nTwo != tc.players%4/2 || len(seen) != tc.players-wantByes {
				t.Fatalf("%d players round %d: %d tables of two, %d seated", tc.players, r, nTwo, len(seen))
			}
			for _, p := range players {
				if !seen[p] {
					for _, q := range players {
						if byes[q] < byes[p] {
							t.Errorf("%d players round %d: %s sits out with %d byes while %s has %d", tc.players, r, p, byes[p], q, byes[q])
						}
					}
					byes[p]++
				}
			}
			history = append(history, tournament.Round{Number: r, Tables: tables})
		}
		if again > tc.maxAgain {
			t.Errorf("%d players, %d rounds: %d partnerships repeated, want at most %d", tc.players, tc.rounds, again, tc.maxAgain)
		}
		if tc.players%4 >= 2 && tc.players > 3 {
			lo, hi := tc.rounds, 0
			for _, p := range players {
				lo, hi = min(lo, twos[p]), max(hi, twos[p])
			}
			if hi-lo > 1 && tc.players-tc.players%2 > 2*tc.rounds {
				t.Errorf("%d players: draw bridge played %d to %d times", tc.players, lo, hi)
			}
		}
	}
}

// TestBridgeTablesSameSeed checks that a seed gives the same tables.
func TestBridgeTablesSameSeed(t *testing.T) {
	t.Parallel()
	a, err1 := bridgeTables(nil, names(19), 7)
	b, err2 := bridgeTables(nil, names(19), 7)
	if err1 != nil || err2 != nil || fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("two draws of one seed differ: %v %v\n%v\n%v", err1, err2, a, b)
	}
}

// TestCheckMatch submits simulated matches for tables of four and two and
// the mistakes a table can make.
func TestCheckMatch(t *testing.T) {
	t.Parallel()
	set, err := tournament.NewTournament{Name: "b", Format: tournament.FormatBridge, Rounds: ptr(4)}.Settings()
	if err != nil {
		t.Fatal(err)
	}
	s := bridgesim.New(3, bridgesim.Options{})
	four := tournament.Table{Number: 1, Players: []string{"a", "b", "c", "d"}, FirstDealer: "c"}
	rec := s.Match(bridge.GameChicago, four.Players)
	rec.FirstDealer = "c"
	rec = reseat(t, s, rec, 2)
	g, err := checkMatch(rec.AppendJSON(nil), four, set, false)
	if err != nil {
		t.Fatalf("a whole Chicago: %v", err)
	}
	res := bridge.Check(rec)
	for i, p := range g.places {
		side := i % 2
		want := res.Totals[side] - res.Totals[1-side]
		if p.Player != four.Players[i] || p.Score != want || p.Points != want || (p.Place == 1) != (res.Drawn || res.Winner == res.Sides[side]) {
			t.Errorf("place of %s = %+v, want score %d (result %v winner %q)", four.Players[i], p, want, res.Totals, res.Winner)
		}
	}
	if g.places[0].Points+g.places[1].Points != 0 {
		t.Errorf("the sides' scores do not cancel: %+v", g.places)
	}
	for name, tc := range map[string]struct {
		edit func(r bridge.Record) bridge.Record
		code string
	}{
		"draw bridge at a table of four": {func(r bridge.Record) bridge.Record { r.Game = bridge.GameDraw; return r }, "game_mismatch"},
		"other players":                  {func(r bridge.Record) bridge.Record { r.Players = []string{"a", "b", "d", "c"}; return r }, "players_mismatch"},
		"other first dealer":             {func(r bridge.Record) bridge.Record { r.FirstDealer = "a"; return r }, "first_dealer_mismatch"},
		"other rules":                    {func(r bridge.Record) bridge.Record { r.Rules.Vulnerability = bridge.VulNonDealer; return r }, "rules_mismatch"},
		"unfinished":                     {func(r bridge.Record) bridge.Record { r.Deals = r.Deals[:len(r.Deals)-1]; return r }, "match_not_finished"},
		"broken auction": {func(r bridge.Record) bridge.Record {
			r.Deals = slices.Clone(r.Deals)
			r.Deals[0].Auction = nil
			return r
		}, "invalid_record"},
	} {
		bad := tc.edit(*rec)
		_, err := checkMatch(bad.AppendJSON(nil), four, set, false)
		if tournament.ErrorCode(err) != tc.code {
			t.Errorf("%s: %v, want %s", name, err, tc.code)
		}
	}
	cut := *rec
	cut.Deals, cut.EndedByTime = cut.Deals[:1], true
	if _, err := checkMatch(cut.AppendJSON(nil), four, set, false); err != nil {
		t.Errorf("a Chicago cut short by time: %v", err)
	}
	two := tournament.Table{Number: 2, Players: []string{"x", "y"}, Seats: []int{1, 2}, FirstDealer: "x"}
	drec := s.Match(bridge.GameDraw, two.Players)
	drec.FirstDealer = "x"
	drec = reseat(t, s, drec, 0)
	if _, err := checkMatch(drec.AppendJSON(nil), two, set, false); err != nil {
		t.Errorf("a rubber at a table of two: %v", err)
	}
}

// reseat plays rec again from its first dealer (seat first), so that the
// deals' dealers follow it.
func reseat(t *testing.T, s *bridgesim.Sim, rec *bridge.Record, first int) *bridge.Record {
	t.Helper()
	out := &bridge.Record{Game: rec.Game, Players: rec.Players, FirstDealer: rec.Players[first]}
	m := bridge.NewMatch(rec.Game, rec.Players, bridge.Rules{}, first)
	for !m.Complete() {
		d, c, decl := s.Deal(rec.Players, m.Dealer())
		out.Deals = append(out.Deals, d)
		if d.Tricks == bridge.NoTricks {
			m.PassOut()
		} else {
			m.Play(c, decl, d.Tricks)
		}
	}
	return out
}

func ptr(n int) *int { return &n }
