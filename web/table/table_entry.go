package table

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/web/sheet"
	"github.com/revisor-sm/revisor/web/site"
)

// The table page runs the table's commands (package app) directly: the
// same checks, the same Idempotency-Key replay (app.Once, table_once.go),
// the same problems and the same audit trail as the JSON API, without HTTP
// inside the process.

// tableAnswer is the answer to the page's script.
type tableAnswer struct {
	OK       bool                 `json:"ok"`
	Deal     int                  `json:"deal,omitempty"`
	GameOver bool                 `json:"game_over,omitempty"`
	Code     string               `json:"code,omitempty"`
	Messages []sheet.TableMessage `json:"messages,omitempty"`
	// Words are the messages in every language, by language code: a
	// refused entry waits in the phone's queue and is shown in the
	// Language the player reads then, which may not be the one it was
	// refused in.
	Words map[string][]sheet.TableMessage `json:"words,omitempty"`
	// Retry tells the script to keep the entry and send it again later
	// (the server or the network failed, not the entry).
	Retry bool `json:"retry,omitempty"`
	// Stored is the deal a deal_exists conflict found under the number,
	// as the entry form's fields (table_queue.go).
	Stored map[string]string `json:"stored,omitempty"`
}

// noMessages adds no message to a refused entry's.
func noMessages(*site.Page) []sheet.TableMessage { return nil }

// wantsJSON reports whether the page's script sent the request.
func wantsJSON(c echo.Context) bool {
	return strings.Contains(c.Request().Header.Get("Accept"), "application/json")
}

// entryPost is a deal posted by the table page (a new deal or a
// correction): the session's table, the game and deal numbers, and the
// deal built from the form.
type entryPost struct {
	code string
	id   tournament.Identity
	g, n int
	p    *site.Page
	st   *tournament.State
	t    tournament.Table
	body []byte
	msgs []sheet.TableMessage
}

// key is the game the post concerns.
func (e *entryPost) key() tournament.GameKey {
	return tournament.GameKey{TournamentID: e.id.Tournament, Round: e.id.Round, Table: e.id.Table, Game: e.g}
}

// readEntry reads a posted deal: ok is false when the answer (no
// session, bad numbers, a failed load) has been written already.
func (h *Handler) readEntry(c echo.Context, deal string) (e entryPost, ok bool, err error) {
	var found bool
	if e.code, e.id, found = h.TableSession(c); !found {
		return e, false, h.tableGone(c)
	}
	g, err1 := strconv.Atoi(c.Param("g"))
	n, err2 := strconv.Atoi(deal)
	if err1 != nil || err2 != nil || g < 1 || g > 100 || n < 1 || n > 1000 {
		return e, false, h.tableProblem(c, e.id, http.StatusBadRequest, tableAnswer{Code: tournament.CodeInvalidDealNumber,
			Messages: []sheet.TableMessage{{Text: site.Translate(h.Language(c), "tbl.e.number")}}})
	}
	e.g, e.n, e.p = g, n, h.NewPage(c, "tbl.title")
	if e.st, err = h.State(c.Request().Context(), e.id.Tournament); err != nil {
		return e, false, h.Fail(c, err)
	}
	e.t, _ = site.RoundOf(e.st, e.id.Round).Table(e.id.Table)
	e.body, e.msgs = e.entry(c, e.p)
	return e, true, nil
}

// entry builds the posted deal, its messages in p's language.
func (e *entryPost) entry(c echo.Context, p *site.Page) ([]byte, []sheet.TableMessage) {
	if e.st.Tournament.Format == tournament.FormatBridge && trimmed(c, "record") == "" {
		return bridgeEntry(c, p, e.t)
	}
	return entryDeal(c, p, e.t, sheet.LastTrickPoints(e.st.Tournament.Settings.Rules))
}

// entryRefused is the answer to an entry refused before it was sent on:
// its messages, in every language.
func (e *entryPost) entryRefused(c echo.Context, more func(p *site.Page) []sheet.TableMessage) tableAnswer {
	build := func(p *site.Page) []sheet.TableMessage {
		_, msgs := e.entry(c, p)
		return append(msgs, more(p)...)
	}
	return tableAnswer{Code: tournament.CodeInvalidEntry, Messages: build(e.p), Words: inEveryLanguage(e.p, build)}
}

// inEveryLanguage builds messages for a copy of p in each language.
func inEveryLanguage(p *site.Page, build func(p *site.Page) []sheet.TableMessage) map[string][]sheet.TableMessage {
	out := make(map[string][]sheet.TableMessage, len(site.Languages))
	for _, l := range site.Languages {
		lp := *p
		lp.Lang = l
		out[l] = build(&lp)
	}
	return out
}

// tableDeal takes the next deal of a game from the entry form (or a pasted
// deal record) and enters it as deal n (app.EnterDeal).
func (h *Handler) tableDeal(c echo.Context) error {
	e, ok, err := h.readEntry(c, c.FormValue("deal"))
	if !ok {
		return err
	}
	if e.msgs != nil {
		return h.tableProblem(c, e.id, http.StatusUnprocessableEntity, e.entryRefused(c, noMessages))
	}
	cmd := app.EnterDeal{Actor: tableActor(e.id), Game: e.key(), Deal: e.n, Data: e.body}
	o, err := h.once(c, e.code, true, "deal\x00"+strconv.Itoa(e.n)+"\x00"+string(e.body), dealOutcome, func(ctx context.Context, via app.Via) (any, error) {
		cmd.Via = via.Games
		return h.Deps().Table.EnterDeal(ctx, cmd)
	})
	if o.Status >= 300 || err != nil {
		return h.tableRefused(c, e.st, e.id, o, err)
	}
	h.Invalidate(e.id.Tournament)
	if wantsJSON(c) {
		return c.JSON(o.Status, tableAnswer{OK: true, Deal: o.Deal, GameOver: o.GameOver})
	}
	return c.Redirect(http.StatusSeeOther, site.TableURL(e.id.Tournament)+"?game="+strconv.Itoa(e.g))
}

// tableCorrect replaces stored deal d of game g with the entry form's
// deal, with the reason the table gives (app.CorrectDeal, the API's PUT …/deals/{d}):
// allowed until every player has confirmed the game. The running totals
// the page shows next are the corrected ones.
func (h *Handler) tableCorrect(c echo.Context) error {
	e, ok, err := h.readEntry(c, c.Param("d"))
	if !ok {
		return err
	}
	reason := trimmed(c, "reason")
	if e.msgs != nil || reason == "" {
		return h.tableProblem(c, e.id, http.StatusUnprocessableEntity, e.entryRefused(c, func(p *site.Page) []sheet.TableMessage {
			if reason != "" {
				return nil
			}
			return []sheet.TableMessage{{Field: "reason", Text: p.T("tbl.e.reason")}}
		}))
	}
	cmd := app.CorrectDeal{Actor: tableActor(e.id), Game: e.key(), Deal: e.n, Data: e.body, Reason: reason}
	o, err := h.once(c, e.code, true, "correct\x00"+strconv.Itoa(e.n)+"\x00"+reason+"\x00"+string(e.body), correctionOutcome,
		func(ctx context.Context, via app.Via) (any, error) {
			cmd.Via = via.Games
			return h.Deps().Table.CorrectDeal(ctx, cmd)
		})
	if o.Status >= 300 || err != nil {
		ans, status, ferr := h.refusal(c, e.st, e.id, o, err)
		if ferr != nil {
			return h.Fail(c, ferr)
		}
		if ans.Code == "invalid_reason" {
			reasonWords := func(p *site.Page) []sheet.TableMessage {
				return []sheet.TableMessage{{Field: "reason", Text: p.T("tbl.e.invalid_reason")}}
			}
			ans.Messages, ans.Words = reasonWords(e.p), inEveryLanguage(e.p, reasonWords)
		}
		return h.tableProblem(c, e.id, status, ans)
	}
	h.Invalidate(e.id.Tournament)
	if wantsJSON(c) {
		return c.JSON(o.Status, tableAnswer{OK: true, Deal: e.n})
	}
	return c.Redirect(http.StatusSeeOther, site.TableURL(e.id.Tournament)+"?game="+strconv.Itoa(e.g)+"#deals")
}

// entryDeal builds the deal of the entry form: a pasted deal record as it
// is, else the score sheet's line of the players' fields. Fields that are
// not numbers are answered as messages.
func entryDeal(c echo.Context, p *site.Page, t tournament.Table, lastTrick int) ([]byte, []sheet.TableMessage) {
	if rec := trimmed(c, "record"); rec != "" {
		if !json.Valid([]byte(rec)) || !strings.HasPrefix(rec, "{") {
			return nil, []sheet.TableMessage{{Field: "record", Text: p.T("tbl.e.record")}}
		}
		return []byte(rec), nil
	}
	line := map[string]map[string]int{}
	var msgs []sheet.TableMessage
	for i, pid := range t.Players {
		for j, src := range sheet.Sources {
			v := trimmed(c, entryName(i, src))
			if v == "" {
				continue
			}
			name, pts, ok := sheet.ParseValue(src, v, lastTrick)
			if !ok {
				msgs = append(msgs, sheet.TableMessage{Field: entryName(i, src), Text: p.T("tbl.e.nan", p.T(sheet.SourceLabel[j]))})
				continue
			}
			if line[pid] == nil {
				line[pid] = map[string]int{}
			}
			line[pid][name] = pts
		}
	}
	if msgs != nil {
		return nil, msgs
	}
	if len(line) == 0 {
		return nil, []sheet.TableMessage{{Text: p.T("tbl.e.empty")}}
	}
	b, _ := json.Marshal(map[string]any{"sheet": line})
	return b, nil
}

// problemAnswer puts a refused command's problem in the table's words:
// each engine problem with the player's name and the field it concerns,
// the rest by its code.
func problemAnswer(p *site.Page, o tableOutcome, t tournament.Table, names map[string]tournament.Player) tableAnswer {
	ans := tableAnswer{Code: o.Code, Retry: o.Status >= 500 || o.Status == http.StatusTooManyRequests ||
		o.Code == tournament.CodeIdempotencyKeyInUse}
	for _, e := range o.Problems {
		if f, ok := bridgeFields[e.Path]; ok {
			ans.Messages = append(ans.Messages, sheet.TableMessage{Field: f, Text: sheet.CodeText(p, e.Code)})
			continue
		}
		ans.Messages = append(ans.Messages, engineMessage(p, e.Code, e.Path, t, names))
	}
	if len(ans.Messages) == 0 {
		ans.Messages = []sheet.TableMessage{{Text: sheet.CodeText(p, o.Code)}}
	}
	return ans
}

// engineMessage words one engine problem: a problem in a player's line
// of the sheet names the player and the field, and is placed beside it.
func engineMessage(p *site.Page, code, path string, t tournament.Table, names map[string]tournament.Player) sheet.TableMessage {
	at, err := engine.ParseLocation(path)
	if err != nil {
		return sheet.TableMessage{Text: sheet.CodeText(p, code)}
	}
	seat, col, text := sheet.ProblemWords(p, code, at, t, names)
	if col < 0 {
		return sheet.TableMessage{Text: text}
	}
	return sheet.TableMessage{Field: entryName(seat, sheet.Sources[col]), Text: text}
}

// tableProblem answers a refused post: JSON to the script, else the table
// page again with the messages beside the fields and the values kept.
func (h *Handler) tableProblem(c echo.Context, id tournament.Identity, status int, ans tableAnswer) error {
	if wantsJSON(c) {
		return c.JSON(status, ans)
	}
	p, d, err := h.tableView(c, id)
	if err != nil {
		return h.Fail(c, err)
	}
	for i := range d.Fields {
		for j := range d.Fields[i].Fields {
			f := &d.Fields[i].Fields[j]
			f.Value = trimmed(c, f.Name)
			for _, m := range ans.Messages {
				if m.Field == f.Name {
					f.Bad = true
					d.Fields[i].Errors = append(d.Fields[i].Errors, m.Text)
				}
			}
		}
	}
	for _, m := range ans.Messages {
		switch m.Field {
		case "", "record":
			d.Errors = append(d.Errors, m.Text)
		case "reason":
			d.ReasonErrors = append(d.ReasonErrors, m.Text)
		default:
			d.FieldErrors[m.Field] = append(d.FieldErrors[m.Field], m.Text)
		}
	}
	for _, f := range []string{"level", "strain", "double", "declarer", "tricks"} {
		d.Values[f] = trimmed(c, f)
	}
	d.Values["record"] = trimmed(c, "record")
	d.Values["reason"] = trimmed(c, "reason")
	p.Data = d
	return h.Render(c, status, "table", p)
}

// tableGone answers a post whose session has ended (a new round was drawn,
// or the cookie is gone): the script is told to log in again; a form is
// sent to the code form.
func (h *Handler) tableGone(c echo.Context) error {
	if wantsJSON(c) {
		return c.JSON(http.StatusUnauthorized, tableAnswer{Code: tournament.CodeLoginRequired,
			Messages: []sheet.TableMessage{{Text: site.Translate(h.Language(c), "tbl.e.login_required")}}})
	}
	return c.Redirect(http.StatusSeeOther, site.TableURL(c.Param("tid")))
}

// tableClock answers the round clock of the session's round as the API
// has it (state, ends_at, remaining_seconds, in the server's time); a round without a
// clock, or a phone without a session, is "idle": the page then shows no
// clock.
func (h *Handler) tableClock(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	if _, id, ok := h.TableSession(c); ok {
		r, err := h.Deps().Table.RoundClock(c.Request().Context(), app.RoundClock{Tournament: id.Tournament, Round: id.Round})
		if err == nil {
			return c.JSON(http.StatusOK, httpx.ClockOf(r))
		}
	}
	return c.JSON(http.StatusOK, map[string]string{"state": "idle"})
}
