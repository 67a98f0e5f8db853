package web

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
)

// maxIdempotencyKey is the longest Idempotency-Key a table's post may
// carry, as the API's.
const maxIdempotencyKey = 255

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
	p := result.(*play.CorrectedDeal)
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
// is claimed before cmd runs (app.Once.Do) and cmd gets nil. Its error is
// the key's refusal.
func (h *Handler) once(c echo.Context, code string, inUnit bool, content string,
	outcome func(any, error) tableOutcome, cmd func(context.Context, tournament.Wrap) (any, error)) (tableOutcome, error) {
	answer := func(result any, err error) ([]byte, bool) {
		o := outcome(result, err)
		b, _ := json.Marshal(o)
		return b, o.Status < 500 && o.Status != http.StatusTooManyRequests
	}
	key, err := h.postKey(c, code, content)
	if err != nil {
		return tableOutcome{}, err
	}
	var b []byte
	if inUnit {
		b, _, err = h.deps.Once.DoIn(c.Request().Context(), key, answer, cmd)
	} else {
		b, _, err = h.deps.Once.Do(c.Request().Context(), key, answer, func(ctx context.Context) (any, error) { return cmd(ctx, nil) })
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

// postKey is the post's Idempotency-Key for app.Once: its scope is the
// page's path and the table's code (hashed), apart from the API's.
func (h *Handler) postKey(c echo.Context, code, content string) (*app.Key, error) {
	key := c.Request().Header.Get("Idempotency-Key")
	if key == "" {
		key = c.FormValue("idempotency_key")
	}
	if key == "" {
		return nil, nil
	}
	if !httpx.PrintableToken(key, maxIdempotencyKey) {
		return nil, tournament.Errorf(tournament.KindInvalid, tournament.CodeInvalidIdempotencyKey,
			"the Idempotency-Key must be 1 to %d printable characters without spaces", maxIdempotencyKey)
	}
	cred := sha256.Sum256([]byte(code))
	fp := sha256.Sum256([]byte(content))
	return &app.Key{Scope: "page " + c.Request().Method + " " + c.Request().URL.Path + " " + hex.EncodeToString(cred[:8]),
		Key: key, Fingerprint: fp[:]}, nil
}

// tableRefused answers a command the table's rules refused (o), or whose
// key was refused (err), in the table's words; st is the tournament as
// the post read it (nil: read it now).
func (h *Handler) tableRefused(c echo.Context, st *tournament.State, id tournament.Identity, o tableOutcome, err error) error {
	ans, status, ferr := h.refusal(c, st, id, o, err)
	if ferr != nil {
		return h.fail(c, ferr)
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
		if st, serr = h.state(c.Request().Context(), id.Tournament); serr != nil {
			return tableAnswer{}, 0, serr
		}
	}
	t, _ := roundOf(st, id.Round).Table(id.Table)
	p, names := h.newPage(c, "tbl.title"), playerIndex(st)
	answer := func(p *page) tableAnswer { return protocolAnswer(p, problemAnswer(p, o, t, names), o, t) }
	ans := answer(p)
	ans.Words = inEveryLanguage(p, func(p *page) []tableMessage { return answer(p).Messages })
	return ans, o.Status, nil
}

// tableActor is the actor of a table's session.
func tableActor(id tournament.Identity) tournament.Actor {
	return tournament.Actor{Role: tournament.RoleTable, Round: id.Round, Table: id.Table}
}
