package console

import (
	"errors"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/web/site"
)

// The console's page of one table of a round: a player withdrawn during a
// game (with a confirmation step) and a wrong seating corrected before the
// table's first result (docs/tournaments.md).

// tableChangeData is the table page's data.
type tableChangeData struct {
	Round, Table int
	Names        string
	Open         bool            // the round is open: its tables can change
	Game         int             // the game in progress (0: every game has its result)
	Players      []tiePlayer     // the players still at the table
	Left         []string        // the players who left, in the organizer's words
	Confirm      *withdrawChoice // the choice waiting for the organizer's confirmation
	Error, Field string
	Form         string // the form the error belongs to: "withdraw" or "reseat"
	Values       map[string]string
	// Started: the table has a result or a player who left, so it can no
	// longer be re-seated (a deal entered is refused by the service).
	Started bool
	Others  []tiePlayer // the players of the round's other tables, labelled with their table
	Targets []int       // the other tables, to move to
	// FormKey is the Idempotency-Key of the re-seating forms (a fresh one
	// at each render).
	FormKey string
}

// withdrawChoice is a withdrawal as the organizer chose it.
type withdrawChoice struct {
	Player, Name, Handling, HandlingText, Reason string
}

// tableChangeStart loads the tournament, round {n} and table {t} of the path.
func (h *Handler) tableChangeStart(c echo.Context) (*site.Page, *tournament.State, *tournament.Round, tournament.Table, error) {
	p, st, r, err := h.RoundPageStart(c, "c.title")
	if err != nil {
		return nil, nil, nil, tournament.Table{}, err
	}
	tn, _ := strconv.Atoi(c.Param("t"))
	t, ok := r.Table(tn)
	if !ok {
		return nil, nil, nil, tournament.Table{}, tournament.Errorf(tournament.KindNotFound, tournament.CodeTableNotFound,
			"round %d has no table %q", r.Number, c.Param("t"))
	}
	p.Nav, p.Organizer = "console", true
	p.Title = p.T("tc.title", r.Number, t.Number)
	return p, st, r, t, nil
}

func (h *Handler) tableChangePage(c echo.Context) error {
	return h.renderTableChange(c, http.StatusOK, tableChangeData{})
}

// renderTableChange renders the table page with d's message and choice.
func (h *Handler) renderTableChange(c echo.Context, status int, d tableChangeData) error {
	p, st, r, t, err := h.tableChangeStart(c)
	if err != nil {
		return h.Fail(c, err)
	}
	names := site.PlayerIndex(st)
	d.Round, d.Table, d.Open = r.Number, t.Number, r.Status == tournament.RoundOpen
	d.FormKey = site.NewKey()
	list := make([]string, len(t.Players))
	for i, pid := range t.Players {
		list[i] = names[pid].Name
	}
	d.Names = strings.Join(list, ", ")
	for _, pid := range t.Present(math.MaxInt) {
		d.Players = append(d.Players, tiePlayer{ID: pid, Name: names[pid].Name})
	}
	for _, w := range t.Withdrawals {
		d.Left = append(d.Left, p.T("tc.left", names[w.Player].Name, w.Game, p.T("tc."+string(w.Handling)), w.Reason))
	}
	d.Game = gameInProgress(st, r, t)
	d.Started = d.Game != 1 || len(t.Withdrawals) > 0
	for _, o := range r.Tables {
		if o.Number == t.Number {
			continue
		}
		d.Targets = append(d.Targets, o.Number)
		for _, pid := range o.Players {
			d.Others = append(d.Others, tiePlayer{ID: pid, Name: p.T("tc.tableof", o.Number, names[pid].Name)})
		}
	}
	p.Data = d
	return h.Render(c, status, "console_table", p)
}

// gameInProgress is the table's first game of the round without a result
// (0 when every game has one).
func gameInProgress(st *tournament.State, r *tournament.Round, t tournament.Table) int {
	for g := 1; g <= st.Tournament.Settings.GamesIn(r.Final); g++ {
		if !slices.ContainsFunc(st.Results, func(res tournament.GameResult) bool {
			return res.Key.Round == r.Number && res.Key.Table == t.Number && res.Key.Game == g
		}) {
			return g
		}
	}
	return 0
}

// withdrawAtTable takes the withdrawal form: the first submission shows
// the choice for confirmation, the second (confirm=1) makes it.
func (h *Handler) withdrawAtTable(c echo.Context) error {
	lang := h.Language(c)
	w := withdrawChoice{Player: c.FormValue("player"), Handling: c.FormValue("handling"), Reason: strings.TrimSpace(c.FormValue("reason"))}
	values := map[string]string{"player": w.Player, "handling": w.Handling, "reason": w.Reason}
	fail := func(err error) error { return h.tableFormError(c, "withdraw", err, values) }
	switch {
	case w.Handling != string(tournament.WithdrawFinish) && w.Handling != string(tournament.WithdrawForfeit):
		return fail(fieldError("handling", site.Translate(lang, "tc.needhandling")))
	case w.Reason == "":
		return fail(fieldError("reason", site.Translate(lang, "tc.needreason")))
	}
	n, _ := strconv.Atoi(c.Param("n"))
	tn, _ := strconv.Atoi(c.Param("t"))
	if c.FormValue("confirm") != "1" {
		st, err := h.State(c.Request().Context(), c.Param("tid"))
		if err != nil {
			return h.Fail(c, err)
		}
		pl, ok := site.PlayerIndex(st)[w.Player]
		if !ok {
			return fail(fieldError("player", site.Translate(lang, "tc.needplayer")))
		}
		w.Name, w.HandlingText = pl.Name, site.Translate(lang, "tc."+w.Handling)
		return h.renderTableChange(c, http.StatusOK, tableChangeData{Confirm: &w, Values: values})
	}
	// Under the form's Idempotency-Key (app.Withdraw): the confirmation
	// sent twice is answered as the first, not refused as the player
	// having left.
	cmd := app.Withdraw{Actor: consoleActor(c), Tournament: c.Param("tid"), Round: n, Table: tn,
		Withdrawal: play.Withdrawal{Player: w.Player, Handling: tournament.WithdrawalHandling(w.Handling), Reason: w.Reason}}
	var err error
	if cmd.Key, err = h.formKey(c); err == nil {
		_, err = h.commands.Withdraw(c.Request().Context(), cmd)
	}
	if err != nil {
		return fail(err)
	}
	return h.saved(c, "round")
}

// statusOfForm is the status of a refused form that the page can show next
// to the form; 0 for errors no form can fix (those get the error page).
func statusOfForm(err error) int {
	status := httpx.StatusOf(err)
	if status >= 500 || status == http.StatusNotFound || status == http.StatusUnauthorized || status == http.StatusForbidden {
		return 0
	}
	return status
}

// reseatAtTable takes the re-seating forms: a swap (with) or a move (table).
func (h *Handler) reseatAtTable(c echo.Context) error {
	rs := play.Reseat{Player: c.FormValue("player"), With: c.FormValue("with"), Reason: c.FormValue("reason")}
	values := map[string]string{"player": rs.Player, "with": rs.With, "table": c.FormValue("table"), "reason": rs.Reason}
	if v := c.FormValue("table"); v != "" {
		rs.Table, _ = strconv.Atoi(v)
	}
	n, _ := strconv.Atoi(c.Param("n"))
	// Under the form's Idempotency-Key (app.Reseat): a swap sent twice
	// swaps once, where a second swap would undo the first.
	cmd := app.Reseat{Actor: consoleActor(c), Tournament: c.Param("tid"), Round: n, Reseat: rs}
	var err error
	if cmd.Key, err = h.formKey(c); err == nil {
		_, err = h.commands.Reseat(c.Request().Context(), cmd)
	}
	if err != nil {
		return h.tableFormError(c, "reseat", err, values)
	}
	return h.saved(c, "round")
}

// tableFormError shows err next to the table page's form, or the error
// page for errors no form can fix.
func (h *Handler) tableFormError(c echo.Context, form string, err error, values map[string]string) error {
	status := statusOfForm(err)
	if status == 0 {
		return h.Fail(c, err)
	}
	d := tableChangeData{Error: site.ErrorText(h.Language(c), err), Values: values, Form: form}
	var te *tournament.Error
	if errors.As(err, &te) {
		d.Field = te.Field()
	}
	return h.renderTableChange(c, status, d)
}
