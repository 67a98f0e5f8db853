package tournamenttest_test

import (
	"math/rand/v2"
	"testing"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// TestSheetGameIsLegal checks that generated games are what the engine
// accepts as finished games, for tables of 3 and 4.
func TestSheetGameIsLegal(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		players := []string{"p1", "p2", "p3", "p4"}[:3+i%2]
		data := tournamenttest.SheetGame(rng, players, players[i%len(players)])
		g, err := engine.DecodeGame(data)
		if err != nil {
			t.Fatalf("game %d: DecodeGame = %v, want nil", i, err)
		}
		res := engine.CheckGame(g, engine.GameOptions{})
		if !res.Valid || !res.GameOver {
			t.Fatalf("game %d: CheckGame valid=%v game_over=%v, want true, true; errors %v\n%s", i, res.Valid, res.GameOver, res.Errors, data)
		}
	}
}

// TestTimedGamePlaces checks that a timed game gives the exact scores asked for.
func TestTimedGamePlaces(t *testing.T) {
	t.Parallel()
	players := []string{"a", "b", "c", "d"}
	data := tournamenttest.TimedGame(players, "a", map[string]map[string]int{"a": {"last_trick": 5}, "b": {"hand1": 2}})
	g, err := engine.DecodeGame(data)
	if err != nil {
		t.Fatal(err)
	}
	res := engine.CheckGame(g, engine.GameOptions{})
	want := map[string]int{"a": 1, "b": 2, "c": 3, "d": 3}
	for _, p := range res.Placements {
		if want[p.Player] != p.Place {
			t.Errorf("place of %s = %d, want %d", p.Player, p.Place, want[p.Player])
		}
	}
	if !res.Valid || len(res.Placements) != 4 {
		t.Fatalf("CheckGame = valid %v, %d placements; want valid with 4 (errors %v)", res.Valid, len(res.Placements), res.Errors)
	}
}

// TestSimGameIsLegal checks simulated games at tables of 3 and 4, with and
// without score-sheet lines.
func TestSimGameIsLegal(t *testing.T) {
	t.Parallel()
	for i := range 20 {
		players := []string{"p1", "p2", "p3", "p4"}[:3+i%2]
		data := tournamenttest.SimGame(uint64(i), players, players[i%len(players)], float64(i%3)/2)
		g, err := engine.DecodeGame(data)
		if err != nil {
			t.Fatalf("game %d: DecodeGame = %v, want nil", i, err)
		}
		if res := engine.CheckGame(g, engine.GameOptions{}); !res.Valid {
			t.Fatalf("game %d: CheckGame valid = false, errors %v", i, res.Errors)
		}
	}
}
