// Package table serves the table page (/t/{tid}/table): the phone of a
// table logs in with the table's code, enters its deals one by one (or a
// bridge match's contracts), corrects and confirms its games, opens a
// dispute, and reports the queue of entries it holds. Its posts run the
// table's commands (app.Table) under their Idempotency-Key (app.Once,
// table_once.go). What it shares with the other pages (rendering, the
// session, the table's cookie, the score sheet) is web/site's.
package table

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/internal/tokens"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/web/sheet"
	"github.com/revisor-sm/revisor/web/site"
)

// Handler serves the table page over the pages' site.
type Handler struct{ *site.Site }

// New returns the table page's handler over s.
func New(s *site.Site) *Handler { return &Handler{s} }

// Routes registers the table page under /t/:tid/table: the code
// form, and the forms a table posts (deals, confirmations, disputes), all
// with the CSRF token.
func (h *Handler) Routes(g *echo.Group) {
	g.GET("", h.tablePage)
	g.POST("/login", h.tableLogin)
	g.POST("/logout", h.tableLogout)
	g.POST("/games/:g/deals", h.tableDeal)
	g.POST("/games/:g/deals/:d", h.tableCorrect)
	g.GET("/clock", h.tableClock)
	g.POST("/games/:g/confirmations", h.tableConfirmGame)
	g.POST("/games/:g/dispute", h.tableDispute)
	g.POST("/queue", h.tableQueue)
}

// tableLoginData is the code form's data.
type tableLoginData struct {
	Error string
	// Latest is the tournament's latest round: a phone whose session ended
	// reads it from the form to tell a new round drawn from a lost cookie,
	// whatever events it heard or missed (a resync says no round).
	Latest int
}

// tableLogin checks a table's code (typed, or read by the page's script
// from the QR code's URL fragment) and starts the table's session. Wrong
// codes count against the same per-address budget as every other door.
func (h *Handler) tableLogin(c echo.Context) error {
	tid := c.Param("tid")
	p, _, err := h.TournamentPageStart(c, "tbl.login", "")
	if err != nil {
		return h.Fail(c, err)
	}
	p.Script, p.BodyClass = "table.js", "table-page"
	code := tokens.NormalizeCode(c.FormValue("code"))
	_, err = h.VerifyCode(c, httpx.CarrierForm, code)
	switch {
	case err == nil:
		h.SetTableCookie(c, tid, code, int(site.SessionMaxAge.Seconds()))
		return c.Redirect(http.StatusSeeOther, site.TableURL(tid))
	case tournament.ErrorKind(err) == tournament.KindTooMany:
		p.Data = tableLoginData{Error: p.T("login.many")}
		return h.Render(c, http.StatusTooManyRequests, "table_login", p)
	case tournament.ErrorKind(err) != tournament.KindUnauthorized:
		return h.Fail(c, err) // not a wrong code: the database failed
	}
	p.Data = tableLoginData{Error: p.T("tbl.badcode")}
	return h.Render(c, http.StatusUnauthorized, "table_login", p)
}

func (h *Handler) tableLogout(c echo.Context) error {
	h.SetTableCookie(c, c.Param("tid"), "", -1)
	return c.Redirect(http.StatusSeeOther, site.TableURL(c.Param("tid")))
}

// tableDeal is one deal of a game as the table page shows it.
type tableDeal struct {
	Number    int
	Dealer    sheet.TablePlayer
	Cells     []sheet.Cell
	Corrected bool   // the deal was corrected after it was first sheet.Stored
	Fields    string // the sheet.Stored deal as the entry form's fields (JSON), for the page's queue
}

// shortNames gives each player the short forms of their name that the
// deals table heads its column with (the whole name is the column's title
// and label):
//   - Short, for a column of some width: the first word of the name
//     ("Anna"), or, when another player at the table has the same first
//     word, that word and the last word's initial ("Anna A."), or the whole
//     name when even that is shared;
//   - Initials, for a phone's narrow column: "AA" for Anna Andersson, "AnA"
//     beside Ann Axelsson, "AAn" beside Anna Axelsson, else Short.
func shortNames(ps []sheet.TablePlayer) {
	words := func(s string) []string {
		if w := strings.Fields(s); len(w) > 0 {
			return w
		}
		return []string{""}
	}
	head := func(s string, n int) string {
		r := []rune(s)
		return string(r[:min(n, len(r))])
	}
	first := func(s string) string { return words(s)[0] }
	initial := func(s string) string {
		w := words(s)
		if len(w) < 2 {
			return w[0]
		}
		return w[0] + " " + head(w[len(w)-1], 1) + "."
	}
	initials := func(n int) func(string) string {
		return func(s string) string {
			w := words(s)
			f := head(w[0], 1)
			if len(w) < 2 {
				return strings.ToUpper(f) + head(w[0][len(f):], n)
			}
			return strings.ToUpper(f) + head(w[0][len(f):], n-1) + strings.ToUpper(head(w[len(w)-1], 1))
		}
	}
	// surname is "AAx" for Anna Axelsson beside Anna Andersson.
	surname := func(s string) string {
		w := words(s)
		l := head(w[len(w)-1], 1)
		return strings.ToUpper(head(w[0], 1)+l) + head(w[len(w)-1][len(l):], 1)
	}
	whole := func(s string) string { return strings.Join(words(s), " ") }
	for i := range ps {
		ps[i].Short = unique(ps, i, first, initial, whole)
		ps[i].Initials = unique(ps, i, initials(1), initials(2), surname, func(string) string { return ps[i].Short })
	}
}

// unique is the first of the forms of player i's name that no other
// player's name has, else the last form.
func unique(ps []sheet.TablePlayer, i int, forms ...func(string) string) string {
	for _, form := range forms[:len(forms)-1] {
		if !slices.ContainsFunc(ps, func(o sheet.TablePlayer) bool { return o.Seat != ps[i].Seat && form(o.Name) == form(ps[i].Name) }) {
			return form(ps[i].Name)
		}
	}
	return forms[len(forms)-1](ps[i].Name)
}

// tableGame is one game of the table.
type tableGame struct {
	Number     int
	Over       bool
	Current    bool
	Deals      []tableDeal
	Totals     []int
	NextDeal   int
	NextDealer string
	Dealers    []string // who deals deal 1, 2, …, in turn
	Places     []sheet.PlaceView
	Bridge     *bridgeMatch // a bridge table's match instead of Deals
}

// tableData is the table page's data.
type tableData struct {
	Round, Table int
	Latest       int    // the tournament's latest round: past Round, this phone's table is history
	AsOf         int64  // the version of when the page was made (Site.Version): its stream's hello says if the clock changed since
	Bridge       bool   // a bridge_chicago table: contract, declarer, tricks
	Sources      string // the sheet's columns (sheet.Sources), for table.js
	Players      []sheet.TablePlayer
	Games        []tableGame
	Game         tableGame // the game shown
	Fields       []tableFieldGroup
	LastTrick    int
	Chicago      int
	Key          string // an Idempotency-Key for the form without script
	Errors       []string
	Values       map[string]string
	// Confirms lists the shown game's confirmations once it is over (nil
	// while it is played, or when the API has none to show).
	Confirms  []tableConfirm
	Confirmed bool // every player has confirmed
	// CanCorrect is true while the shown game's stored deals can still be
	// corrected at the table (until every player has confirmed it).
	CanCorrect bool
	// Correct is the deal being corrected (0: none): the form then holds
	// that deal's points and asks for the reason.
	Correct      int
	ReasonErrors []string
	// FieldErrors holds the messages about the bridge entry's choices, by
	// the field's name.
	FieldErrors map[string][]string
	// Disputes are the disputes the table sent this round, with their
	// state (table_disputes.go).
	Disputes []tableDisputeView
}

// tableFieldGroup is one player's inputs of the entry form.
type tableFieldGroup struct {
	Player sheet.TablePlayer
	Fields []sheet.FormField
	Errors []string // the messages about this player's fields
	// Gone is true for a player withdrawn during the game: their seat
	// scores nothing more, so the form has no fields for them.
	Gone bool
}

// tablePage is the table's page: the code form without a session, else
// the game being played with its deals, running totals and the next
// deal's form.
func (h *Handler) tablePage(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	_, id, ok := h.TableSession(c)
	if !ok {
		p, st, err := h.TournamentPageStart(c, "tbl.login", "")
		if err != nil {
			return h.Fail(c, err)
		}
		p.Data, p.Script, p.BodyClass = tableLoginData{Latest: len(st.Rounds)}, "table.js", "table-page"
		return h.Render(c, http.StatusOK, "table_login", p)
	}
	p, d, err := h.tableView(c, id)
	if err != nil {
		return h.Fail(c, err)
	}
	p.Data = d
	return h.Render(c, http.StatusOK, "table", p)
}

// tableView loads what the table page shows for the table of id.
func (h *Handler) tableView(c echo.Context, id tournament.Identity) (*site.Page, *tableData, error) {
	p, st, err := h.TournamentPageStart(c, "tbl.title", "")
	if err != nil {
		return nil, nil, err
	}
	r := site.RoundOf(st, id.Round)
	if r == nil {
		return nil, nil, tournament.Errorf(tournament.KindNotFound, tournament.CodeRoundNotFound, "round %d not found", id.Round)
	}
	t, _ := r.Table(id.Table)
	names := site.PlayerIndex(st)
	d := &tableData{Round: id.Round, Table: id.Table, Latest: len(st.Rounds), AsOf: h.Version(), LastTrick: sheet.LastTrickPoints(st.Tournament.Settings.Rules),
		Chicago: sheet.ChicagoPoints(st.Tournament.Settings.Rules), Key: site.NewKey(), Values: map[string]string{},
		FieldErrors: map[string][]string{}, Bridge: st.Tournament.Format == tournament.FormatBridge,
		Sources: strings.Join(sheet.Sources, " ")}
	for i, pid := range t.Players {
		d.Players = append(d.Players, sheet.TablePlayer{Seat: i + 1, ID: pid, Name: names[pid].Name})
	}
	shortNames(d.Players)
	svc := h.Deps().Tournaments
	ctx := c.Request().Context()
	results, err := svc.TableResults(ctx, st.Tournament.ID, id.Round, id.Table)
	if err != nil {
		return nil, nil, err
	}
	short := map[string]sheet.TablePlayer{}
	for _, pl := range d.Players {
		short[pl.ID] = pl
	}
	want, correct := shownGame(c)
	for g := 1; g <= st.Tournament.Settings.GamesPerRound; g++ {
		gm := tableGame{Number: g}
		var deals []sheet.ResultDeal
		i := slices.IndexFunc(results, func(res tournament.GameResult) bool { return res.Key.Game == g })
		if i >= 0 {
			gm.Over = true
			gm.Places = sheet.Stored(p, results[i], names).Places
		}
		switch {
		case d.Bridge:
			pr, err := h.Deps().Rounds.Progress(ctx, tournament.GameKey{TournamentID: st.Tournament.ID, Round: id.Round, Table: id.Table, Game: g})
			if err != nil {
				return nil, nil, err
			}
			fillMatch(p, &gm, st.Tournament.Settings, t, pr.Match, d.Players)
		case i >= 0:
			deals = sheet.ResultDeals(results[i].Result)
		default:
			pr, err := h.Deps().Rounds.Progress(ctx, tournament.GameKey{TournamentID: st.Tournament.ID, Round: id.Round, Table: id.Table, Game: g})
			if err != nil {
				return nil, nil, err
			}
			deals = progressDeals(pr.Deals)
		}
		if !d.Bridge {
			fillGame(&gm, t, deals, short)
		}
		d.Games = append(d.Games, gm)
	}
	cur := slices.IndexFunc(d.Games, func(g tableGame) bool { return !g.Over })
	if cur < 0 {
		cur = len(d.Games) - 1
	}
	if want >= 1 && want <= len(d.Games) {
		cur = want - 1
	}
	d.Games[cur].Current = true
	d.Game = d.Games[cur]
	pg, ok := h.readGame(c, id, d.Game.Number)
	if ok && d.Game.Over {
		d.Confirms = confirmations(pg, d.Players, p.Loc())
		d.Confirmed = allConfirmed(d.Confirms)
	}
	d.Fields = entryFields(p, d.Players)
	present := t.Present(d.Game.Number)
	for i := range d.Fields {
		d.Fields[i].Gone = !slices.Contains(present, d.Fields[i].Player.ID) && d.Correct == 0
	}
	if ok && !d.Bridge {
		for k := range d.Game.Deals {
			d.Game.Deals[k].Corrected = k < len(pg.Deals) && pg.Deals[k].Version > 1
			if k < len(pg.Deals) {
				d.Game.Deals[k].Fields = fieldsJSON(pg.Deals[k].Deal, t.Players)
			}
		}
		d.CanCorrect = !d.Confirmed && len(pg.Deals) > 0
		if d.CanCorrect && correct >= 1 && correct <= len(pg.Deals) {
			d.Correct = correct
			prefill(d, pg.Deals[correct-1].Deal, t.Players)
		}
	}
	if d.Disputes, err = h.tableDisputes(ctx, p, id); err != nil {
		return nil, nil, err
	}
	p.Title = p.T("tbl.heading", id.Table, id.Round)
	p.BodyClass, p.Script = "table-page", "table.js"
	return p, d, nil
}

// shownGame reads which game the page shows and which of its deals is
// being corrected: from the query (?game=2&correct=3), or from the path
// of a correction being posted (…/games/2/deals/3).
func shownGame(c echo.Context) (game, correct int) {
	game, _ = strconv.Atoi(c.QueryParam("game"))
	correct, _ = strconv.Atoi(c.QueryParam("correct"))
	if d := c.Param("d"); d != "" {
		game, _ = strconv.Atoi(c.Param("g"))
		correct, _ = strconv.Atoi(d)
	}
	return game, correct
}

// prefill puts a stored deal into the entry form: a score-sheet line into
// the players' fields, any other record into the paste box.
func prefill(d *tableData, rec json.RawMessage, players []string) {
	f := recordFields(rec, players)
	if r, ok := f["record"]; ok {
		d.Values["record"] = r
		return
	}
	for i := range d.Fields {
		for j := range d.Fields[i].Fields {
			d.Fields[i].Fields[j].Value = f[d.Fields[i].Fields[j].Name]
		}
	}
}

// progressDeals turns the engine's results of the deals entered so far
// into the sheet's lines.
func progressDeals(rs []engine.DealResult) []sheet.ResultDeal {
	out := make([]sheet.ResultDeal, len(rs))
	for i, r := range rs {
		out[i] = sheet.ResultDeal{Awards: r.Awards, Scores: r.Scores}
	}
	return out
}

// fillGame writes the deals of game gm as score-sheet lines with their
// dealers, the running totals, and the next deal's number and dealer.
func fillGame(gm *tableGame, t tournament.Table, deals []sheet.ResultDeal, players map[string]sheet.TablePlayer) {
	first := max(0, slices.Index(t.Players, t.FirstDealerOf(gm.Number)))
	seat := func(k int) sheet.TablePlayer { return players[t.Players[(first+k)%len(t.Players)]] }
	for k, rd := range deals {
		row := sheet.Row{Deal: k + 1, Cells: make([]sheet.Cell, len(t.Players))}
		sheet.FillRow(&row, rd, t.Players)
		gm.Deals = append(gm.Deals, tableDeal{Number: k + 1, Dealer: seat(k), Cells: row.Cells})
	}
	gm.Totals = make([]int, len(t.Players))
	if n := len(deals); n > 0 {
		for i, pid := range t.Players {
			gm.Totals[i] = deals[n-1].Scores[pid]
		}
	}
	gm.NextDeal = len(deals) + 1
	gm.Dealers = presentDealers(t, gm.Number, gm.NextDeal, func(pid string) string { return players[pid].Short })
	gm.NextDealer = gm.Dealers[0]
}

// entryFields builds the inputs of the next deal: each player's phase 1,
// phase 2, last trick or Chicago and final hand.
func entryFields(p *site.Page, players []sheet.TablePlayer) []tableFieldGroup {
	out := make([]tableFieldGroup, len(players))
	for i, pl := range players {
		g := tableFieldGroup{Player: pl}
		for j, src := range sheet.Sources {
			g.Fields = append(g.Fields, sheet.FormField{Name: entryName(i, src),
				Label: p.T(sheet.SourceLabel[j]), Value: ""})
		}
		out[i] = g
	}
	return out
}

// entryName is the form name of seat i's (0-based) field src.
func entryName(seat int, src string) string { return "s" + strconv.Itoa(seat+1) + "_" + src }

// trimmed reads a form value without surrounding space.
func trimmed(c echo.Context, name string) string { return strings.TrimSpace(c.FormValue(name)) }
