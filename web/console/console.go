// Package console serves the organizer's console (/t/{tid}/console:
// settings, players, rounds, results, ties, tables, the room and its
// clock, cards, downloads), the referees' pages (/t/{tid}/disputes), and
// the pages to print and to show (score sheets, the big screen), which
// the public reach too. What it shares with the other pages is
// web/site's.
package console

import (
	"errors"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/registry"
	"github.com/revisor-sm/revisor/web/site"
)

// Handler serves the console and the referees' pages over the pages'
// site.
type Handler struct {
	*site.Site
	// commands are the organizer's commands that a form sent twice would
	// do twice, each run once per form key (app.Console).
	commands *app.Console
}

// New returns the console's handler over s.
func New(s *site.Site) *Handler {
	d := s.Deps()
	return &Handler{Site: s, commands: app.NewConsole(app.ConsoleServices{Rounds: d.Rounds, Clock: d.Room, Players: d.Players, Disputes: d.Referees, Rulings: d.Referees, Referees: d.Referees}, d.Once)}
}

// Routes registers the organizer's console under
// /t/:tid/console. Every route needs the organizer's (or the admin's)
// session and every form its CSRF token.
func (h *Handler) Routes(g *echo.Group) {
	g.Use(h.requireOrganizer)
	g.GET("", h.consolePage, h.CachedAnyPage)
	g.GET("/settings", h.settingsPage)
	g.POST("/settings", h.saveSettings)
	g.GET("/players", h.consolePlayersPage, h.CachedAnyPage)
	g.POST("/players", h.addPlayer)
	g.POST("/players/import", h.importPlayers)
	g.POST("/players/:pid/status", h.playerStatus)
	g.GET("/players.csv", h.playersCSV)
	g.GET("/players/:pid", h.playerEditPage)
	g.POST("/players/:pid", h.updatePlayer)
	g.POST("/players/:pid/delete", h.deletePlayer)
	g.POST("/rounds", h.drawRound)
	g.POST("/rounds/:n/close", h.closeRound)
	g.GET("/rounds/:n/room", h.roomPage)
	g.POST("/rounds/:n/clock", h.setClock)
	g.POST("/rounds/:n/ties", h.resolveTie)
	g.GET("/rounds/:n/cards", h.cardsPage, h.CachedAnyPage)
	g.GET("/rounds/:n/sheets", h.SheetsPage, h.CachedAnyPage)
	g.GET("/rounds/:n/tables/:t", h.tableChangePage)
	g.POST("/rounds/:n/tables/:t/withdraw", h.withdrawAtTable)
	g.POST("/rounds/:n/tables/:t/reseat", h.reseatAtTable)
	g.GET("/rounds/:n/tables/:t/games/:g", h.resultPage, h.CachedAnyPage)
	g.POST("/rounds/:n/tables/:t/games/:g", h.submitResult)
	g.POST("/rounds/:n/tables/:t/games/:g/dispute", h.openDispute)
	g.GET("/export.json", h.exportTournament)
	g.POST("/referees", h.issueRefereeToken)
}

// actorKey is the echo context key of the console's actor.
const actorKey = "revisor.web.Actor"

// requireOrganizer admits the tournament's organizer and the admin; others
// are sent to log in.
func (h *Handler) requireOrganizer(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		a, err := h.Actor(c, c.Param("tid"))
		if err != nil {
			return h.Fail(c, err)
		}
		if !a.Organizes() {
			if c.Request().Method == http.MethodGet {
				return c.Redirect(http.StatusSeeOther, "/login?next="+site.QueryEscape(c.Request().URL.RequestURI()))
			}
			return h.Fail(c, tournament.Errorf(tournament.KindUnauthorized, tournament.CodeLoginRequired,
				"log in with the tournament's organizer token first"))
		}
		c.Set(actorKey, a)
		c.Response().Header().Set("Cache-Control", "no-store")
		return next(c)
	}
}

func consoleActor(c echo.Context) tournament.Actor {
	a, _ := c.Get(actorKey).(tournament.Actor)
	return a
}

// fieldError is a 400 about one form field, msg already in the page's
// words (a form's own check).
func fieldError(field, msg string) error {
	return site.SaidAs(tournament.InvalidField(field, "%s", msg), msg)
}

func consoleURL(tid string) string { return "/t/" + site.PathEscape(tid) + "/console" }

// consoleData is the console's data.
type consoleData struct {
	Players []consolePlayer
	Round   *tournament.Round
	Tables  []consoleTable
	Next    int  // the number of the round a draw makes
	CanDraw bool // no round is open and the tournament is not finished
	// FormKey is the Idempotency-Key of the draw and close forms: a form
	// sent twice draws or closes once.
	FormKey string
	Saved   bool
	Error   string
	Field   string // the form field the error concerns
	Form    string // which form the error belongs to
	Ties    []tieView
	Values  map[string]string // the failed form's values, to fill in again
	// Clock is the open round's clock; Unconfirmed its games that wait
	// for their players' confirmations.
	Clock       *clockView
	Unconfirmed []unconfirmedView
	// Disputed counts the open round's tables with an open dispute,
	// Stale those silent for staleMinutes (room.go).
	Disputed, Stale int
	// Trouble counts the open round's tables whose phones hold entries
	// waiting for a decision or refused (table_reports.go).
	Trouble int
	// Preview is a player list read but not yet imported.
	Preview *importPreview
	// Find is a search of the server's register from the players page,
	// Found the entries it matched (at most maxFound).
	Find  string
	Found []registry.Person
	// RefereeToken is a referee token just issued: shown this once.
	RefereeToken, RefereeName string
}

// consolePlayer is one row of the console's player list, with its texts
// looked up once rather than per template call.
type consolePlayer struct {
	ID, Name, Club, Status, StatusText string
	Action, ActionText                 string // the status the button sets, and its label
	PageURL, ActionURL, EditURL        template.URL
}

func consolePlayers(p *site.Page, tid string, ps []tournament.Player) []consolePlayer {
	withdraw, reinstate := p.T("c.withdraw"), p.T("c.reinstate")
	t := "/t/" + site.PathEscape(tid)
	out := make([]consolePlayer, len(ps))
	for i, pl := range ps {
		id := site.PathEscape(pl.ID)
		cp := consolePlayer{ID: pl.ID, Name: pl.Name, Club: pl.Club, Status: string(pl.Status),
			StatusText: p.T("pstatus." + string(pl.Status)),
			PageURL:    template.URL(t + "/players/" + id), ActionURL: template.URL(t + "/console/players/" + id + "/status"),
			EditURL: template.URL(t + "/console/players/" + id)}
		switch pl.Status {
		case tournament.PlayerActive:
			cp.Action, cp.ActionText = string(tournament.PlayerWithdrawn), withdraw
		case tournament.PlayerWithdrawn:
			cp.Action, cp.ActionText = string(tournament.PlayerActive), reinstate
		}
		out[i] = cp
	}
	return out
}

// consoleTable is one table of the open round with its games' state.
// Texts and links are made here once rather than by template calls per
// cell: a round of 50 tables is 150 links.
type consoleTable struct {
	Number    int
	Names     string
	Games     []consoleGame
	ChangeURL template.URL // the table's page: a player withdrawn during a game
	Change    string       // that link's label
}

type consoleGame struct {
	Game  int
	Done  bool
	URL   template.URL // built from path-escaped parts
	ID    string
	Label string
}

// tieView is one tie the organizer must resolve.
type tieView struct {
	Table   int
	Places  int
	Players []tiePlayer
}

type tiePlayer struct{ ID, Name string }

func (h *Handler) consolePage(c echo.Context) error {
	return h.renderConsole(c, http.StatusOK, "console", consoleData{Saved: c.QueryParam("saved") == "1"})
}

// consolePlayersPage lists the players with the forms that register them.
func (h *Handler) consolePlayersPage(c echo.Context) error {
	d := consoleData{Saved: c.QueryParam("saved") == "1", Find: strings.TrimSpace(c.QueryParam("find"))}
	if d.Find != "" {
		found, err := h.Deps().Register.People(c.Request().Context(), d.Find, maxFound)
		if err != nil {
			return h.formError(c, "add", err, nil)
		}
		d.Found = found
	}
	return h.renderConsole(c, http.StatusOK, "console_players", d)
}

// maxFound bounds the register entries a search on the players page lists.
const maxFound = 20

// playerForms are the forms of the players page.
var playerForms = map[string]bool{"add": true, "import": true, "players": true}

// renderConsole renders a console page (name) with d's message over the
// tournament as it is.
func (h *Handler) renderConsole(c echo.Context, status int, name string, d consoleData) error {
	title := "c.title"
	if name == "console_players" {
		title = "c.players"
	}
	p, st, err := h.TournamentPageStart(c, title, "console")
	if err != nil {
		return h.Fail(c, err)
	}
	p.Organizer = true
	d.Players = consolePlayers(p, st.Tournament.ID, st.Players)
	d.Round = site.RoundOf(st, 0)
	d.Next = len(st.Rounds) + 1
	d.CanDraw = st.Tournament.Status != tournament.StatusFinished &&
		(d.Round == nil || d.Round.Status == tournament.RoundClosed)
	d.FormKey = site.NewKey()
	if d.Round != nil {
		d.Tables = consoleTables(p, st, d.Round)
	}
	if d.Round != nil && d.Round.Status == tournament.RoundOpen && name == "console" {
		if err := h.roundWatch(c, p, st, &d); err != nil {
			return h.Fail(c, err)
		}
	}
	if name == "console_players" {
		p.Title = p.T("c.players") + ": " + st.Tournament.Name
	}
	if name == "console" {
		p.Events = site.EventsURL(st.Tournament.ID) // the round's flags (#live) follow the tables
	}
	p.Data = d
	return h.Render(c, status, name, p)
}

func consoleTables(p *site.Page, st *tournament.State, r *tournament.Round) []consoleTable {
	names := site.PlayerIndex(st)
	done := map[[2]int]bool{}
	for _, res := range st.Results {
		if res.Key.Round == r.Number {
			done[[2]int{res.Key.Table, res.Key.Game}] = true
		}
	}
	enter, view := p.T("c.enter"), "✓ "+p.T("c.correct")
	base := consoleURL(st.Tournament.ID) + "/rounds/" + strconv.Itoa(r.Number) + "/tables/"
	out := make([]consoleTable, len(r.Tables))
	for i, t := range r.Tables {
		ct := consoleTable{Number: t.Number, ChangeURL: template.URL(base + strconv.Itoa(t.Number)), Change: p.T("tc.link", t.Number)}
		list := make([]string, len(t.Players))
		for j, pid := range t.Players {
			list[j] = names[pid].Name
		}
		ct.Names = strings.Join(list, ", ")
		for g := 1; g <= st.Tournament.Settings.GamesPerRound; g++ {
			cg := consoleGame{Game: g, Done: done[[2]int{t.Number, g}], Label: enter,
				URL: template.URL(base + strconv.Itoa(t.Number) + "/games/" + strconv.Itoa(g)),
				ID:  "game-" + strconv.Itoa(t.Number) + "-" + strconv.Itoa(g)}
			if cg.Done {
				cg.Label = view
			}
			ct.Games = append(ct.Games, cg)
		}
		out[i] = ct
	}
	return out
}

// formError re-renders the console with err next to the form it concerns,
// or an error page for errors no form can fix.
func (h *Handler) formError(c echo.Context, form string, err error, values map[string]string) error {
	status := statusOfForm(err)
	if status == 0 {
		return h.Fail(c, err)
	}
	d := consoleData{Error: site.ErrorText(h.Language(c), err), Form: form, Values: values}
	var te *tournament.Error
	if errors.As(err, &te) {
		d.Field = te.Field()
		d.Ties = tiesOf(te.Ties())
	}
	name := "console"
	if playerForms[form] {
		name = "console_players"
	}
	return h.renderConsole(c, status, name, d)
}

// tiesOf reads the ties of an unresolved_tie error's details.
func tiesOf(ties []tournament.OpenTie) []tieView {
	var out []tieView
	for _, t := range ties {
		tv := tieView{Table: t.Table, Places: t.Places}
		for _, p := range t.Players {
			tv.Players = append(tv.Players, tiePlayer{ID: p.ID, Name: p.Name})
		}
		out = append(out, tv)
	}
	return out
}

func (h *Handler) saved(c echo.Context, anchor string) error {
	h.Invalidate(c.Param("tid"))
	if anchor == "players" {
		return c.Redirect(http.StatusSeeOther, consoleURL(c.Param("tid"))+"/players?saved=1")
	}
	return c.Redirect(http.StatusSeeOther, consoleURL(c.Param("tid"))+"?saved=1#"+anchor)
}

// addPlayer registers one player (app.AddPlayers) under the form's
// Idempotency-Key, as drawRound draws: the form sent twice registers the
// player once.
func (h *Handler) addPlayer(c echo.Context) error {
	// person is set when the organizer picked the player from the register.
	np := tournament.NewPlayer{Name: c.FormValue("name"), Club: c.FormValue("club"), Person: c.FormValue("person")}
	cmd := app.AddPlayers{Actor: consoleActor(c), Tournament: c.Param("tid"), Players: []tournament.NewPlayer{np}}
	var err error
	if cmd.Key, err = h.formKey(c); err == nil {
		_, err = h.commands.AddPlayers(c.Request().Context(), cmd)
	}
	if err != nil {
		return h.formError(c, "add", err, map[string]string{"name": np.Name, "club": np.Club})
	}
	return h.saved(c, "players")
}

// maxImportBytes bounds an uploaded player list.
const maxImportBytes = 1 << 20

// playerStatus sets a player's status (app.UpdatePlayer) under the
// form's Idempotency-Key: the form sent again late does not set the
// status back over a change made since.
func (h *Handler) playerStatus(c echo.Context) error {
	status := tournament.PlayerStatus(c.FormValue("status"))
	cmd := app.UpdatePlayer{Actor: consoleActor(c), Tournament: c.Param("tid"), Player: c.Param("pid"),
		Update: tournament.PlayerUpdate{Status: &status}}
	var err error
	if cmd.Key, err = h.formKey(c); err == nil {
		_, err = h.commands.UpdatePlayer(c.Request().Context(), cmd)
	}
	if err != nil {
		return h.formError(c, "players", err, nil)
	}
	return h.saved(c, "players")
}

// drawRound draws the next round (app.DrawRound) under the form's
// Idempotency-Key: the form sent again (a double click, a reload that
// posts it again) is answered as the first time and draws once.
func (h *Handler) drawRound(c echo.Context) error {
	cmd := app.DrawRound{Actor: consoleActor(c), Tournament: c.Param("tid")}
	if s := strings.TrimSpace(c.FormValue("seed")); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return h.formError(c, "draw", tournament.InvalidField("seed", "the seed must be a whole number"), map[string]string{"seed": s})
		}
		cmd.Options.Seed = &v
	}
	var err error
	if cmd.Key, err = h.formKey(c); err == nil {
		_, err = h.commands.DrawRound(c.Request().Context(), cmd)
	}
	if err != nil {
		return h.formError(c, "draw", err, nil)
	}
	return h.saved(c, "round")
}

// closeRound closes round n (app.CloseRound) under the form's
// Idempotency-Key, as drawRound draws.
func (h *Handler) closeRound(c echo.Context) error {
	n, err := site.RoundNumber(c)
	if err != nil {
		return h.Fail(c, err)
	}
	// The organizer is asked about every tie that only a lot would break.
	cmd := app.CloseRound{Actor: consoleActor(c), Tournament: c.Param("tid"), Round: n, AskLots: true,
		AcceptUnconfirmed: c.FormValue("accept_unconfirmed") == "1"}
	if cmd.Key, err = h.formKey(c); err == nil {
		_, err = h.commands.CloseRound(c.Request().Context(), cmd)
	}
	if err != nil {
		if tournament.ErrorCode(err) == tournament.CodeUnconfirmedGames {
			// In the organizer's words; the list is on the page.
			text := site.Translate(h.Language(c), "c.unconfirmed.ask")
			err = site.SaidAs(tournament.Errorf(tournament.KindConflict, tournament.CodeUnconfirmedGames, "%s", text), text)
		}
		return h.formError(c, "close", err, nil)
	}
	return h.saved(c, "round")
}

// resolveTie records the organizer's order of tied players
// (app.ResolveTie) under the form's Idempotency-Key: fields place1..placeN
// name the players best first.
func (h *Handler) resolveTie(c echo.Context) error {
	n, err := site.RoundNumber(c)
	if err != nil {
		return h.Fail(c, err)
	}
	var players []string
	for i := 1; i <= 4; i++ {
		if v := c.FormValue("place" + strconv.Itoa(i)); v != "" {
			players = append(players, v)
		}
	}
	cmd := app.ResolveTie{Actor: consoleActor(c), Tournament: c.Param("tid"), Round: n, Players: players,
		Method: c.FormValue("method"), Note: strings.TrimSpace(c.FormValue("note"))}
	if cmd.Key, err = h.formKey(c); err == nil {
		_, err = h.commands.ResolveTie(c.Request().Context(), cmd)
	}
	if err != nil {
		return h.formError(c, "tie", err, nil)
	}
	return h.saved(c, "round")
}

// cardData is the table cards' data.
type cardData struct {
	Round int
	Cards []cardView
}

type cardView struct {
	Table  int
	Seats  []site.SeatView
	Dealer string
	Code   string
	QR     template.HTML // opens the table page, logged in
	// Texts of the card, looked up once for all cards.
	Heading, Sub, DealerLabel, CodeLabel, ScanLabel string
	// Link is the table page's short address (no scheme) in its parts
	// between slashes (a line may break after each), for a phone without
	// a camera; LinkLabel introduces it.
	Link      []string
	LinkLabel string
}

// cardsPage prints one card per table of round n: the table number, the
// players in seat order, the first dealer and the table's code.
func (h *Handler) cardsPage(c echo.Context) error {
	p, st, r, err := h.RoundPageStart(c, "c.cards")
	if err != nil {
		return h.Fail(c, err)
	}
	n := r.Number
	svc := h.Deps().Rounds
	codes, err := svc.TableCodes(c.Request().Context(), consoleActor(c), st.Tournament.ID, n)
	if err != nil {
		return h.Fail(c, err)
	}
	names := site.PlayerIndex(st)
	d := cardData{Round: n}
	sub, dealer, code := st.Tournament.Name+" · "+p.T("p.round", n), p.T("card.dealer"), p.T("card.code")
	for _, tv := range site.RoundTables(st, r, "") {
		cv := cardView{Table: tv.Number, Seats: tv.Seats, Code: codes[tv.Number],
			Heading: p.T("card.table", tv.Number), Sub: sub, DealerLabel: dealer, CodeLabel: code, ScanLabel: p.T("card.scan"),
			Link: strings.Split(shortLink(h.publicBase(c)+site.TableURL(st.Tournament.ID)), "/"), LinkLabel: p.T("card.link")}
		if cv.QR, err = h.QRCode(h.tableLink(c, st.Tournament.ID, cv.Code), p.T("card.qr", tv.Number)); err != nil {
			return h.Fail(c, err)
		}
		t, _ := r.Table(tv.Number)
		cv.Dealer = names[t.FirstDealer].Name
		d.Cards = append(d.Cards, cv)
	}
	p.Title = p.T("card.title", n)
	p.BodyClass = "print"
	p.Data = d
	return h.Render(c, http.StatusOK, "cards", p)
}

// exportTournament downloads the whole tournament as JSON, the file that
// `revisor import` loads into another server.
func (h *Handler) exportTournament(c echo.Context) error {
	ex, err := h.Deps().Transfer.Export(c.Request().Context(), consoleActor(c), c.Param("tid"))
	if err != nil {
		return h.Fail(c, err)
	}
	c.Response().Header().Set(echo.HeaderContentDisposition,
		`attachment; filename="tournament-`+ex.Tournament.ID+`.json"`)
	return c.JSON(http.StatusOK, ex)
}

// issueRefereeToken makes a referee token and shows it on the console: once
// per form key (app.Console), so that the form sent twice shows the one
// token both times; the kept answer is sealed under the session's token
// (site.SealedFormKey), since it carries the secret.
func (h *Handler) issueRefereeToken(c echo.Context) error {
	name := c.FormValue("name")
	cmd := app.IssueRefereeToken{Actor: consoleActor(c), Tournament: c.Param("tid"), Name: name}
	var (
		issued *app.RefereeTokenIssued
		err    error
	)
	if cmd.Key, err = h.SealedFormKey(c, consoleActor(c).String()); err == nil {
		issued, err = h.commands.IssueRefereeToken(c.Request().Context(), cmd)
	}
	if err != nil {
		return h.formError(c, "referee", err, map[string]string{"name": name})
	}
	return h.renderConsole(c, http.StatusCreated, "console", consoleData{RefereeToken: issued.Result.Token, RefereeName: issued.Result.Name})
}

// formKey is a console form's Idempotency-Key (site.FormKey, scoped to the
// session's actor).
func (h *Handler) formKey(c echo.Context) (*app.Key, error) {
	return h.FormKey(c, consoleActor(c).String())
}
