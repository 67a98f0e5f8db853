package tournament

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/revisor-sm/revisor/engine"
)

// DealEntry is what entering the next deal of a game needs, read at once
// (Store.DealEntry): the tournament, the round with only the game's table,
// how many deals the game holds, whether it has a result, whether a deal
// of it was corrected, and the engine's running state after its last deal
// (nil when it is not kept).
type DealEntry struct {
	Tournament *Tournament
	Round      *Round
	Deals      int
	HasResult  bool
	Corrected  bool
	State      json.RawMessage
	// Version names the state of what the deal is checked with besides
	// the game's deals (the tournament, the round, the table, its
	// withdrawals, the round's clock): Store.AppendWarmDeal writes only
	// under the version read. Empty when the store keeps none.
	Version string
}

// Fast reports whether the next deal can be checked against the stored
// running state: the game has no result, time was not called (the next
// deal then ends the game), no deal was corrected (the state does not
// follow corrections), and the state after the last deal is kept (or there
// is no deal yet).
func (e *DealEntry) Fast() bool {
	return !e.HasResult && !e.Round.TimeCalled && !e.Corrected && (e.Deals == 0 || e.State != nil)
}

// appendFromState enters deal as the next deal of a game that goes on,
// checked by the engine against the running state stored with the deal
// before it, without reading or checking the earlier deals again. It
// answers nil and no error when it cannot: the state does not fit, the
// deal is not valid or ends the game; the caller then checks the whole
// game, which words every error as before and makes the game's result.
func (s *Service) appendFromState(ctx context.Context, a Actor, k GameKey, t *Tournament, tb Table, e *DealEntry, deal []byte) (*DealProgress, error) {
	var gs *engine.GameState
	if e.Deals > 0 {
		var err error
		if gs, err = engine.ParseGameState(e.State); err != nil || gs.Deals != e.Deals {
			return nil, nil
		}
	}
	gd, err := engine.DecodeGameDeal(deal)
	if err != nil {
		return nil, nil
	}
	rules := t.Settings.rules()
	dr, next, err := engine.NextDeal(&engine.GameRecord{Rules: &rules, Players: tb.Players, FirstDealer: tb.FirstDealerOf(k.Game)}, gs, &gd)
	if err != nil || !dr.Valid || next.Over {
		return nil, nil
	}
	state, err := json.Marshal(next)
	if err != nil {
		return nil, fmt.Errorf("encoding the game's state: %w", err)
	}
	p := progressFromState(e.Deals+1, dr, tb.Players, next)
	// The answer is known before the deal is stored: it is stored with it.
	if err := prepareAnswer(ctx, p); err != nil {
		return nil, err
	}
	if err := s.store.AppendNextDeal(auditAs(ctx, a), k, e.Deals, deal, state, s.clock(), roundOpen); err != nil {
		return nil, err
	}
	s.rememberDeal(k, e, e.Deals+1, next)
	return p, nil
}
