package web

import (
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/tournament"
)

// home is the start page: the server's public tournaments, current
// first; open one by its ID; or log in.
func (h *Handler) home(c echo.Context) error {
	if id := strings.TrimSpace(c.QueryParam("id")); id != "" {
		return c.Redirect(http.StatusSeeOther, "/t/"+urlPathEscape(id))
	}
	p := h.newPage(c, "home.title")
	list, err := h.tournamentList(c, p, tournament.Actor{Role: tournament.RolePublic}, "/")
	if err != nil {
		return h.fail(c, err)
	}
	p.Data = list
	return h.render(c, http.StatusOK, "home", p)
}

// switchLanguage stores the chosen language in a cookie and goes back.
func (h *Handler) switchLanguage(c echo.Context) error {
	l := c.Param("lang")
	if !supported(l) {
		return h.fail(c, tournament.Errorf(tournament.KindNotFound, tournament.CodeLanguageNotFound, "no language %q", l))
	}
	c.SetCookie(h.cookie(c, langCookie, l, "/", 365*24*3600, http.SameSiteLaxMode))
	return c.Redirect(http.StatusSeeOther, localPath(c.QueryParam("next")))
}

// localPath returns next when it is a clean path on this site, else "/",
// so that neither the language switch nor the login can send visitors
// elsewhere. Clean: valid UTF-8 without control characters, spaces or
// backslashes (browsers drop tabs and newlines and read "\" as "/", so
// "/\t/evil.example" would become "//evil.example"), starting with one
// "/", and naming neither scheme nor host once parsed.
func localPath(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || !utf8.ValidString(next) ||
		strings.IndexFunc(next, func(r rune) bool { return r < 0x21 || r == 0x7f || r == '\\' || unicode.IsSpace(r) }) >= 0 {
		return "/"
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || !strings.HasPrefix(u.Path, "/") ||
		strings.HasPrefix(u.Path, "//") {
		return "/"
	}
	// Dot segments are resolved, so that a check of the path's prefix
	// (a tournament's pages, login.go) holds for the page it leads to:
	// /t/a/../../admin is /admin.
	clean := path.Clean(u.Path)
	if strings.HasSuffix(u.Path, "/") && clean != "/" {
		clean += "/"
	}
	u.Path, u.RawPath = clean, ""
	if u.Fragment != "" {
		return u.RequestURI() + "#" + u.EscapedFragment()
	}
	return u.RequestURI()
}

// tournamentPage shows a tournament's status and links.
type tournamentData struct {
	Players, Active int
	Round           *tournament.Round
	Champion        string
}

func (h *Handler) tournamentPage(c echo.Context) error {
	p, st, err := h.tournamentPageStart(c, "nav.tournament", "tournament")
	if err != nil {
		return h.fail(c, err)
	}
	d := tournamentData{Players: len(st.Players), Round: roundOf(st, 0)}
	for _, pl := range st.Players {
		if pl.Status == tournament.PlayerActive {
			d.Active++
		}
		if pl.ID == st.Tournament.Champion {
			d.Champion = pl.Name
		}
	}
	p.Title = st.Tournament.Name
	p.Events = livePageEvents(st.Tournament.ID)
	p.Data = d
	return h.render(c, http.StatusOK, "tournament", p)
}

// tournamentPageStart loads the snapshot and starts a page of the
// tournament's menu.
func (h *Handler) tournamentPageStart(c echo.Context, title, nav string) (*page, *tournament.State, error) {
	st, err := h.pageState(c)
	if err != nil {
		return nil, nil, err
	}
	p := h.newPage(c, title)
	p.Tournament, p.Nav = &st.Tournament, nav
	return p, st, nil
}

// roundPageStart is tournamentPageStart for a page of round {n} of the
// path, which must have been drawn.
func (h *Handler) roundPageStart(c echo.Context, title string) (*page, *tournament.State, *tournament.Round, error) {
	p, st, err := h.tournamentPageStart(c, title, "")
	if err != nil {
		return nil, nil, nil, err
	}
	n, err := strconv.Atoi(c.Param("n"))
	r := roundOf(st, n)
	if err != nil || n < 1 || r == nil {
		return nil, nil, nil, tournament.RoundParamNotFound(c.Param("n"))
	}
	return p, st, r, nil
}

// eventsURL is the event stream of the room's page, which hears every
// change; livePageEvents that of a public page (live.go).
func eventsURL(tid string) string { return "/t/" + urlPathEscape(tid) + "/events" }

func livePageEvents(tid string) string { return eventsURL(tid) + "?for=pages" }

func (h *Handler) standingsPage(c echo.Context) error {
	p, st, err := h.tournamentPageStart(c, "s.title", "standings")
	if err != nil {
		return h.fail(c, err)
	}
	p.Events = livePageEvents(st.Tournament.ID)
	p.Data = h.standingsOf(p, st)
	return h.render(c, http.StatusOK, "standings", p)
}

// seatingData is the seating page's data.
type seatingData struct {
	Round  *tournament.Round
	Rounds []int
	Tables []tableView
	Query  string
	Found  bool
	Games  int
}

func (h *Handler) seatingPage(c echo.Context) error {
	p, st, err := h.tournamentPageStart(c, "nav.seating", "seating")
	if err != nil {
		return h.fail(c, err)
	}
	n := 0
	if s := c.QueryParam("round"); s != "" {
		if n, err = strconv.Atoi(s); err != nil || roundOf(st, n) == nil {
			return h.fail(c, tournament.RoundParamNotFound(s))
		}
	}
	d := seatingData{Round: roundOf(st, n), Query: strings.TrimSpace(c.QueryParam("q")),
		Games: st.Tournament.Settings.GamesPerRound}
	for i := range st.Rounds {
		d.Rounds = append(d.Rounds, i+1)
	}
	if d.Round != nil {
		d.Tables = roundTables(st, d.Round, foldName(d.Query))
		p.Title = p.T("seat.title", d.Round.Number)
		for _, t := range d.Tables {
			d.Found = d.Found || t.Match
		}
	}
	p.Events = livePageEvents(st.Tournament.ID)
	p.Data = d
	return h.render(c, http.StatusOK, "seating", p)
}

// playerData is a player's page's data.
type playerData struct {
	Player tournament.Player
	Row    standingRow
	SM     bool
	Bridge bool   // the points are bridge matches' score differences
	Order  string // what ranks the standings
	Rounds []playerRound
}

func (h *Handler) playerPage(c echo.Context) error {
	p, st, err := h.tournamentPageStart(c, "p.title", "")
	if err != nil {
		return h.fail(c, err)
	}
	pid := c.Param("pid")
	sv := h.standingsOf(p, st)
	d := playerData{SM: sv.SM, Bridge: sv.Bridge, Order: sv.Order}
	for _, r := range sv.Rows {
		if r.ID == pid {
			d.Row = r
		}
	}
	pl, ok := playerIndex(st)[pid]
	if !ok {
		return h.fail(c, tournament.Errorf(tournament.KindNotFound, tournament.CodePlayerNotFound, "player %q not found", pid))
	}
	d.Player, d.Rounds = pl, playerRounds(st, pid)
	p.Title = pl.Name
	p.Events = livePageEvents(st.Tournament.ID)
	p.Data = d
	return h.render(c, http.StatusOK, "player", p)
}

// standingsCSV downloads the standings as CSV.
func (h *Handler) standingsCSV(c echo.Context) error {
	st, err := h.state(c.Request().Context(), c.Param("tid"))
	if err != nil {
		return h.fail(c, err)
	}
	names := playerIndex(st)
	return httpx.WriteCSV(c, "standings-"+st.Tournament.ID+".csv",
		standingsCSV(tournament.Standings(st), func(id string) string { return names[id].Name }))
}
