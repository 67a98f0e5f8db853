package sim_test

import (
	"reflect"
	"testing"

	"github.com/revisor-sm/revisor/engine/bridge"
	"github.com/revisor-sm/revisor/engine/bridge/sim"
)

// TestMatchesAreValid checks that every simulated match is valid and
// complete, and reads back from its JSON unchanged.
func TestMatchesAreValid(t *testing.T) {
	t.Parallel()
	for _, opt := range []sim.Options{{}, {Play: true}, {Vulnerability: bridge.VulNonDealer, Play: true}} {
		s := sim.New(7, opt)
		for i := range 150 {
			game, n := bridge.GameChicago, 4
			if i%3 == 2 {
				game, n = bridge.GameDraw, 2
			}
			rec := s.Match(game, sim.Players(n))
			res := bridge.Check(rec)
			if !res.Valid || !res.Complete || (res.Winner == "") == !res.Drawn {
				t.Fatalf("match %d (%+v): valid %v complete %v winner %q drawn %v, errors %v",
					i, opt, res.Valid, res.Complete, res.Winner, res.Drawn, res.Errors)
			}
			back, err := bridge.Decode(rec.AppendJSON(nil))
			if err != nil {
				t.Fatalf("match %d: Decode(AppendJSON) = %v", i, err)
			}
			if !reflect.DeepEqual(back, rec) {
				t.Fatalf("match %d: the JSON reads back as\n%+v\nwant\n%+v", i, back, rec)
			}
		}
	}
}

// TestSameSeedSameMatches checks that a seed gives the same matches.
func TestSameSeedSameMatches(t *testing.T) {
	t.Parallel()
	a := sim.New(3, sim.Options{Play: true}).Match(bridge.GameChicago, sim.Players(4))
	b := sim.New(3, sim.Options{Play: true}).Match(bridge.GameChicago, sim.Players(4))
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two Sims of one seed wrote different matches")
	}
}

// TestMatchAt: a drawn table's match is a Chicago at four and a draw
// rubber at two, valid and complete, dealt first by the table's first
// dealer (by the first player when the dealer is none of them).
func TestMatchAt(t *testing.T) {
	t.Parallel()
	s := sim.New(5, sim.Options{})
	for _, tc := range []struct {
		players     []string
		first, want string
		game        string
	}{
		{sim.Players(4), "p3", "p3", bridge.GameChicago},
		{sim.Players(2), "p2", "p2", bridge.GameDraw},
		{sim.Players(4), "nobody", "p1", bridge.GameChicago},
	} {
		rec := s.MatchAt(tc.players, tc.first)
		res := bridge.Check(rec)
		if rec.Game != tc.game || rec.FirstDealer != tc.want || !res.Valid || !res.Complete {
			t.Errorf("MatchAt(%v, %q): game %q dealt first by %q, valid %v complete %v; want %q by %q, valid and complete",
				tc.players, tc.first, rec.Game, rec.FirstDealer, res.Valid, res.Complete, tc.game, tc.want)
		}
	}
}
