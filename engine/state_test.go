package engine_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/sim"
)

// TestNextDealMatchesCheckGame: checking a game deal by deal from the
// running state gives every deal the result CheckGame gives it in the
// whole game, and the same state at the end, for simulated games of full
// deals and score-sheet lines, through the state's JSON as a store keeps it.
func TestNextDealMatchesCheckGame(t *testing.T) {
	t.Parallel()
	players := []string{"p1", "p2", "p3", "p4"}
	for seed := uint64(1); seed <= 40; seed++ {
		s := sim.NewWithOptions(seed, engine.SM(), sim.DefaultOptions())
		g := s.SheetsOf(s.Game(players, players[seed%4]), 0.5)
		whole, want := engine.CheckGameState(g, engine.GameOptions{InProgress: true})
		var st *engine.GameState
		for k := range g.Deals {
			dr, next, err := engine.NextDeal(g, st, &g.Deals[k])
			if err != nil {
				t.Fatalf("seed %d deal %d: %v", seed, k+1, err)
			}
			if !reflect.DeepEqual(*dr, whole.Deals[k]) {
				t.Fatalf("seed %d deal %d: NextDeal = %+v, CheckGame = %+v", seed, k+1, *dr, whole.Deals[k])
			}
			b, err := json.Marshal(next)
			if err != nil {
				t.Fatal(err)
			}
			if st, err = engine.ParseGameState(b); err != nil {
				t.Fatalf("seed %d deal %d: state %s: %v", seed, k+1, b, err)
			}
		}
		if !reflect.DeepEqual(st, want) {
			t.Errorf("seed %d: state after the last deal %+v, CheckGameState %+v", seed, st, want)
		}
		if st.Deals != len(g.Deals) || st.Over != whole.GameOver {
			t.Errorf("seed %d: state %+v after %d deals, game over %v", seed, st, len(g.Deals), whole.GameOver)
		}
	}
}

// TestNextDealRefuses: a state that does not fit the game, or a game whose
// header is not valid, is an error (the caller checks the whole game).
func TestNextDealRefuses(t *testing.T) {
	t.Parallel()
	g := &engine.GameRecord{Players: []string{"a", "b", "c"}, FirstDealer: "a"}
	d := &engine.GameDeal{Sheet: engine.Sheet{}}
	for name, c := range map[string]struct {
		g  *engine.GameRecord
		st *engine.GameState
	}{
		"four scores for three players": {g, &engine.GameState{Deals: 1, Scores: []int{0, 0, 0, 0}}},
		"negative deals":                {g, &engine.GameState{Deals: -1, Scores: []int{0, 0, 0}}},
		"too many deals":                {g, &engine.GameState{Deals: engine.MaxGameDeals, Scores: []int{0, 0, 0}}},
		"unknown first dealer":          {&engine.GameRecord{Players: g.Players, FirstDealer: "x"}, nil},
		"one player":                    {&engine.GameRecord{Players: []string{"a"}, FirstDealer: "a"}, nil},
		"no game":                       {nil, nil},
	} {
		if _, _, err := engine.NextDeal(c.g, c.st, d); err == nil {
			t.Errorf("%s: NextDeal succeeded", name)
		}
	}
}

// stepsOfGame is a simulated game's deals as stored (JSON) and the running
// state before each, for the benchmarks of one deal's steps.
func stepsOfGame(b *testing.B) (*engine.GameRecord, [][]byte, []*engine.GameState) {
	players := []string{"p1", "p2", "p3", "p4"}
	s := sim.NewWithOptions(1, engine.SM(), sim.DefaultOptions())
	g := s.SheetsOf(s.Game(players, "p1"), 0.5)
	raw := make([][]byte, len(g.Deals))
	states := make([]*engine.GameState, len(g.Deals))
	var st *engine.GameState
	for k := range g.Deals {
		var err error
		if raw[k], err = json.Marshal(g.Deals[k]); err != nil {
			b.Fatal(err)
		}
		states[k] = st
		if _, st, err = engine.NextDeal(g, st, &g.Deals[k]); err != nil {
			b.Fatal(err)
		}
	}
	return g, raw, states
}

// BenchmarkDecodeGameDeal: the first step of entering a deal, reading it
// (half score-sheet lines, half full deals).
func BenchmarkDecodeGameDeal(b *testing.B) {
	_, raw, _ := stepsOfGame(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := engine.DecodeGameDeal(raw[i%len(raw)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNextDeal: the second step, checking the deal against the
// running state kept with the deal before it (instead of the game so far).
func BenchmarkNextDeal(b *testing.B) {
	g, _, states := stepsOfGame(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		k := i % len(g.Deals)
		if _, _, err := engine.NextDeal(g, states[k], &g.Deals[k]); err != nil {
			b.Fatal(err)
		}
	}
}
