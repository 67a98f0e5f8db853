package sim_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/sim"
)

// TestGameMutations changes one thing in a valid simulated game (full
// deals, or its score sheet) and checks the error the engine gives.
func TestGameMutations(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		sheets bool
		apply  func(g *engine.GameRecord) (code, path string, ok bool)
	}{
		{"a deal after the game is over", false, func(g *engine.GameRecord) (string, string, bool) {
			g.Deals = append(g.Deals, g.Deals[len(g.Deals)-1])
			return "deal_after_game_over", fmt.Sprintf("/deals/%d", len(g.Deals)-1), true
		}},
		{"the last deal left out", false, func(g *engine.GameRecord) (string, string, bool) {
			g.Deals = g.Deals[:len(g.Deals)-1]
			return "game_not_finished", "/deals", true
		}},
		{"the last sheet line left out", true, func(g *engine.GameRecord) (string, string, bool) {
			g.Deals = g.Deals[:len(g.Deals)-1]
			return "game_not_finished", "/deals", true
		}},
		{"last trick worth 4", true, func(g *engine.GameRecord) (string, string, bool) {
			for k, gd := range g.Deals {
				for p, line := range gd.Sheet {
					if _, ok := line[engine.SourceLastTrick]; ok {
						line[engine.SourceLastTrick] = 4
						return "invalid_points", fmt.Sprintf("/deals/%d/sheet/%s/last_trick", k, p), true
					}
				}
			}
			return "", "", false
		}},
		{"the last trick scored twice", true, func(g *engine.GameRecord) (string, string, bool) {
			gd := g.Deals[0]
			for p, line := range gd.Sheet {
				if v, ok := line[engine.SourceLastTrick]; ok {
					other := g.Players[(slices.Index(g.Players, p)+1)%len(g.Players)]
					if gd.Sheet[other] == nil {
						gd.Sheet[other] = map[string]int{}
					}
					gd.Sheet[other][engine.SourceLastTrick] = v
					return "source_scored_twice", "", true
				}
			}
			return "", "", false
		}},
		{"a sheet line without last trick or Chicago", true, func(g *engine.GameRecord) (string, string, bool) {
			for _, line := range g.Deals[0].Sheet {
				delete(line, engine.SourceLastTrick)
				delete(line, engine.SourceChicago)
			}
			return "missing_last_trick", "/deals/0/sheet", true
		}},
	}
	for _, tt := range tests {
		applied := 0
		for seed := uint64(1); seed <= 10; seed++ {
			s := sim.New(seed, engine.SM())
			players := sim.Players(3 + int(seed%2))
			g := s.Game(players, players[0])
			if tt.sheets {
				g = s.SheetsOf(g, 1)
			}
			if res := engine.CheckGame(g, engine.GameOptions{}); !res.Valid {
				t.Fatalf("%s seed %d: the simulated game is invalid: %+v", tt.name, seed, res.Errors)
			}
			code, path, ok := tt.apply(g)
			if !ok {
				continue
			}
			applied++
			res := engine.CheckGame(g, engine.GameOptions{})
			if res.Valid || !slices.ContainsFunc(res.Errors, func(p engine.Problem) bool {
				return p.Code == code && (path == "" || p.Path == path)
			}) {
				t.Errorf("%s seed %d: CheckGame = valid %v, %+v; want %s at %q", tt.name, seed, res.Valid, res.Errors, code, path)
			}
		}
		if applied < 5 {
			t.Errorf("%s: applied to %d of 10 games", tt.name, applied)
		}
	}
}

// TestGameEndedByTime: a game cut short is valid when ended by time, and
// placed by the totals at that moment.
func TestGameEndedByTime(t *testing.T) {
	t.Parallel()
	for seed := uint64(1); seed <= 10; seed++ {
		s := sim.New(seed, engine.SM())
		g := s.Game(sim.Players(4), "p4")
		g.Deals = g.Deals[:len(g.Deals)/2]
		g.EndedBy = engine.EndedByTime
		res := engine.CheckGame(g, engine.GameOptions{})
		if !res.Valid || res.GameOver {
			t.Errorf("seed %d: CheckGame(ended by time) = valid %v, game over %v, %+v", seed, res.Valid, res.GameOver, res.Errors)
		}
		checkPlacements(t, "ended by time", seed, res)
		if inProgress := engine.CheckGame(&engine.GameRecord{Players: g.Players, FirstDealer: g.FirstDealer, Deals: g.Deals},
			engine.GameOptions{InProgress: true}); !inProgress.Valid {
			t.Errorf("seed %d: CheckGame(in progress) invalid: %+v", seed, inProgress.Errors)
		}
	}
}
