package console

import (
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/referee"
	"github.com/revisor-sm/revisor/web/sheet"
	"github.com/revisor-sm/revisor/web/site"
)

// DisputeRoutes registers the referees' pages: the disputes of a
// tournament, one dispute with its ruling form, and opening a dispute (the
// organizer's way to have a result corrected). Referees and the organizer
// may use them.
func (h *Handler) DisputeRoutes(g *echo.Group) {
	g.Use(h.requireReferee)
	g.GET("", h.disputesPage)
	g.GET("/:id", h.disputePage)
	g.POST("/:id/ruling", h.ruleDispute)
}

// requireReferee admits the tournament's referees, its organizer and the
// admin; others are sent to log in.
func (h *Handler) requireReferee(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		a, err := h.Actor(c, c.Param("tid"))
		if err != nil {
			return h.Fail(c, err)
		}
		if !a.Organizes() && a.Role != tournament.RoleReferee {
			if c.Request().Method == http.MethodGet {
				return c.Redirect(http.StatusSeeOther, "/login?next="+site.QueryEscape(c.Request().URL.RequestURI()))
			}
			return h.Fail(c, tournament.Errorf(tournament.KindUnauthorized, tournament.CodeLoginRequired,
				"log in with a referee's or the organizer's token first"))
		}
		c.Set(actorKey, a)
		c.Response().Header().Set("Cache-Control", "no-store")
		return next(c)
	}
}

func disputesURL(tid string) string { return "/t/" + site.PathEscape(tid) + "/disputes" }

// disputeRow is one dispute in the list.
type disputeRow struct {
	ID                 int64
	Round, Table, Game int
	Description        string
	Deal               int    // the disputed deal; 0 when none is named
	Status             string // in words
	Decision           string // in words; "" before the ruling
}

func (h *Handler) disputesPage(c echo.Context) error {
	p, st, err := h.TournamentPageStart(c, "d.title", "disputes")
	if err != nil {
		return h.Fail(c, err)
	}
	f, err := disputePageOf(c)
	if err != nil {
		return h.Fail(c, err)
	}
	page, err := h.Deps().Referees.Disputes(c.Request().Context(), consoleActor(c), st.Tournament.ID, f)
	if err != nil {
		return h.Fail(c, err)
	}
	rows := make([]disputeRow, len(page.Disputes))
	for i, d := range page.Disputes {
		rows[i] = disputeRow{ID: d.ID, Round: d.Key.Round, Table: d.Key.Table, Game: d.Key.Game,
			Description: d.Description, Deal: sheet.DealOf(&d), Status: p.T("dstatus." + string(d.Status))}
		if d.Status == referee.DisputeOpen && d.SeenAt != nil {
			rows[i].Status = p.T("dstatus.seen")
		}
		if d.Ruling != nil {
			rows[i].Decision = p.T("d." + d.Ruling.Decision)
		}
	}
	d := disputesData{Rows: rows, First: f.After != 0}
	if page.Next != 0 {
		d.Next = disputesURL(st.Tournament.ID) + "?after=" + strconv.FormatInt(page.Next, 10)
		if f.Limit != 0 {
			d.Next += "&limit=" + strconv.Itoa(f.Limit)
		}
	}
	p.Data = d
	p.Events = site.EventsURL(st.Tournament.ID) // a new dispute shows at once
	return h.Render(c, http.StatusOK, "disputes", p)
}

// disputePageOf reads the page of disputes the query asks for: after (the
// last dispute of the previous page) and limit.
func disputePageOf(c echo.Context) (referee.DisputeFilter, error) {
	var f referee.DisputeFilter
	if v := c.QueryParam("after"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return f, tournament.InvalidParameter("after", "after must be the number of a dispute")
		}
		f.After = n
	}
	if v := c.QueryParam("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return f, tournament.InvalidParameter("limit", "limit must be a whole number from 1 to %d", referee.MaxDisputeLimit)
		}
		f.Limit = n
	}
	return f, nil
}

// disputesData is a page of the list of disputes, oldest first; Next
// links the next page, First tells that this is not the first.
type disputesData struct {
	Rows  []disputeRow
	Next  string
	First bool
}

// disputeData is one dispute's page.
type disputeData struct {
	Dispute  *referee.Dispute
	Deal     int         // the disputed deal; 0 when none is named
	Players  []tiePlayer // the players of the dispute's table
	Verdict  string      // the engine's verdict on the reconstruction, if any
	Error    string
	Field    string
	Values   map[string]string
	Decision string
	// Grid is the disputed result as a score sheet, the form of a
	// correction; Correct tells that the referee ticked it.
	Grid    *resultData
	Correct bool
	// Status, OpenedBy and Ruled say the dispute's status, who opened it
	// and the ruling's decision in words.
	Status, OpenedBy, Ruled string
	see                     bool // opening the page records that the dispute was seen
	// FormKey is the ruling form's Idempotency-Key (a fresh one at each
	// render).
	FormKey string
}

// disputePage shows a dispute; opening it records that a referee has
// seen it, which the table that sent it is told.
func (h *Handler) disputePage(c echo.Context) error {
	return h.renderDispute(c, http.StatusOK, disputeData{see: true})
}

// renderDispute renders a dispute with d's message and values.
func (h *Handler) renderDispute(c echo.Context, status int, d disputeData) error {
	p, st, err := h.TournamentPageStart(c, "d.title", "disputes")
	if err != nil {
		return h.Fail(c, err)
	}
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return h.Fail(c, tournament.Errorf(tournament.KindNotFound, tournament.CodeDisputeNotFound, "dispute %q not found", c.Param("id")))
	}
	read := h.Deps().Referees.Dispute
	if d.see {
		read = h.Deps().Referees.SeeDispute
	}
	disp, err := read(c.Request().Context(), consoleActor(c), st.Tournament.ID, id)
	if err != nil {
		return h.Fail(c, err)
	}
	d.Dispute = disp
	names := site.PlayerIndex(st)
	if r := site.RoundOf(st, disp.Key.Round); r != nil {
		if tb, ok := r.Table(disp.Key.Table); ok {
			for _, pid := range tb.Players {
				d.Players = append(d.Players, tiePlayer{ID: pid, Name: names[pid].Name})
			}
		}
	}
	if len(disp.Verdict) > 0 {
		d.Verdict = verdictSummary(disp.Verdict)
	}
	d.Deal = sheet.DealOf(disp)
	d.Status, d.OpenedBy = p.T("dstatus."+string(disp.Status)), sheet.SubmitterWords(p, disp.OpenedBy)
	if disp.Ruling != nil {
		d.Ruled = p.T("d." + disp.Ruling.Decision)
	}
	if d.Grid == nil && disp.Ruling == nil {
		if d.Grid, _, err = h.disputeGrid(c, p, st, disp, nil); err != nil {
			return h.Fail(c, err)
		}
	}
	p.Title = p.T("d.one", disp.ID)
	d.FormKey = site.NewKey()
	p.Data = d
	return h.Render(c, status, "dispute", p)
}

// verdictSummary says in a line whether the engine found the
// reconstruction valid, and its first error.
func verdictSummary(raw json.RawMessage) string {
	var v struct {
		Kind   string `json:"kind"`
		Result struct {
			Valid  bool `json:"valid"`
			Errors []struct {
				Path, Message string
			} `json:"errors"`
		} `json:"result"`
	}
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	if v.Result.Valid {
		return v.Kind + ": valid"
	}
	if len(v.Result.Errors) > 0 {
		return v.Kind + ": " + v.Result.Errors[0].Path + ": " + v.Result.Errors[0].Message
	}
	return v.Kind + ": invalid"
}

// openDispute opens a dispute on a game from the console's result page,
// to have an accepted result corrected; errors are shown on that page,
// next to the fields.
func (h *Handler) openDispute(c echo.Context) error {
	p, _, _, d, err := h.gameForm(c)
	if err != nil {
		return h.Fail(c, err)
	}
	// The form names the deal and says in words what is wrong; the referee
	// corrects the result in the dispute's grid, so no record is asked for.
	deal, _ := strconv.Atoi(c.FormValue("deal"))
	n := referee.NewDispute{Round: d.Round, Table: d.Table, Game: d.Game, Description: c.FormValue("description"), Deal: deal}
	tid := c.Param("tid")
	// Under the form's Idempotency-Key (app.ConsoleDispute): sent twice,
	// one dispute.
	cmd := app.ConsoleDispute{Actor: consoleActor(c), Tournament: tid, Dispute: n}
	var disp *app.DisputeOpened
	if cmd.Key, err = h.formKey(c); err == nil {
		disp, err = h.commands.ConsoleDispute(c.Request().Context(), cmd)
	}
	if err != nil {
		if s := httpx.StatusOf(err); s >= 500 || s == http.StatusNotFound || s == http.StatusUnauthorized || s == http.StatusForbidden {
			return h.Fail(c, err)
		}
		d.DisputeError, d.DisputeField = site.ErrorText(h.Language(c), err), site.FieldOf(err)
		d.DisputeValues = map[string]string{"description": n.Description, "deal": c.FormValue("deal")}
		p.Data = d
		return h.Render(c, httpx.StatusOf(err), "result", p)
	}
	h.Invalidate(tid)
	return c.Redirect(http.StatusSeeOther, disputesURL(tid)+"/"+strconv.FormatInt(disp.ID, 10))
}

// ruleDispute records a ruling: the decision, the reason, a correction
// entered in the score-sheet grid, disqualifications and one point
// adjustment. Errors are shown next to the fields.
func (h *Handler) ruleDispute(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return h.Fail(c, tournament.Errorf(tournament.KindNotFound, tournament.CodeDisputeNotFound, "dispute %q not found", c.Param("id")))
	}
	values := map[string]string{"reason": c.FormValue("reason"),
		"adjust_player": c.FormValue("adjust_player"), "adjust_points": c.FormValue("adjust_points")}
	n := referee.NewRuling{Decision: c.FormValue("decision"), Reason: values["reason"]}
	form, _ := c.FormParams()
	n.Disqualify = form["disqualify"]
	again := disputeData{Values: values, Decision: n.Decision, Correct: c.FormValue("correct") == "1"}
	if pts := strings.TrimSpace(values["adjust_points"]); pts != "" {
		v, err := strconv.Atoi(pts)
		if err != nil {
			again.Error, again.Field = site.Translate(h.Language(c), "d.e.points"), "adjust_points"
			return h.renderDispute(c, http.StatusBadRequest, again)
		}
		n.Adjustments = []referee.NewAdjustment{{Player: values["adjust_player"], Points: v}}
	}
	var dealRows []int
	var t tournament.Table
	var p *site.Page
	var names map[string]tournament.Player
	if again.Correct {
		var st *tournament.State
		var disp *referee.Dispute
		if p, st, disp, err = h.disputeOf(c, id); err != nil {
			return h.Fail(c, err)
		}
		if again.Grid, t, err = h.disputeGrid(c, p, st, disp, c.FormValue); err != nil {
			return h.Fail(c, err)
		}
		names = site.PlayerIndex(st)
		if again.Grid.Bridge != nil {
			n.Record, dealRows = buildBridgeRecord(p, t, again.Grid.Bridge, again.Grid.Ended)
		} else {
			n.Record, dealRows = buildRecord(t, again.Grid, sheet.LastTrickPoints(st.Tournament.Settings.Rules), p)
		}
		if n.Record == nil {
			return h.renderDispute(c, http.StatusUnprocessableEntity, again)
		}
	}
	tid := c.Param("tid")
	// Under the form's Idempotency-Key (app.Rule): sent twice, the second
	// is answered as the first, not refused as ruled already.
	cmd := app.Rule{Actor: consoleActor(c), Tournament: tid, Dispute: id, Ruling: n}
	if cmd.Key, err = h.formKey(c); err == nil {
		_, err = h.commands.Rule(c.Request().Context(), cmd)
	}
	if err != nil {
		if s := httpx.StatusOf(err); s >= 500 || s == http.StatusNotFound || s == http.StatusUnauthorized || s == http.StatusForbidden {
			return h.Fail(c, err)
		}
		again.Error, again.Field = site.ErrorText(h.Language(c), err), site.FieldOf(err)
		switch {
		case tournament.ErrorCode(err) == tournament.CodeRemedyRequired:
			again.Error, again.Field = site.Translate(h.Language(c), "d.e.remedy"), "correct"
		case again.Grid != nil && again.Grid.Bridge != nil && (again.Field == "record" || len(problemsOf(err)) > 0):
			again.Error = strings.Join(placeBridgeErrors(p, again.Grid.Bridge, err, dealRows), " ")
			again.Field = "correct"
		case again.Grid != nil && (again.Field == "record" || len(problemsOf(err)) > 0):
			placeErrors(p, again.Grid, err, dealRows, t, names)
			again.Error, again.Field = site.Translate(h.Language(c), "d.e.sheet"), "correct"
		}
		return h.renderDispute(c, httpx.StatusOf(err), again)
	}
	h.Invalidate(tid)
	return c.Redirect(http.StatusSeeOther, disputesURL(tid)+"/"+strconv.FormatInt(id, 10)+"?saved=1")
}

// disputeOf loads the page, the tournament and dispute id.
func (h *Handler) disputeOf(c echo.Context, id int64) (*site.Page, *tournament.State, *referee.Dispute, error) {
	p, st, err := h.TournamentPageStart(c, "d.title", "disputes")
	if err != nil {
		return nil, nil, nil, err
	}
	disp, err := h.Deps().Referees.Dispute(c.Request().Context(), consoleActor(c), st.Tournament.ID, id)
	return p, st, disp, err
}

// disputeGrid builds the score-sheet grid of a dispute's game: prefilled
// with the game's effective result (the disputed record) when values is
// nil, else with the form's values.
func (h *Handler) disputeGrid(c echo.Context, p *site.Page, st *tournament.State, disp *referee.Dispute, values func(string) string) (*resultData, tournament.Table, error) {
	k := disp.Key
	r := site.RoundOf(st, k.Round)
	if r == nil {
		return nil, tournament.Table{}, tournament.RoundNotFound(k.Round)
	}
	t, ok := r.Table(k.Table)
	if !ok {
		return nil, t, tournament.Errorf(tournament.KindNotFound, tournament.CodeGameNotFound, "no table %d in round %d", k.Table, k.Round)
	}
	names := site.PlayerIndex(st)
	g := &resultData{Round: k.Round, Table: k.Table, Game: k.Game, ids: t.Players,
		Columns: 2 + len(sheet.Sources)*len(t.Players), Caption: p.T("d.sheet")}
	for _, pid := range t.Players {
		g.Players = append(g.Players, names[pid].Name)
	}
	if st.Tournament.Format == tournament.FormatBridge {
		return g, t, h.disputeBridgeForm(c, st, t, g, values)
	}
	rows := resultRowsMin
	if values == nil {
		sheet, ended, deals, err := h.effectiveSheet(c, st.Tournament.ID, k, t.Players)
		if err != nil {
			return nil, t, err
		}
		values, g.Ended = func(name string) string { return sheet[name] }, ended
		rows = max(rows, deals+2)
	} else {
		n, _ := strconv.Atoi(c.FormValue("rows"))
		rows, g.Ended = max(rows, n), c.FormValue("ended") != ""
	}
	g.RowCount = min(rows, resultRowsMax)
	g.Rows = formRows(p, st, t, k.Game, g.RowCount, values)
	return g, t, nil
}

// disputeBridgeForm fills g with a bridge table's form: the disputed
// match's deals when values is nil, else the form's values.
func (h *Handler) disputeBridgeForm(c echo.Context, st *tournament.State, t tournament.Table, g *resultData, values func(string) string) error {
	rows := 0
	if values == nil {
		vals, ended, deals, err := h.effectiveMatch(c, st.Tournament.ID, g.Round, g.Table, g.Game)
		if err != nil {
			return err
		}
		values, g.Ended, rows = func(name string) string { return vals[name] }, ended, deals+2
	} else {
		rows, _ = strconv.Atoi(c.FormValue("rows"))
		g.Ended = c.FormValue("ended") != ""
	}
	g.RowCount = min(max(rows, bridgeRowCount(st, t)), resultRowsMax)
	g.Bridge = newBridgeForm(st, t, g.RowCount, values)
	return nil
}

// effectiveMatch reads a bridge game's effective match record as the
// form's values, whether time ended it and how many deals it has.
func (h *Handler) effectiveMatch(c echo.Context, tid string, round, table, game int) (map[string]string, bool, int, error) {
	full, err := h.Deps().Tournaments.TableResults(c.Request().Context(), tid, round, table)
	if err != nil {
		return nil, false, 0, err
	}
	for _, fr := range full {
		if fr.Key.Game == game {
			vals, ended, deals := storedBridgeValues(fr.Record)
			return vals, ended, deals, nil
		}
	}
	return map[string]string{}, false, 0, nil
}

// effectiveSheet reads a game's effective result as the grid's values by
// field name, whether it was entered as a score sheet or as full deals:
// the engine's awards are the sheet. It also says whether time ended the
// game and how many deals it had.
func (h *Handler) effectiveSheet(c echo.Context, tid string, k tournament.GameKey, players []string) (map[string]string, bool, int, error) {
	full, err := h.Deps().Tournaments.TableResults(c.Request().Context(), tid, k.Round, k.Table)
	if err != nil {
		return nil, false, 0, err
	}
	vals := map[string]string{}
	for _, fr := range full {
		if fr.Key.Game != k.Game {
			continue
		}
		var gr engine.GameResult
		var rec struct {
			EndedBy string `json:"ended_by"`
		}
		_ = json.Unmarshal(fr.Result, &gr)
		_ = json.Unmarshal(fr.Record, &rec)
		for d, deal := range gr.Deals {
			for _, a := range deal.Awards {
				seat := slices.Index(players, a.Player)
				col, ok := sheet.Column[a.Source]
				if seat < 0 || !ok || a.Points == 0 {
					continue
				}
				v := strconv.Itoa(a.Points)
				if a.Source == engine.SourceChicago {
					v = "C" + v
				}
				vals[fieldName(d, seat, sheet.Sources[col])] = v
			}
		}
		return vals, rec.EndedBy != "", len(gr.Deals), nil
	}
	return vals, false, 0, nil
}

// problemsOf returns the engine's problems an error carries.
func problemsOf(err error) []engine.Problem {
	var te *tournament.Error
	if errors.As(err, &te) {
		return te.Problems()
	}
	return nil
}
