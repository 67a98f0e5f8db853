package play

import (
	"context"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/bridge"
	"github.com/revisor-sm/revisor/tournament"
)

// Progress is a game as its table plays it: the deals entered so far, each
// checked again by the engine with the running scores.
type Progress struct {
	Key tournament.GameKey
	// Deals holds one result per deal entered: its awards (the score
	// sheet's line) and the totals after it.
	Deals []engine.DealResult
	// Scores are the running totals by player ID.
	Scores map[string]int
	// Over is true when the game has a result (read it with Game).
	Over bool
	// Match is a bridge table's match as far as its deals go (Deals and
	// Scores stay empty there): each deal's contract, vulnerability and
	// points, the sides' totals and the next dealer.
	Match *bridge.Result
}

// Progress returns the deals entered so far in a game that is entered deal
// by deal. A game submitted as a whole record has no deals here; its
// result says how it went.
func (s *Service) Progress(ctx context.Context, k tournament.GameKey) (*Progress, error) {
	t, _, tb, err := s.gameTable(ctx, k)
	if err != nil {
		return nil, err
	}
	deals, over, err := s.store.Deals(ctx, k)
	if err != nil {
		return nil, err
	}
	p := &Progress{Key: k, Over: over, Scores: map[string]int{}}
	if t.Format == tournament.FormatBridge {
		p.Match, err = s.judgeDeals(tb, t.Settings, deals)
		return p, err
	}
	if len(deals) == 0 {
		return p, nil
	}
	game, err := composeGame(tb, k.Game, deals)
	if err != nil {
		return nil, err
	}
	res, err := judgeGame(game, tb, k.Game, t.Settings, engine.GameOptions{InProgress: true})
	if err != nil {
		return nil, err
	}
	p.Deals, p.Scores = res.Deals, res.Scores
	return p, nil
}
