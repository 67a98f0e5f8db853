package table

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/web/sheet"
	"github.com/revisor-sm/revisor/web/site"
)

// tableOutcome is what the page answers to one of a table's commands, as
// it is kept for a replay under the post's Idempotency-Key: the status,
// what the script is told, and a refusal's code and engine problems, which
// are worded in the reader's language when the answer is sent (a replay
// may come in another language).
type tableOutcome struct {
	Status   int              `json:"status"`
	Deal     int              `json:"deal,omitempty"`
	GameOver bool             `json:"game_over,omitempty"`
	Code     string           `json:"code,omitempty"`
	Problems []engine.Problem `json:"problems,omitempty"`
	// Stored is the deal a deal_exists conflict found under the number
	// (the table protocol shows it beside the phone's); Name the player a
	// refused deal scored although withdrawn.
	Stored json.RawMessage `json:"stored,omitempty"`
	Name   string          `json:"name,omitempty"`
}

// refusedOutcome is the outcome of a refused command.
func refusedOutcome(err error) tableOutcome {
	o := tableOutcome{Status: httpx.StatusOf(err), Code: tournament.ErrorCode(err)}
	if te := (*tournament.Error)(nil); errors.As(err, &te) {
		o.Problems = te.Problems()
		o.Stored, _ = te.Stored()
		if name, ok := te.Details["name"].(string); ok && o.Code == tournament.CodePlayerWithdrawn {
			o.Name = name
		}
	}
	return o
}

// created is 201 for a command that wrote, 200 for one that found its
// work done already.
func created(repeat bool) int {
	if repeat {
		return http.StatusOK
	}
	return http.StatusCreated
}

func dealOutcome(result any, err error) tableOutcome {
	if err != nil {
		return refusedOutcome(err)
	}
	p := result.(*tournament.DealProgress)
	o := tableOutcome{Status: created(p.Repeat), Deal: p.Deal}
	switch {
	case p.Match != nil:
		o.GameOver = p.Match.Complete
	default:
		o.GameOver = p.Game.GameOver || p.Final != nil
	}
	return o
}

func correctionOutcome(result any, err error) tableOutcome {
	if err != nil {
		return refusedOutcome(err)
	}
	p := result.(*tournament.CorrectedDeal)
	return tableOutcome{Status: created(p.Repeat), Deal: p.Deal}
}

func confirmOutcome(result any, err error) tableOutcome {
	if err != nil {
		return refusedOutcome(err)
	}
	return tableOutcome{Status: created(!result.(*tournament.Confirmed).Created)}
}

func disputeOutcome(_ any, err error) tableOutcome {
	if err != nil {
		return refusedOutcome(err)
	}
	return tableOutcome{Status: http.StatusCreated}
}

// once runs one of the table's commands under the post's Idempotency-Key
// (the script's header, or the form's field; none: the command just
// runs). content names what the command does, so that the key sent again
// with another content is refused. With inUnit, cmd runs the command in
// the unit of work it is given (app.Once.DoIn: the key claimed with the
// command's first read, the answer stored with its write); else the key
// is claimed before cmd runs (app.Once.Do) and cmd gets the zero app.Via. Its error is
// the key's refusal.
func (h *Handler) once(c echo.Context, code string, inUnit bool, content string,
	outcome func(any, error) tableOutcome, cmd func(context.Context, app.Via) (any, error)) (tableOutcome, error) {
	answer := func(result any, err error) ([]byte, bool) {
		o := outcome(result, err)
		b, _ := json.Marshal(o)
		return b, o.Status < 500 && o.Status != http.StatusTooManyRequests
	}
	key, err := h.PostKey(c, code, content)
	if err != nil {
		return tableOutcome{}, err
	}
	var b []byte
	if inUnit {
		b, _, err = h.Deps().Once.DoIn(c.Request().Context(), key, answer, cmd)
	} else {
		b, _, err = h.Deps().Once.Do(c.Request().Context(), key, answer, func(ctx context.Context) (any, error) { return cmd(ctx, app.Via{}) })
	}
	if err != nil {
		return tableOutcome{}, err
	}
	var o tableOutcome
	if json.Unmarshal(b, &o) != nil || o.Status == 0 {
		return tableOutcome{}, tournament.Errorf(tournament.KindInternal, tournament.CodeInternal, "an answer kept for a replay does not read")
	}
	return o, nil
}

// tableRefused answers a command the table's rules refused (o), or whose
// key was refused (err), in the table's words; st is the tournament as
// the post read it (nil: read it now).
func (h *Handler) tableRefused(c echo.Context, st *tournament.State, id tournament.Identity, o tableOutcome, err error) error {
	ans, status, ferr := h.refusal(c, st, id, o, err)
	if ferr != nil {
		return h.Fail(c, ferr)
	}
	return h.tableProblem(c, id, status, ans)
}

// refusal is tableRefused's answer and status.
func (h *Handler) refusal(c echo.Context, st *tournament.State, id tournament.Identity, o tableOutcome, err error) (tableAnswer, int, error) {
	if err != nil {
		o = refusedOutcome(err)
	}
	if st == nil {
		var serr error
		if st, serr = h.State(c.Request().Context(), id.Tournament); serr != nil {
			return tableAnswer{}, 0, serr
		}
	}
	t, _ := site.RoundOf(st, id.Round).Table(id.Table)
	p, names := h.NewPage(c, "tbl.title"), site.PlayerIndex(st)
	answer := func(p *site.Page) tableAnswer { return protocolAnswer(p, problemAnswer(p, o, t, names), o, t) }
	ans := answer(p)
	ans.Words = inEveryLanguage(p, func(p *site.Page) []sheet.TableMessage { return answer(p).Messages })
	return ans, o.Status, nil
}

// tableActor is the actor of a table's session.
func tableActor(id tournament.Identity) tournament.Actor {
	return tournament.Actor{Role: tournament.RoleTable, Round: id.Round, Table: id.Table}
}
