package play

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/internal/tokens"
	"github.com/revisor-sm/revisor/tournament"
)

// Submission is the answer to a game submission.
type Submission struct {
	Result  *tournament.GameResult
	Created bool // false: the same record was already accepted (a harmless repeat)
}

// gameTable finds the table of a game and checks that the game number is
// one the round plays.
func (s *Service) gameTable(ctx context.Context, k tournament.GameKey) (*tournament.Tournament, *tournament.Round, tournament.Table, error) {
	return s.gameTableIn(ctx, s.store, k)
}

// gameTableIn is gameTable read through gs.
func (s *Service) gameTableIn(ctx context.Context, gs tournament.GameStore, k tournament.GameKey) (*tournament.Tournament, *tournament.Round, tournament.Table, error) {
	t, r, err := gs.Table(ctx, k.TournamentID, k.Round, k.Table)
	if err != nil {
		return nil, nil, tournament.Table{}, err
	}
	if err := gameNumber(t, r, k); err != nil {
		return nil, nil, tournament.Table{}, err
	}
	return t, r, r.Tables[0], nil
}

// openGameTableIn is gameTableIn of a round still open: what a table's
// writes read first.
func (s *Service) openGameTableIn(ctx context.Context, gs tournament.GameStore, k tournament.GameKey) (*tournament.Tournament, tournament.Table, error) {
	t, r, tb, err := s.gameTableIn(ctx, gs, k)
	if err != nil {
		return nil, tournament.Table{}, err
	}
	if err := roundOpen(r); err != nil {
		return nil, tournament.Table{}, err
	}
	return t, tb, nil
}

// gameNumber checks that the game number is one the round plays.
func gameNumber(t *tournament.Tournament, r *tournament.Round, k tournament.GameKey) error {
	if games := t.Settings.GamesIn(r.Final); k.Game < 1 || k.Game > games {
		return tournament.Errorf(tournament.KindNotFound, tournament.CodeGameNotFound,
			"a table plays games 1 to %d in this round; there is no game %d", games, k.Game)
	}
	return nil
}

// roundOpen refuses results for a closed round.
func roundOpen(r *tournament.Round) error {
	if r.Status != tournament.RoundOpen {
		return tournament.Errorf(tournament.KindConflict, tournament.CodeRoundClosed, "round %d is closed; only a referee can change its results", r.Number)
	}
	return nil
}

// SubmitGame takes a table's game record. The first valid record for a
// game is binding: the same record again is a repeat (Created false), a
// different one is a conflict.
func (s *Service) SubmitGame(ctx context.Context, a tournament.Actor, k tournament.GameKey, data []byte) (*Submission, error) {
	return s.SubmitGameIn(ctx, nil, a, k, data)
}

// SubmitGameIn is SubmitGame with its reads and its write through the
// game store as wrap decorates it (a command's unit of work).
func (s *Service) SubmitGameIn(ctx context.Context, wrap tournament.Wrap, a tournament.Actor, k tournament.GameKey, data []byte) (*Submission, error) {
	if err := a.RequireTable(k.Round, k.Table); err != nil {
		return nil, err
	}
	gs := s.games(wrap)
	t, tb, err := s.openGameTableIn(ctx, gs, k)
	if err != nil {
		return nil, err
	}
	g, err := checkGame(data, tb, k.Game, t.Format, t.Settings, engine.GameOptions{})
	if err != nil {
		return nil, err
	}
	res := &tournament.GameResult{Key: k, Kind: tournament.ResultSubmission, Record: g.record, RecordHash: g.hash, Result: g.json,
		Places: g.places, SubmittedBy: a.String(), CreatedAt: s.clock()}
	stored, created, err := gs.SubmitResult(tournament.AuditAs(ctx, a), res, roundOpen)
	if err != nil {
		return nil, err
	}
	if !created && !bytes.Equal(stored.RecordHash, res.RecordHash) {
		return nil, resultExists(k, stored)
	}
	return &Submission{Result: stored, Created: created}, nil
}

func resultExists(k tournament.GameKey, stored *tournament.GameResult) error {
	e := tournament.Errorf(tournament.KindConflict, tournament.CodeResultExists,
		"game %d of table %d in round %d already has a different result (accepted %s); results are binding, only a referee can change them",
		k.Game, k.Table, k.Round, stored.CreatedAt.Format("2006-01-02T15:04:05Z"))
	e.Details = map[string]any{"result_id": strconv.FormatInt(stored.ID, 10)} // IDs are opaque strings (docs/api.md)
	return e
}

// AppendDeal adds one deal (a score-sheet line or a full deal, as an entry
// of a game record's deals) to a game in progress, checked by the engine
// against the deals before it. The deal that ends the game makes the
// game's result.
func (s *Service) AppendDeal(ctx context.Context, a tournament.Actor, k tournament.GameKey, data []byte) (*tournament.DealProgress, error) {
	return s.AppendDealAt(ctx, a, k, 0, data)
}

// AppendDealAt is AppendDeal for a client that numbers its deals: the deal
// must become deal n (1-based; 0 takes the next number, as AppendDeal).
// When the game already holds the same deal as deal n, nothing is written
// and its progress is answered again with Repeat set: a table that sends a
// deal again after a lost answer (or a server that died before it could
// answer) never enters it twice. Another deal n, or a gap before n, is a
// conflict.
func (s *Service) AppendDealAt(ctx context.Context, a tournament.Actor, k tournament.GameKey, n int, data []byte) (*tournament.DealProgress, error) {
	return s.AppendDealIn(ctx, nil, a, k, n, data)
}

// maxDealAttempts bounds how often a deal is decided again after its
// write found the entry changed (another deal, a closed round, a
// reseated table between the read and the write).
const maxDealAttempts = 4

// AppendDealIn is AppendDealAt with its reads and its write through the
// game store as wrap decorates it (a command's unit of work). It loads
// what the deal is checked with (this process's memory of the game's deal
// before, else the store), lets the engine decide, and commits only if
// what was loaded still stands (GameStore.AppendDeal); when it does not,
// nothing was written and the entry is loaded again from the store, which
// words every refusal.
func (s *Service) AppendDealIn(ctx context.Context, wrap tournament.Wrap, a tournament.Actor, k tournament.GameKey, n int, data []byte) (*tournament.DealProgress, error) {
	if n < 0 {
		return nil, tournament.InvalidField("deal", "the deal number must be 1 or more, not %d", n)
	}
	if err := a.RequireTable(k.Round, k.Table); err != nil {
		return nil, err
	}
	gs := s.games(wrap)
	if w := s.warmEntry(k); w != nil {
		if p, err := s.enterDeal(ctx, gs, a, k, n, w, data); !errors.Is(err, errReload) {
			return p, err
		}
	}
	for attempt := 1; ; attempt++ {
		e, err := s.loadEntry(ctx, gs, k)
		if err != nil {
			return nil, err
		}
		p, err := s.enterDeal(ctx, gs, a, k, n, e, data)
		if !errors.Is(err, errReload) {
			return p, err
		}
		if attempt == maxDealAttempts {
			return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeDealConflict,
				"the game changed while its deal %d was entered; reload the game and try again", e.Deals+1)
		}
	}
}

// enterDeal enters deal n of k as entry e has the game: from the running
// state when the deal goes on from it, else by checking the whole game
// again. It answers errReload, having written nothing, when the entry no
// longer stands, or when an entry from memory cannot enter the deal from
// the running state.
func (s *Service) enterDeal(ctx context.Context, gs tournament.GameStore, a tournament.Actor, k tournament.GameKey, n int, e *loadedEntry, data []byte) (*tournament.DealProgress, error) {
	t, r := e.Tournament, e.Round
	tb := r.Tables[0]
	if err := gameNumber(t, r, k); err != nil {
		return nil, e.refused(err)
	}
	if err := roundOpen(r); err != nil {
		return nil, e.refused(err)
	}
	if t.Format == tournament.FormatBridge {
		if e.warm {
			return nil, e.pass(false)
		}
		return s.appendMatchDeal(ctx, gs, a, k, n, e, data)
	}
	deal, err := tournament.CanonicalJSON(data)
	if err != nil {
		return nil, e.refused(err)
	}
	if deal[0] != '{' {
		return nil, e.refused(tournament.Errorf(tournament.KindInvalid, tournament.CodeInvalidDeal, "a deal is a JSON object: a score-sheet line {\"sheet\": ...} or a full deal"))
	}
	// A table with a player withdrawn takes the checked way: its deals are
	// checked for the withdrawn player's points (refuseWithdrawnScore).
	if (n == 0 || n == e.Deals+1) && len(withdrawnIn(tb, k.Game)) == 0 {
		if p, err := s.appendFromState(ctx, gs, a, k, e, deal); p != nil || err != nil {
			return p, err
		}
	}
	if e.warm {
		return nil, e.pass(true) // another number: checked against the game's deals
	}
	return s.appendChecked(ctx, gs, a, k, n, e, deal)
}

// appendChecked enters deal as deal n of k after checking the whole game
// with it: a deal sent again, a deal out of order, the deal that ends the
// game, a game whose running state is not kept or does not take the deal.
func (s *Service) appendChecked(ctx context.Context, gs tournament.GameStore, a tournament.Actor, k tournament.GameKey, n int, e *loadedEntry, deal []byte) (*tournament.DealProgress, error) {
	t, r := e.Tournament, e.Round
	tb := r.Tables[0]
	deals, over, err := s.store.Deals(ctx, k)
	if err != nil {
		return nil, err
	}
	if n > 0 && n <= len(deals) {
		return s.repeatDeal(ctx, k, tb, t.Settings, deals[:n], deal, over && n == len(deals))
	}
	if over {
		return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeGameOver, "this game already has a result; no more deals can be added")
	}
	if n > len(deals)+1 {
		return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeDealOutOfOrder,
			"this game has %d deal(s); deal %d cannot be entered before deal %d", len(deals), n, len(deals)+1)
	}
	// Once time is called, the next deal a table enters ends its game
	// (docs/tournaments.md, "The round clock").
	game, err := composeGameEnded(tb, k.Game, append(deals, deal), r.TimeCalled)
	if err != nil {
		return nil, err
	}
	res, state, err := judgeGameState(game, tb, k.Game, t.Settings, engine.GameOptions{InProgress: true})
	if err != nil {
		return nil, err
	}
	if len(res.Deals) != len(deals)+1 {
		return nil, fmt.Errorf("engine returned %d deal results for %d deals", len(res.Deals), len(deals)+1)
	}
	if err := s.refuseWithdrawnScore(ctx, t.ID, tb, k.Game, &res.Deals[len(deals)]); err != nil {
		return nil, err
	}
	p := &tournament.DealProgress{Deal: len(deals) + 1, Result: &res.Deals[len(deals)], Game: res, EndedByTime: r.TimeCalled && !res.GameOver}
	w := e.write(k, len(deals), deal, s.clock(), p)
	if res.GameOver || r.TimeCalled {
		// The engine judged the game above; what is left is the record's
		// canonical form, its hash and the result's JSON.
		g, err := checked(game, res, tb, k.Game, t.Settings)
		if err != nil {
			return nil, err
		}
		p.Final = &tournament.GameResult{Key: k, Kind: tournament.ResultSubmission, Record: g.record, RecordHash: g.hash, Result: g.json,
			Places: g.places, SubmittedBy: a.String(), CreatedAt: w.At}
		w.Final = p.Final
		return p, commitDeal(ctx, gs, a, w)
	}
	// The game goes on: store the running state with the deal, so that
	// the next deal is checked against it (appendFromState).
	w.State = state
	if err := commitDeal(ctx, gs, a, w); err != nil {
		return nil, err
	}
	if st, perr := engine.ParseGameState(state); perr == nil {
		s.rememberDeal(k, &e.DealEntry, len(deals)+1, st)
	}
	return p, nil
}

// commitDeal writes w under the entry it was decided with: errReload,
// having written nothing, when that entry no longer stands.
func commitDeal(ctx context.Context, gs tournament.GameStore, a tournament.Actor, w *tournament.DealWrite) error {
	ok, err := gs.AppendDeal(tournament.AuditAs(ctx, a), w)
	if err != nil {
		return err
	}
	if !ok {
		return errReload
	}
	return nil
}

// repeatDeal answers a deal sent again: deals are the game's first n deals
// as stored; the last must be deal.
// last says the deal is the game's last and the game has a result.
func (s *Service) repeatDeal(ctx context.Context, k tournament.GameKey, tb tournament.Table, st tournament.Settings, deals []json.RawMessage, deal []byte, last bool) (*tournament.DealProgress, error) {
	n := len(deals)
	stored, err := tournament.CanonicalJSON(deals[n-1])
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(stored, deal) {
		return nil, tournament.DealExists(n, stored, "game")
	}
	game, err := composeGame(tb, k.Game, deals)
	if err != nil {
		return nil, err
	}
	res, err := judgeGame(game, tb, k.Game, st, engine.GameOptions{InProgress: true})
	if err != nil {
		return nil, err
	}
	if len(res.Deals) != n {
		return nil, fmt.Errorf("engine returned %d deal results for %d deals", len(res.Deals), n)
	}
	p := &tournament.DealProgress{Deal: n, Result: &res.Deals[n-1], Game: res, Repeat: true}
	if res.GameOver || last {
		if p.Final, err = s.Game(ctx, k); err != nil {
			return nil, err
		}
		p.EndedByTime = !res.GameOver && endedByTime(p.Final.Record)
	}
	return p, nil
}

// composeGame builds the game record of a table's game from its deals.
func composeGame(tb tournament.Table, g int, deals []json.RawMessage) ([]byte, error) {
	return composeGameEnded(tb, g, deals, false)
}

// composeGameEnded is composeGame for a game that time may have ended.
func composeGameEnded(tb tournament.Table, g int, deals []json.RawMessage, byTime bool) ([]byte, error) {
	rec := struct {
		Players     []string          `json:"players"`
		FirstDealer string            `json:"first_dealer"`
		Deals       []json.RawMessage `json:"deals"`
		EndedBy     string            `json:"ended_by,omitempty"`
	}{tb.Players, tb.FirstDealerOf(g), deals, ""}
	if byTime {
		rec.EndedBy = engine.EndedByTime
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return nil, fmt.Errorf("composing the game: %w", err)
	}
	return b, nil
}

// RoundView is a round with its tables and the effective result of every
// game played so far.
type RoundView struct {
	Round    *tournament.Round
	Results  []tournament.GameResult
	Outcomes []tournament.Outcome // once the round is closed: ranks at the tables and who advanced
}

// Round returns round n with its results.
func (s *Service) Round(ctx context.Context, tid string, n int) (*RoundView, error) {
	r, err := s.store.Round(ctx, tid, n)
	if err != nil {
		return nil, err
	}
	res, err := s.store.Results(ctx, tid, n)
	if err != nil {
		return nil, err
	}
	v := &RoundView{Round: r, Results: res}
	if r.Status == tournament.RoundClosed {
		if v.Outcomes, err = s.store.Outcomes(ctx, tid, n); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// TableCodes returns the code of each table of round n, by table number.
// Only the organizer may see them.
func (s *Service) TableCodes(ctx context.Context, a tournament.Actor, tid string, n int) (map[int]string, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	r, err := s.store.Round(ctx, tid, n)
	if err != nil {
		return nil, err
	}
	sec, err := s.store.Secrets(ctx, tid)
	if err != nil {
		return nil, err
	}
	codes := make(map[int]string, len(r.Tables))
	for _, tb := range r.Tables {
		codes[tb.Number] = tokens.TableCode(sec.CodeKey, n, tb.Number)
	}
	return codes, nil
}

// Game returns the effective result of a game.
func (s *Service) Game(ctx context.Context, k tournament.GameKey) (*tournament.GameResult, error) {
	if _, _, _, err := s.gameTable(ctx, k); err != nil {
		return nil, err
	}
	res, err := s.store.Results(ctx, k.TournamentID, k.Round)
	if err != nil {
		return nil, err
	}
	for i := range res {
		if res[i].Key.Table == k.Table && res[i].Key.Game == k.Game {
			return &res[i], nil
		}
	}
	return nil, tournament.Errorf(tournament.KindNotFound, tournament.CodeResultNotFound, "game %d of table %d in round %d has no result yet", k.Game, k.Table, k.Round)
}

// Rounds returns every round of a tournament with its tables.
func (s *Service) Rounds(ctx context.Context, tid string) ([]tournament.Round, error) {
	st, err := s.store.State(ctx, tid)
	if err != nil {
		return nil, err
	}
	return st.Rounds, nil
}
