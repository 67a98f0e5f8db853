package console

import (
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
	"golang.org/x/text/collate"
	"golang.org/x/text/language"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/web/sheet"
	"github.com/revisor-sm/revisor/web/site"
)

// Big screen: rows, tables and names per page, and seconds per page.
const (
	screenRows    = 16 // a 13-player SM on one page; 1920×1080 holds 16 rows (style.css)
	screenTables  = 6
	screenNames   = 36
	screenSeconds = 15
)

// screenData is the big screen's data: one page of the standings, of the
// seating or of the names with their tables.
type screenData struct {
	View     string // "standings", "seating" or "names"
	Page, Of int
	// SM, Order and Rows are the standings as the standings page shows
	// them (the same template): what decides each rank, and ties.
	SM, Bridge bool
	Order      string
	Rows       []site.StandingRow
	Tables     []site.TableView
	Names      []nameAtTable
	Round      *tournament.Round
	Clock      *clockView // the open round's clock, once started
}

// screenViews are the big screen's views in the order it shows them.
var screenViews = []string{"standings", "seating", "names"}

// ScreenPage is the big-screen view. It goes by itself (a meta refresh,
// so no script is needed) through the pages of the standings, of the
// seating of the current round, and of its players A to Ö with their
// tables.
func (h *Handler) ScreenPage(c echo.Context) error {
	p, st, err := h.TournamentPageStart(c, "screen.title", "screen")
	if err != nil {
		return h.Fail(c, err)
	}
	sv := h.StandingsOf(p, st)
	rows := sv.Rows
	r := site.RoundOf(st, 0)
	var tables []site.TableView
	if r != nil {
		tables = site.RoundTables(st, r, "")
	}
	names := namesAtTables(tables, st.Tournament.Settings.Language)
	of := map[string]int{"standings": max(1, pages(len(rows), screenRows)),
		"seating": pages(len(tables), screenTables), "names": pages(len(names), screenNames)}
	view := c.QueryParam("view")
	if of[view] == 0 {
		view = "standings"
	}
	n, _ := strconv.Atoi(c.QueryParam("page"))
	d := screenData{View: view, Round: r, Of: of[view], SM: sv.SM, Bridge: sv.Bridge, Order: sv.Order}
	d.Page = clampPage(n, d.Of)
	switch view {
	case "standings":
		d.Rows = rows[min(len(rows), (d.Page-1)*screenRows):min(len(rows), d.Page*screenRows)]
	case "seating":
		d.Tables = tables[(d.Page-1)*screenTables : min(len(tables), d.Page*screenTables)]
	case "names":
		d.Names = names[(d.Page-1)*screenNames : min(len(names), d.Page*screenNames)]
	}
	nextView, nextPage := nextScreen(view, d.Page, d.Of, of)
	if r != nil && r.Status == tournament.RoundOpen {
		if d.Clock, err = h.screenClock(c, p, st.Tournament.ID, r.Number); err != nil {
			return h.Fail(c, err)
		}
	}
	p.Refresh = fmt.Sprintf("%d;url=/t/%s/screen?view=%s&page=%d", screenSeconds, site.PathEscape(st.Tournament.ID), nextView, nextPage)
	p.BodyClass = "screen"
	p.Events = site.LivePageEvents(st.Tournament.ID)
	p.Data = d
	return h.Render(c, http.StatusOK, "screen", p)
}

// nextScreen returns the page the big screen shows after page of view:
// the view's next page, else the first page of the next view that has
// one.
func nextScreen(view string, page, of int, pagesOf map[string]int) (string, int) {
	if page < of {
		return view, page + 1
	}
	i := slices.Index(screenViews, view)
	for k := 1; k <= len(screenViews); k++ {
		if next := screenViews[(i+k)%len(screenViews)]; pagesOf[next] > 0 {
			return next, 1
		}
	}
	return "standings", 1
}

// nameAtTable is one line of the big screen's list of names.
type nameAtTable struct {
	Name  string
	Table int
}

// namesAtTables lists the players seated at tables, sorted the way the
// tournament's language sorts names (Swedish unless it is Norwegian or
// Danish: å, ä and ö after z), so that the room reads the list as a
// phone book.
func namesAtTables(tables []site.TableView, lang string) []nameAtTable {
	var out []nameAtTable
	for _, t := range tables {
		for _, s := range t.Seats {
			out = append(out, nameAtTable{Name: s.Name, Table: t.Number})
		}
	}
	tag := language.Swedish
	switch lang {
	case "nb":
		tag = language.Norwegian
	case "da":
		tag = language.Danish
	case "fi":
		tag = language.Finnish
	}
	col := collate.New(tag, collate.IgnoreCase)
	slices.SortStableFunc(out, func(a, b nameAtTable) int {
		if c := col.CompareString(a.Name, b.Name); c != 0 {
			return c
		}
		return a.Table - b.Table
	})
	return out
}

// inConsole reports whether the request came by the console's route.
func inConsole(c echo.Context) bool { return strings.Contains(c.Path(), "/console/") }

// tableLink is the URL a table's QR code opens: the table page, with the
// code in the fragment, which browsers never send to the server (so no
// access log holds it); the page's script posts it and clears it.
func (h *Handler) tableLink(c echo.Context, tid, code string) string {
	return h.publicBase(c) + site.TableURL(tid) + "#code=" + code
}

// shortLink is a link as a card prints it: without http:// (browsers
// add it); https:// stays, as a phone would otherwise try plain HTTP.
func shortLink(u string) string { return strings.TrimPrefix(u, "http://") }

// publicBase is the scheme and host phones reach the server by: the
// configured public URL, else the request's own.
func (h *Handler) publicBase(c echo.Context) string {
	if h.PublicURL() != "" {
		return h.PublicURL()
	}
	return c.Scheme() + "://" + c.Request().Host
}

func pages(n, per int) int { return (n + per - 1) / per }

func clampPage(n, of int) int { return min(max(n, 1), max(of, 1)) }

// sheetRows is how many deal rows one printed score sheet (an A4 page in
// landscape) holds. A game to 52 has no upper bound in the rules (a lost
// Chicago takes points away, and the engine accepts 200 deals), and it is
// long even without one: with four players and only the last trick scored,
// 41 deals. The simulator's games (3,000 at each size, sm rules) took a median of
// 16 deals at a table of four, 25 at the 90th percentile and 46 at the
// 99.9th: one sheet holds nine games in ten, a continuation sheet (the same
// table, game and players, "continued") the rest but a few in a thousand,
// and a game longer still gets more continuation sheets.
const sheetRows = 24

// sheetView is one printable score sheet (protokoll): a table's game, or
// a continuation sheet of a game longer than one sheet holds.
type sheetView struct {
	Round, Table, Game int
	Players            []string
	Rows               []sheet.Row
	QR                 template.HTML // the table page's QR code: the console's sheets only
	Bridge             *bridgeSheet  // a bridge table's sheet instead of Rows
	// Continued is a continuation sheet: its rows go on from an earlier
	// sheet's. More says that another sheet follows this one.
	Continued, More bool
}

// From is the first deal on the sheet.
func (s sheetView) From() int { return s.Rows[0].Deal }

// To is the last deal on the sheet.
func (s sheetView) To() int { return s.Rows[len(s.Rows)-1].Deal }

// bridgeSheet is a Chicago bridge (or draw bridge) score sheet: each deal's
// dealer and vulnerability printed in advance, the contract, declarer,
// tricks and each side's points written in (or filled from the result).
type bridgeSheet struct {
	Sides [2]string // "Anna & Cecilia" (seats 1 and 3), or a player at a table of two
	Draw  bool      // a table of two: draw bridge, a player vulnerable after a game
	Rows  []bridgeRow
}

// bridgeRow is one deal of a bridge score sheet.
type bridgeRow struct {
	Deal                       int
	Dealer, Vulnerable         string
	Contract, Declarer, Tricks string
	Points, Totals             [2]string
}

// sheetsData is the score sheets page's data.
type sheetsData struct {
	Base  string // /t/{tid} or, for the console's sheets, /t/{tid}/console
	Round int
	// Continued prints only continuation sheets (?continued=1): blank
	// ones the organizer keeps at hand for long games.
	Continued bool
	// ContFrom and ContTo are the deals a blank continuation sheet holds.
	ContFrom, ContTo int
	Bridge           bool // bridge sheets: no continuation sheets
	Sheets           []sheetView
	Pages            []sheetPage // the groups of tables, when the round has several
}

// sheetPage links one group of tables' score sheets.
type sheetPage struct {
	Page, From, To int
	Current        bool
}

// sheetTables is how many tables' sheets one page prints: a round of 50
// tables is printed in groups rather than as one enormous page.
const sheetTables = 5

// SheetsPage prints the score sheets of a round: every table and game, or
// the one asked for with ?table= and ?game=. Games already played are
// filled in from their accepted result.
func (h *Handler) SheetsPage(c echo.Context) error {
	p, st, r, err := h.RoundPageStart(c, "sheet.title")
	if err != nil {
		return h.Fail(c, err)
	}
	n := r.Number
	onlyTable, _ := strconv.Atoi(c.QueryParam("table"))
	onlyGame, _ := strconv.Atoi(c.QueryParam("game"))
	d := sheetsData{Round: n, Base: "/t/" + site.PathEscape(st.Tournament.ID), Continued: c.QueryParam("continued") == "1",
		ContFrom: sheetRows + 1, ContTo: 2 * sheetRows, Bridge: st.Tournament.Format == tournament.FormatBridge}
	if inConsole(c) {
		d.Base += "/console"
	}
	group, _ := strconv.Atoi(c.QueryParam("page"))
	group = clampPage(group, pages(len(r.Tables), sheetTables))
	if onlyTable == 0 && len(r.Tables) > sheetTables {
		for i := 1; i <= pages(len(r.Tables), sheetTables); i++ {
			d.Pages = append(d.Pages, sheetPage{Page: i, From: (i-1)*sheetTables + 1,
				To: min(i*sheetTables, len(r.Tables)), Current: i == group})
		}
	}
	svc := h.Deps().Rounds
	names := site.PlayerIndex(st)
	// The console's sheets (organizer only) carry each table's QR code;
	// the public sheets never show a code.
	var codes map[int]string
	if inConsole(c) {
		if codes, err = svc.TableCodes(c.Request().Context(), consoleActor(c), st.Tournament.ID, n); err != nil {
			return h.Fail(c, err)
		}
	}
	for _, t := range r.Tables {
		if onlyTable > 0 && t.Number != onlyTable {
			continue
		}
		if onlyTable == 0 && (t.Number <= (group-1)*sheetTables || t.Number > group*sheetTables) {
			continue
		}
		// The records, which the snapshot lacks, of this table only.
		results, err := h.Deps().Tournaments.TableResults(c.Request().Context(), st.Tournament.ID, n, t.Number)
		if err != nil {
			return h.Fail(c, err)
		}
		if st.Tournament.Format == tournament.FormatBridge {
			d.Sheets = append(d.Sheets, bridgeScoreSheet(p, st.Tournament.Settings, results, r, t, names))
			continue
		}
		for g := 1; g <= st.Tournament.Settings.GamesPerRound; g++ {
			if onlyGame > 0 && g != onlyGame {
				continue
			}
			var qr template.HTML
			if code, ok := codes[t.Number]; ok {
				if qr, err = h.QRCode(h.tableLink(c, st.Tournament.ID, code), p.T("card.qr", t.Number)); err != nil {
					return h.Fail(c, err)
				}
			}
			for _, sv := range scoreSheets(results, r, t, g, names, d.Continued) {
				sv.QR = qr
				d.Sheets = append(d.Sheets, sv)
			}
		}
	}
	p.Title = p.T("sheet.title", n)
	p.BodyClass = "print"
	p.Data = d
	return h.Render(c, http.StatusOK, "sheets", p)
}

// scoreSheets builds the sheets of game g at table t, filled from the
// game's result when it has one: the first sheet, and continuation sheets
// while the game's deals (and two rows more, for a game that goes on) need
// them. With onlyContinued, it builds the continuation sheets alone, at
// least one, blank when the game has no more deals.
func scoreSheets(results []tournament.GameResult, r *tournament.Round, t tournament.Table, g int, names map[string]tournament.Player, onlyContinued bool) []sheetView {
	var players []string
	for _, pid := range t.Players {
		players = append(players, names[pid].Name)
	}
	var deals []sheet.ResultDeal
	for _, res := range results {
		if res.Key.Table == t.Number && res.Key.Game == g {
			deals = sheet.ResultDeals(res.Result)
		}
	}
	first := slices.Index(t.Players, t.FirstDealerOf(g))
	rows := max(sheetRows, len(deals)+2)
	if onlyContinued {
		rows = max(rows, 2*sheetRows)
	}
	rows = pages(rows, sheetRows) * sheetRows // every sheet full of rows
	var sheets []sheetView
	for k := range rows {
		if k%sheetRows == 0 {
			sheets = append(sheets, sheetView{Round: r.Number, Table: t.Number, Game: g, Players: players, Continued: k > 0})
		}
		row := sheet.Row{Deal: k + 1, Cells: make([]sheet.Cell, len(t.Players))}
		if first >= 0 && len(t.Players) > 0 {
			row.Dealer = names[t.Players[(first+k)%len(t.Players)]].Name
		}
		if k < len(deals) {
			sheet.FillRow(&row, deals[k], t.Players)
		}
		sv := &sheets[len(sheets)-1]
		sv.Rows = append(sv.Rows, row)
	}
	for i := range len(sheets) - 1 {
		sheets[i].More = true
	}
	if onlyContinued {
		sheets = sheets[1:]
	}
	return sheets
}

// bridgeScoreSheet builds the sheet of a bridge table, filled from its
// match's result when it has one.
func bridgeScoreSheet(p *site.Page, set tournament.Settings, results []tournament.GameResult, r *tournament.Round, t tournament.Table, names map[string]tournament.Player) sheetView {
	sv := sheetView{Round: r.Number, Table: t.Number, Game: 1, Bridge: &bridgeSheet{Draw: len(t.Players) == 2}}
	for _, pid := range t.Players {
		sv.Players = append(sv.Players, names[pid].Name)
	}
	if sv.Bridge.Draw {
		sv.Bridge.Sides = [2]string{sv.Players[0], sv.Players[1]}
	} else {
		sv.Bridge.Sides = [2]string{sv.Players[0] + " & " + sv.Players[2], sv.Players[1] + " & " + sv.Players[3]}
	}
	vul := map[[2]bool]string{{}: p.T("bsheet.none"), {true, false}: p.T("bsheet.ns"), {false, true}: p.T("bsheet.ew"), {true, true}: p.T("bsheet.both")}
	for _, sd := range play.BridgeSheet(set, t) {
		row := bridgeRow{Deal: sd.Deal, Dealer: names[sd.Dealer].Name}
		if !sv.Bridge.Draw {
			row.Vulnerable = vul[sd.Vulnerable]
		}
		sv.Bridge.Rows = append(sv.Bridge.Rows, row)
	}
	for _, res := range results {
		if res.Key.Table == t.Number && res.Key.Game == 1 {
			fillBridge(sv.Bridge, res.Result, t, names)
		}
	}
	n := len(t.Players)
	for k := range sv.Bridge.Rows { // rows a long rubber added: the deal keeps rotating
		if row := &sv.Bridge.Rows[k]; row.Dealer == "" && k >= n {
			row.Dealer = sv.Bridge.Rows[k-n].Dealer
		}
	}
	return sv
}

// fillBridge writes a match's counted deals into the sheet's rows.
func fillBridge(b *bridgeSheet, raw json.RawMessage, t tournament.Table, names map[string]tournament.Player) {
	var res struct {
		Deals []struct {
			Number   *int           `json:"number"`
			Contract string         `json:"contract"`
			Declarer string         `json:"declarer"`
			Tricks   int            `json:"tricks"`
			Points   map[string]int `json:"points"`
			Totals   map[string]int `json:"totals"`
		} `json:"deals"`
	}
	if json.Unmarshal(raw, &res) != nil {
		return
	}
	keys := [2]string{"ns", "ew"}
	if b.Draw {
		keys = [2]string{t.Players[0], t.Players[1]}
	}
	for _, d := range res.Deals {
		if d.Number == nil || *d.Number < 1 {
			continue
		}
		for len(b.Rows) < *d.Number {
			b.Rows = append(b.Rows, bridgeRow{Deal: len(b.Rows) + 1})
		}
		row := &b.Rows[*d.Number-1]
		row.Contract, row.Declarer, row.Tricks = d.Contract, names[d.Declarer].Name, strconv.Itoa(d.Tricks)
		for i, k := range keys {
			row.Points[i], row.Totals[i] = strconv.Itoa(d.Points[k]), strconv.Itoa(d.Totals[k])
		}
	}
}
