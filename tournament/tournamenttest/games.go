// Package tournamenttest builds game records for tests of the tournament:
// games played by the engine's simulator, legal score-sheet games drawn
// from a seeded source, and games with exact scores for tests of
// placements and tiebreaks.
package tournamenttest

import (
	"encoding/json"
	"math/rand/v2"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/sim"
)

// sheetLine is one deal of a score sheet: player → source → points.
type sheetLine map[string]map[string]int

// handPoints are the points a scored hand may be worth under sm (pair to
// straight flush; the royal straight flush is left out to keep games long
// enough to be interesting).
var handPoints = []int{1, 2, 3, 4, 5, 6, 7, 8}

// SheetGame returns a legal game record of score-sheet lines for players
// seated in order with the given first dealer, played until someone reaches
// 52 (the sm target). Each deal gives each phase's points to a random
// player (or to no one), the last trick's 5 to a random player, and
// sometimes a won Chicago (+15) instead to a player allowed to declare.
func SheetGame(rng *rand.Rand, players []string, firstDealer string) []byte {
	scores := make(map[string]int, len(players))
	var deals []map[string]sheetLine
	for over := false; !over; {
		line := sheetLine{}
		add := func(p, source string, pts int) {
			if line[p] == nil {
				line[p] = map[string]int{}
			}
			line[p][source] = pts
			scores[p] += pts
		}
		for _, src := range []string{"hand1", "hand2"} {
			if rng.IntN(5) > 0 {
				add(players[rng.IntN(len(players))], src, handPoints[rng.IntN(len(handPoints))])
			}
		}
		p := players[rng.IntN(len(players))]
		if scores[p] >= 15 && rng.IntN(8) == 0 {
			add(p, "chicago", 15)
		} else {
			add(p, "last_trick", 5)
		}
		if rng.IntN(5) > 0 {
			add(players[rng.IntN(len(players))], "hand3", handPoints[rng.IntN(len(handPoints))])
		}
		deals = append(deals, map[string]sheetLine{"sheet": line})
		for _, s := range scores {
			over = over || s >= 52
		}
	}
	return mustJSON(map[string]any{"players": players, "first_dealer": firstDealer, "deals": deals})
}

// TimedGame returns a game stopped by the clock (ended_by "time") made of
// the given score-sheet lines (player → source → points). It makes exact
// scores, for tests of placements and ties: one line {"a": {"last_trick":
// 5}} leaves a first with 5 and everyone else sharing second with 0.
func TimedGame(players []string, firstDealer string, lines ...map[string]map[string]int) []byte {
	deals := make([]map[string]any, len(lines))
	for i, l := range lines {
		deals[i] = map[string]any{"sheet": l}
	}
	return mustJSON(map[string]any{"players": players, "first_dealer": firstDealer, "deals": deals, "ended_by": "time"})
}

// DealOf splits a sheet game into its deals, each as the body of an
// appended deal.
func DealOf(game []byte) [][]byte {
	var g struct {
		Deals []json.RawMessage `json:"deals"`
	}
	if err := json.Unmarshal(game, &g); err != nil {
		panic(err)
	}
	out := make([][]byte, len(g.Deals))
	for i, d := range g.Deals {
		out[i] = d
	}
	return out
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// SimGame plays a game at a table with the engine's simulator (sm rules,
// its livelier default options) and returns the record as JSON: full deals,
// each written as a score-sheet line instead with probability sheets.
//
// A simulated game the engine rejects (the simulator once drew a refused
// open card again now and then) is skipped, deterministically, so that
// tournament tests always get legal games.
func SimGame(seed uint64, players []string, firstDealer string, sheets float64) []byte {
	for try := uint64(0); ; try++ {
		s := sim.NewWithOptions(seed+try<<40, engine.SM(), sim.DefaultOptions())
		g := s.Game(players, firstDealer)
		if !engine.CheckGame(g, engine.GameOptions{}).Valid && try < 100 {
			continue
		}
		if sheets > 0 {
			g = s.SheetsOf(g, sheets)
		}
		return mustJSON(g)
	}
}
