package play

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/tournament"
)

// At the table (docs/tournaments.md, "Table pages"): a game entered deal by
// deal can be corrected, deal by deal, until every player at the table has
// confirmed its result. Corrections are append-only: a deal keeps every
// version, and a correction of a finished game is a new result row
// (ResultTableCorrection) that supersedes the one before it.

// MaxCorrectionReason bounds the reason of a correction.
const MaxCorrectionReason = 500

// CorrectDeal replaces deal n (1-based) of a game entered deal by deal with
// a new version, for the table's code or the organizer, with a reason. The
// engine checks the whole game with the new version in place. Refused once
// every player has confirmed the game, after a referee's ruling on it, and
// in a closed round.
func (s *Service) CorrectDeal(ctx context.Context, a tournament.Actor, k tournament.GameKey, n int, data []byte, reason string) (*tournament.CorrectedDeal, error) {
	return s.CorrectDealIn(ctx, nil, a, k, n, data, reason)
}

// CorrectDealIn is CorrectDeal with its read and its write through the
// game store as wrap decorates it (a command's unit of work): the
// table's read first, then the correction's transaction, whose decide
// hands the answer's outcome to the unit (DealCorrection.Outcome).
func (s *Service) CorrectDealIn(ctx context.Context, wrap tournament.Wrap, a tournament.Actor, k tournament.GameKey, n int, data []byte, reason string) (*tournament.CorrectedDeal, error) {
	if err := a.RequireTable(k.Round, k.Table); err != nil {
		return nil, err
	}
	reason = strings.TrimSpace(reason)
	if err := tournament.CheckText("reason", reason); err != nil {
		return nil, err
	}
	if len(reason) > MaxCorrectionReason {
		return nil, tournament.InvalidField("reason", "reason is longer than %d bytes", MaxCorrectionReason)
	}
	gs := s.games(wrap)
	t, tb, err := s.openGameTableIn(ctx, gs, k)
	if err != nil {
		return nil, err
	}
	if t.Format == tournament.FormatBridge {
		return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeCorrectionNotSupported,
			"deals of a Chicago bridge match are not corrected at the table; open a dispute for the referees")
	}
	deal, err := tournament.CanonicalJSON(data)
	if err != nil {
		return nil, err
	}
	if deal[0] != '{' {
		return nil, tournament.Errorf(tournament.KindInvalid, tournament.CodeInvalidDeal, "a deal is a JSON object: a score-sheet line {\"sheet\": ...} or a full deal")
	}
	if err := tournament.Storable(deal); err != nil {
		return nil, err
	}
	out := &tournament.CorrectedDeal{}
	now := s.clock()
	ctx = tournament.AuditBecause(ctx, a, reason)
	err = gs.CorrectDeal(ctx, k, n-1, deal, reason, now, func(rd *tournament.Round, g *tournament.TableGame) (*tournament.DealCorrection, error) {
		if err := roundOpen(rd); err != nil {
			return nil, err
		}
		p, c, err := s.planCorrection(a, t.Settings, tb, g, n, deal, now)
		if err != nil {
			return nil, err
		}
		out.DealProgress, out.Version = *p, g.Deals[n-1].Version
		if !c.Repeat {
			out.Version++
		}
		c.Outcome = out
		return c, nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// planCorrection decides a correction of deal n of g to deal.
func (s *Service) planCorrection(a tournament.Actor, st tournament.Settings, tb tournament.Table, g *tournament.TableGame, n int, deal []byte, now time.Time) (*tournament.DealProgress, *tournament.DealCorrection, error) {
	if n < 1 || n > len(g.Deals) {
		return nil, nil, tournament.Errorf(tournament.KindNotFound, tournament.CodeDealNotFound, "this game has %d deal(s) entered deal by deal; there is no deal %d to correct", len(g.Deals), n)
	}
	if g.Result != nil && g.Result.Kind == tournament.ResultCorrection {
		return nil, nil, tournament.Errorf(tournament.KindConflict, tournament.CodeResultRuled, "a referee has ruled on this game; only a referee can change it now")
	}
	if confirmedBy(g, tb.Present(g.Key.Game)) {
		return nil, nil, tournament.Errorf(tournament.KindConflict, tournament.CodeGameConfirmed,
			"every player at the table has confirmed this game; a deal can no longer be corrected (open a dispute instead)")
	}
	cur, err := tournament.CanonicalJSON(g.Deals[n-1].Deal)
	if err != nil {
		return nil, nil, err
	}
	deals := rawDeals(g)
	repeat := bytes.Equal(cur, deal)
	deals[n-1] = deal
	byTime := g.Result != nil && endedByTime(g.Result.Record)
	game, err := composeGameEnded(tb, g.Key.Game, deals, byTime)
	if err != nil {
		return nil, nil, err
	}
	res, err := judgeGame(game, tb, g.Key.Game, st, engine.GameOptions{InProgress: true})
	if err != nil {
		return nil, nil, err
	}
	if len(res.Deals) != len(deals) {
		return nil, nil, fmt.Errorf("engine returned %d deal results for %d deals", len(res.Deals), len(deals))
	}
	p := &tournament.DealProgress{Deal: n, Result: &res.Deals[n-1], Game: res, Repeat: repeat, EndedByTime: byTime && !res.GameOver}
	over := res.GameOver || byTime
	switch {
	case g.Result != nil && !over:
		return nil, nil, tournament.ProblemsError(tournament.CodeCorrectionReopensGame,
			"with this correction nobody reaches the target after the last deal, so the game would go on; a finished game cannot be reopened at the table (open a dispute)",
			[]engine.Problem{{Code: tournament.CodeCorrectionReopensGame, Path: fmt.Sprintf("/deals/%d", len(deals)-1),
				Message: "the game would not be over after its last deal"}})
	case repeat:
		if g.Result != nil {
			p.Final = g.Result
		}
		return p, &tournament.DealCorrection{Repeat: true}, nil
	case !over:
		return p, &tournament.DealCorrection{}, nil
	}
	chk, err := checkGame(game, tb, g.Key.Game, tournament.FormatSM, st, engine.GameOptions{InProgress: true})
	if err != nil {
		return nil, nil, err
	}
	p.Final = &tournament.GameResult{Key: g.Key, Kind: tournament.ResultSubmission, Record: chk.record, RecordHash: chk.hash, Result: chk.json,
		Places: chk.places, SubmittedBy: a.String(), CreatedAt: now}
	if g.Result != nil {
		p.Final.Kind, p.Final.Supersedes = tournament.ResultTableCorrection, &g.Result.ID
	}
	return p, &tournament.DealCorrection{Final: p.Final}, nil
}

// endedByTime reports whether a stored game record says the game was ended
// by time.
func endedByTime(record json.RawMessage) bool {
	var r struct {
		EndedBy string `json:"ended_by"`
	}
	return json.Unmarshal(record, &r) == nil && r.EndedBy == engine.EndedByTime
}

// ConfirmGame records that player confirms the effective result of a
// finished game, for the table's code (or the organizer). A player who is
// not at the table is refused (422); confirming again is harmless.
func (s *Service) ConfirmGame(ctx context.Context, a tournament.Actor, k tournament.GameKey, player string) (*tournament.Confirmed, error) {
	return s.ConfirmGameIn(ctx, nil, a, k, player)
}

// ConfirmGameIn is ConfirmGame with its reads and its write through the
// game store as wrap decorates it (a command's unit of work). The answer
// is known once the game is read under its lock, before the confirmation
// is stored: the store's decide hands it to the unit, which may store it
// with the confirmation.
func (s *Service) ConfirmGameIn(ctx context.Context, wrap tournament.Wrap, a tournament.Actor, k tournament.GameKey, player string) (*tournament.Confirmed, error) {
	if err := a.RequireTable(k.Round, k.Table); err != nil {
		return nil, err
	}
	player = strings.TrimSpace(player)
	if player == "" {
		return nil, tournament.InvalidField("player", "player is required: the id of the player who confirms")
	}
	gs := s.games(wrap)
	_, r, tb, err := s.gameTableIn(ctx, gs, k)
	if err != nil {
		return nil, err
	}
	if err := tableRoundOpen(a, r); err != nil {
		return nil, err
	}
	if !slices.Contains(tb.Players, player) {
		return nil, tournament.Errorf(tournament.KindRejected, tournament.CodePlayerNotAtTable, "player %s does not play at table %d of round %d", player, k.Table, k.Round)
	}
	c := tournament.Confirmation{Player: player, ConfirmedBy: a.String(), At: s.clock()}
	g, created, err := gs.ConfirmGame(tournament.AuditAs(ctx, a), k, c, func(g *tournament.TableGame) (*tournament.Confirmed, error) {
		if g.Result == nil {
			return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeGameNotFinished, "game %d of table %d has no result yet; a game is confirmed once it is over", k.Game, k.Table)
		}
		// The answer as it will be: under the game's lock, the player's
		// confirmation is new unless the read holds it.
		next, created := *g, !g.HasConfirmed(player)
		if created {
			x := c
			x.ResultID, x.At = g.Result.ID, x.At.UTC()
			next.Confirmations = append(slices.Clip(g.Confirmations), x)
		}
		return confirmed(&next, created, tb.Present(k.Game), player), nil
	})
	if err != nil {
		return nil, err
	}
	return confirmed(g, created, tb.Present(k.Game), player), nil
}

// confirmed is the answer to player's confirmation of g, whose players
// are present.
func confirmed(g *tournament.TableGame, created bool, present []string, player string) *tournament.Confirmed {
	out := &tournament.Confirmed{Created: created, Game: g, Confirmed: confirmedBy(g, present)}
	for _, x := range g.Confirmations {
		if x.Player == player {
			out.Confirmation = x
		}
	}
	return out
}

// TableGame returns a game as it stands: its deals with their versions,
// its effective result and that result's confirmations. Public.
func (s *Service) TableGame(ctx context.Context, k tournament.GameKey) (*tournament.TableGame, error) {
	if _, _, _, err := s.gameTable(ctx, k); err != nil {
		return nil, err
	}
	return s.store.TableGame(ctx, k)
}

// GameView is a game's effective result with its confirmations.
type GameView struct {
	Result        *tournament.GameResult
	Confirmations []tournament.Confirmation
	Confirmed     bool // every player at the table has confirmed the result
}

// GameWithConfirmations returns a game's effective result and who
// confirmed it.
func (s *Service) GameWithConfirmations(ctx context.Context, k tournament.GameKey) (*GameView, error) {
	_, _, tb, err := s.gameTable(ctx, k)
	if err != nil {
		return nil, err
	}
	g, err := s.store.TableGame(ctx, k)
	if err != nil {
		return nil, err
	}
	if g.Result == nil {
		return nil, tournament.Errorf(tournament.KindNotFound, tournament.CodeResultNotFound, "game %d of table %d in round %d has no result yet", k.Game, k.Table, k.Round)
	}
	return &GameView{Result: g.Result, Confirmations: g.Confirmations, Confirmed: confirmedBy(g, tb.Present(k.Game))}, nil
}

// tableRoundOpen refuses a table's confirmation on a closed round: the
// round's outcome is recorded and a confirmation no longer means anything
// (issue 25: it was accepted from the code). A dispute on a closed round is
// the correction window's to admit (dispute_window.go), by design: the
// table disputes after the round has closed.
func tableRoundOpen(a tournament.Actor, r *tournament.Round) error {
	if a.Role == tournament.RoleTable && r.Status == tournament.RoundClosed {
		return tournament.Errorf(tournament.KindConflict, tournament.CodeRoundClosed,
			"round %d is closed: its results are final; open a dispute while the correction window is open", r.Number)
	}
	return nil
}

// confirmedBy reports whether every player of players has confirmed the
// effective result of g.
func confirmedBy(g *tournament.TableGame, players []string) bool {
	if g.Result == nil {
		return false
	}
	for _, p := range players {
		if !g.HasConfirmed(p) {
			return false
		}
	}
	return true
}

// needsConfirmation reports whether the result of g waits for its
// players: a result entered by the table's code and not yet confirmed by
// all of players. A result the organizer entered, and a referee's
// correction, stand without them.
func needsConfirmation(g *tournament.TableGame, players []string) bool {
	if g.Result == nil || g.Result.Kind == tournament.ResultCorrection || !strings.HasPrefix(g.Result.SubmittedBy, "table:") {
		return false
	}
	return !confirmedBy(g, players)
}

// rawDeals returns the current version of each deal of g.
func rawDeals(g *tournament.TableGame) []json.RawMessage {
	out := make([]json.RawMessage, len(g.Deals))
	for i, d := range g.Deals {
		out[i] = d.Deal
	}
	return out
}
