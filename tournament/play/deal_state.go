package play

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/tournament"
)

// loadedEntry is a DealEntry as a deal is decided with: its running state
// parsed (nil before the first deal, or when it is not kept or does not
// follow the deals), and warm when it comes from this process's memory
// (warmGames) rather than the store. Either way its write stands only
// under its Version (GameStore.AppendDeal).
type loadedEntry struct {
	tournament.DealEntry
	state *engine.GameState
	warm  bool
	keep  func() // an entry from memory: puts it back (warmGames.put)
}

// errReload says an entry from memory did not take the deal: nothing was
// written, and the deal is entered again from the store's entry.
var errReload = errors.New("the warm entry does not take the deal; load the game's entry from the store")

// refused is err, or errReload for an entry from memory: the store's
// entry words the refusal (what memory kept may be stale).
func (e *loadedEntry) refused(err error) error {
	if e.warm {
		return e.pass(true)
	}
	return err
}

// pass is what an entry answers when its running state does not take the
// deal: nil for the store's entry (the caller checks the whole game), and
// errReload for one from memory, which goes back to memory first when
// keep says it still holds (the deal did not fit; nothing changed).
func (e *loadedEntry) pass(keep bool) error {
	if !e.warm {
		return nil
	}
	if keep {
		e.keep()
	}
	return errReload
}

// fast reports whether the next deal can be checked against the running
// state: the game has no result, time was not called (the next deal then
// ends the game), no deal was corrected (the state does not follow
// corrections), and the state after the last deal is kept (or there is no
// deal yet).
func (e *loadedEntry) fast() bool {
	return !e.HasResult && !e.Round.TimeCalled && !e.Corrected && (e.Deals == 0 || e.state != nil)
}

// loadEntry reads k's entry through gs.
func (s *Service) loadEntry(ctx context.Context, gs tournament.GameStore, k tournament.GameKey) (*loadedEntry, error) {
	e, err := gs.DealEntry(ctx, k)
	if err != nil {
		return nil, err
	}
	l := &loadedEntry{DealEntry: *e}
	if e.Deals > 0 && e.State != nil {
		if st, err := engine.ParseGameState(e.State); err == nil && st.Deals == e.Deals {
			l.state = st
		}
	}
	return l, nil
}

// write is the write of deal (number seq, 0-based) under entry e, which
// answers p once stored.
func (e *loadedEntry) write(k tournament.GameKey, seq int, deal []byte, at time.Time, p *tournament.DealProgress) *tournament.DealWrite {
	return &tournament.DealWrite{Game: k, Seq: seq, Deal: deal, Version: e.Version, Corrected: e.Corrected, At: at, Outcome: p}
}

// appendFromState enters deal as the next deal of a game that goes on,
// checked by the engine against the entry's running state without reading
// or checking the earlier deals again, and committed only while the entry
// stands. It answers nil and no error when it cannot (the state does not
// take the deal, the deal is not valid or ends the game, the table has a
// withdrawn player), errReload when the entry no longer stands; nothing
// was written then.
func (s *Service) appendFromState(ctx context.Context, gs tournament.GameStore, a tournament.Actor, k tournament.GameKey, e *loadedEntry, deal []byte) (*tournament.DealProgress, error) {
	tb := e.Round.Tables[0]
	if !e.fast() {
		return nil, e.pass(false)
	}
	gd, err := engine.DecodeGameDeal(deal)
	if err != nil {
		return nil, e.pass(true)
	}
	rules := e.Tournament.Settings.EngineRules()
	dr, next, err := engine.NextDeal(&engine.GameRecord{Rules: &rules, Players: tb.Players, FirstDealer: tb.FirstDealerOf(k.Game)}, e.state, &gd)
	if err != nil || !dr.Valid {
		return nil, e.pass(true)
	}
	if next.Over {
		return nil, e.pass(false) // the last deal makes the game's result from the whole game
	}
	state, err := json.Marshal(next)
	if err != nil {
		return nil, fmt.Errorf("encoding the game's state: %w", err)
	}
	p := progressFromState(e.Deals+1, dr, tb.Players, next)
	w := e.write(k, e.Deals, deal, s.clock(), p)
	w.State = state
	if err := commitDeal(ctx, gs, a, w); err != nil {
		return nil, err
	}
	s.rememberDeal(k, &e.DealEntry, e.Deals+1, next)
	return p, nil
}
