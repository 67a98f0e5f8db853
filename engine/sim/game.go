package sim

import (
	"slices"

	"github.com/revisor-sm/revisor/engine"
)

// Game plays a whole game at a table of players, the first deal dealt by
// firstDealer and the deal passing clockwise, until the game is over under
// the rules (or Options.MaxDeals deals, when it is ended by time). The
// scores carried from deal to deal are the engine's: the simulator plays
// the deals, the engine keeps the score sheet as a table's revisor would.
// A deal the engine finds invalid (a bug, never a choice of the simulator)
// ends the game there, ended by time, so that CheckGame reports it. Game
// panics when firstDealer is not one of players.
func (s *Sim) Game(players []string, firstDealer string) *engine.GameRecord {
	rules := s.rules
	g := &engine.GameRecord{Rules: &rules, Players: slices.Clone(players), FirstDealer: firstDealer,
		EndedBy: engine.EndedByTarget}
	scores := make(map[string]int, len(players))
	for k := 0; k < s.opt.MaxDeals; k++ {
		d := s.Deal(players, g.DealerOf(k), scores)
		g.AppendDeal(d)
		res := engine.CheckDeal(d)
		if !res.Valid {
			break // a bug in the simulator or the engine; CheckGame will say what
		}
		scores = res.Scores
		if s.mayBeOver(res) && engine.CheckGame(g, engine.GameOptions{InProgress: true}).GameOver {
			return g
		}
	}
	g.EndedBy = engine.EndedByTime
	return g
}

// mayBeOver reports whether the game can be over after a deal with result
// res: someone reached the target, or a royal straight flush scored.
func (s *Sim) mayBeOver(res *engine.DealResult) bool {
	for _, v := range res.Scores {
		if v >= s.rules.Target {
			return true
		}
	}
	for _, a := range res.Awards {
		if a.Category == engine.RoyalStraightFlush.String() {
			return true
		}
	}
	return false
}

// SheetGame plays a game like Game and returns it as the score sheet a
// table's revisor writes: one sheet line per deal with the points of each
// source. Under clean play it scores exactly as the full game.
func (s *Sim) SheetGame(players []string, firstDealer string) *engine.GameRecord {
	return s.SheetsOf(s.Game(players, firstDealer), 1)
}

// SheetsOf returns a copy of game g with each full deal replaced by its
// score-sheet line with probability p (1: all sheets, 0: none). The sheet
// lines are the awards the engine gives the deals, so g must be valid.
func (s *Sim) SheetsOf(g *engine.GameRecord, p float64) *engine.GameRecord {
	res := engine.CheckGame(g, engine.GameOptions{InProgress: true})
	out := *g
	out.Deals = make([]engine.GameDeal, len(g.Deals))
	for k, gd := range g.Deals {
		out.Deals[k] = gd
		if gd.Deal != nil && k < len(res.Deals) && (p >= 1 || s.chance(p)) {
			out.Deals[k] = engine.GameDeal{Sheet: Sheet(res.Deals[k].Awards)}
		}
	}
	return &out
}

// Sheet returns the score-sheet line of a deal's awards.
func Sheet(awards []engine.Award) engine.Sheet {
	sh := engine.Sheet{}
	for _, a := range awards {
		line := sh[a.Player]
		if line == nil {
			line = map[string]int{}
			sh[a.Player] = line
		}
		line[a.Source] += a.Points
	}
	return sh
}
