package tournament

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/revisor-sm/revisor/engine"
)

// warmGames remembers, for each game this process entered a deal of
// lately, what the next deal is checked with: the tournament and the round
// read for the deal before, their version (DealEntry.Version), the number
// of deals and the engine's running state after the last. The next deal of
// the game is then checked at once and stored in one statement
// (Store.AppendWarmDeal) that writes only while all of that still stands;
// nothing read from the cache is trusted without that check, so an entry
// that went stale (another process entered the deal, a referee corrected
// one, the round was closed) costs one refused statement, after which the
// deal is entered the usual way. The bounds keep it small.
type warmGames struct {
	off     bool // WithWarmGames(false)
	mu      sync.Mutex
	entries map[GameKey]*warmGame
}

type warmGame struct {
	tournament *Tournament
	round      *Round // with only the game's table
	version    string
	deals      int
	state      *engine.GameState // after deal number deals (nil before the first)
	until      time.Time
}

// The warm games' bounds: how long an entry is kept after its last deal,
// and how many are kept (past it, the cache starts over). A round of a
// 2,000-player tournament has 500 tables.
const (
	warmGameFor  = 15 * time.Minute
	maxWarmGames = 4096
)

// take removes and returns the entry of k, nil when there is none or it
// expired: one request at a time enters a game's deal from its entry.
func (w *warmGames) take(k GameKey, now time.Time) *warmGame {
	w.mu.Lock()
	defer w.mu.Unlock()
	g := w.entries[k]
	if g == nil {
		return nil
	}
	delete(w.entries, k)
	if !now.Before(g.until) {
		return nil
	}
	return g
}

// put keeps g as k's entry.
func (w *warmGames) put(k GameKey, g *warmGame, now time.Time) {
	if w.off || g.version == "" { // off, or the store keeps no version: it cannot check
		return
	}
	g.until = now.Add(warmGameFor)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.entries == nil || len(w.entries) >= maxWarmGames {
		w.entries = map[GameKey]*warmGame{}
	}
	w.entries[k] = g
}

// rememberDeal keeps what the next deal of k is checked with after deal
// number deals was stored with state (JSON of engine.GameState), read
// with entry e. Nothing is kept for a game whose state does not follow
// its deals (a corrected deal) or whose next deal ends it (time called).
func (s *Service) rememberDeal(k GameKey, e *DealEntry, deals int, state *engine.GameState) {
	if e.Corrected || e.Round.TimeCalled || state == nil || state.Over || state.Deals != deals {
		return
	}
	s.warm.put(k, &warmGame{tournament: e.Tournament, round: e.Round, version: e.Version, deals: deals, state: state}, time.Now())
}

// appendWarm enters deal n (0: the next) of k from the game's warm entry:
// checked by the engine against the state kept after the deal before and
// stored by Store.AppendWarmDeal in one round trip, the request's
// Idempotency-Key claimed and answered with it. It answers nil and no
// error when it cannot (no entry, another deal number, a deal that is not
// valid or ends the game, anything changed in the store); nothing was
// written then, and the caller enters the deal the usual way, which words
// every error as before.
func (s *Service) appendWarm(ctx context.Context, a Actor, k GameKey, n int, data []byte) (*DealProgress, error) {
	if c, _ := ctx.Value(keyClaimCtx{}).(*KeyClaim); c != nil && c.IsMade() {
		return nil, nil // the key is claimed already: the usual way stores the answer
	}
	w := s.warm.take(k, time.Now())
	if w == nil {
		return nil, nil
	}
	keep := func() { s.warm.put(k, w, time.Now()) }
	if n != 0 && n != w.deals+1 {
		keep()
		return nil, nil
	}
	deal, err := canonicalJSON(data)
	if err != nil || deal[0] != '{' {
		keep()
		return nil, nil
	}
	gd, err := engine.DecodeGameDeal(deal)
	if err != nil {
		keep()
		return nil, nil
	}
	t, tb := w.tournament, w.round.Tables[0]
	if len(tb.withdrawnIn(k.Game)) > 0 {
		keep()
		return nil, nil // checked the usual way (refuseWithdrawnScore)
	}
	rules := t.Settings.rules()
	dr, next, err := engine.NextDeal(&engine.GameRecord{Rules: &rules, Players: tb.Players, FirstDealer: tb.FirstDealerOf(k.Game)}, w.state, &gd)
	if err != nil || !dr.Valid {
		keep()
		return nil, nil
	}
	if next.Over {
		return nil, nil // the last deal makes the game's result the usual way
	}
	state, err := json.Marshal(next)
	if err != nil {
		return nil, fmt.Errorf("encoding the game's state: %w", err)
	}
	p := progressFromState(w.deals+1, dr, tb.Players, next)
	c := KeyClaimFrom(ctx)
	if c != nil {
		if err := c.PrepareUnclaimed(p); err != nil {
			return nil, err
		}
	}
	ok, err := s.store.AppendWarmDeal(auditAs(ctx, a), k, w.deals, w.version, deal, state, s.clock())
	if err != nil {
		return nil, err
	}
	if !ok {
		if c != nil {
			c.Answer = nil
		}
		return nil, nil
	}
	w.deals, w.state = w.deals+1, next
	keep()
	return p, nil
}

// progressFromState is the progress of deal number deal of a game that
// goes on, judged from the running state (engine.NextDeal): the deal's
// result and the scores after it.
func progressFromState(deal int, dr *engine.DealResult, players []string, next *engine.GameState) *DealProgress {
	scores := make(map[string]int, len(players))
	for i, p := range players {
		scores[p] = next.Scores[i]
	}
	return &DealProgress{Deal: deal, Result: dr, Game: &engine.GameResult{Valid: true, Deals: []engine.DealResult{*dr},
		Scores: scores, Errors: []engine.Problem{}, Violations: []engine.Violation{}, Winners: []string{},
		Placements: []engine.Placement{}, Forfeits: []string{}}}
}
