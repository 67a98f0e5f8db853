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
