package play

import (
	"sync"
	"time"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/tournament"
)

// warmGames remembers, for each game this process entered a deal of
// lately, what the next deal is checked with: the tournament and the round
// read for the deal before, their version (DealEntry.Version), the number
// of deals and the engine's running state after the last. It decorates
// the load of a deal's entry (Service.warmEntry before Store.DealEntry):
// the next deal of the game is then checked at once and stored by the
// one write of a deal (Store.AppendDeal), which writes only while all of that
// still stands; nothing read from the cache is trusted without that
// check, so an entry that went stale (another process entered the deal, a
// referee corrected one, the round was closed) costs one refused
// statement, after which the entry is loaded from the store. The bounds
// keep it small.
type warmGames struct {
	off     bool // WithWarmGames(false)
	mu      sync.Mutex
	entries map[tournament.GameKey]*warmGame
}

type warmGame struct {
	tournament *tournament.Tournament
	round      *tournament.Round // with only the game's table
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
func (w *warmGames) take(k tournament.GameKey, now time.Time) *warmGame {
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
func (w *warmGames) put(k tournament.GameKey, g *warmGame, now time.Time) {
	if w.off || g.version == "" { // off, or the store keeps no version: it cannot check
		return
	}
	g.until = now.Add(warmGameFor)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.entries == nil || len(w.entries) >= maxWarmGames {
		w.entries = map[tournament.GameKey]*warmGame{}
	}
	w.entries[k] = g
}

// rememberDeal keeps what the next deal of k is checked with after deal
// number deals was stored with state, read with entry e. Nothing is kept
// for a game whose state does not follow its deals (a corrected deal) or
// whose next deal ends it (time called).
func (s *Service) rememberDeal(k tournament.GameKey, e *tournament.DealEntry, deals int, state *engine.GameState) {
	if e.Corrected || e.Round.TimeCalled || state == nil || state.Over || state.Deals != deals {
		return
	}
	s.warm.put(k, &warmGame{tournament: e.Tournament, round: e.Round, version: e.Version, deals: deals, state: state}, time.Now())
}

// warmEntry is k's entry as this process kept it after the game's deal
// before, nil when it kept none. The entry is taken: a request whose deal
// does not fit it puts it back (loadedEntry.pass).
func (s *Service) warmEntry(k tournament.GameKey) *loadedEntry {
	w := s.warm.take(k, time.Now())
	if w == nil {
		return nil
	}
	return &loadedEntry{DealEntry: tournament.DealEntry{Tournament: w.tournament, Round: w.round, Deals: w.deals, Version: w.version},
		state: w.state, warm: true, keep: func() { s.warm.put(k, w, time.Now()) }}
}

// progressFromState is the progress of deal number deal of a game that
// goes on, judged from the running state (engine.NextDeal): the deal's
// result and the scores after it.
func progressFromState(deal int, dr *engine.DealResult, players []string, next *engine.GameState) *tournament.DealProgress {
	scores := make(map[string]int, len(players))
	for i, p := range players {
		scores[p] = next.Scores[i]
	}
	return &tournament.DealProgress{Deal: deal, Result: dr, Game: &engine.GameResult{Valid: true, Deals: []engine.DealResult{*dr},
		Scores: scores, Errors: []engine.Problem{}, Violations: []engine.Violation{}, Winners: []string{},
		Placements: []engine.Placement{}, Forfeits: []string{}}}
}
