package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/web/site"
)

// home is the start page: the server's public tournaments, current
// first; open one by its ID; or log in.
func (h *Handler) home(c echo.Context) error {
	if id := strings.TrimSpace(c.QueryParam("id")); id != "" {
		return c.Redirect(http.StatusSeeOther, "/t/"+site.PathEscape(id))
	}
	p := h.NewPage(c, "home.title")
	list, err := h.tournamentList(c, p, tournament.Actor{Role: tournament.RolePublic}, "/")
	if err != nil {
		return h.Fail(c, err)
	}
	p.Data = list
	return h.Render(c, http.StatusOK, "home", p)
}

// switchLanguage stores the chosen language in a cookie and goes back.
func (h *Handler) switchLanguage(c echo.Context) error {
	l := c.Param("lang")
	if !site.Supported(l) {
		return h.Fail(c, tournament.Errorf(tournament.KindNotFound, tournament.CodeLanguageNotFound, "no language %q", l))
	}
	c.SetCookie(h.Cookie(c, site.LangCookie, l, "/", 365*24*3600, http.SameSiteLaxMode))
	return c.Redirect(http.StatusSeeOther, site.LocalPath(c.QueryParam("next")))
}

// tournamentPage shows a tournament's status and links.
type tournamentData struct {
	Players, Active int
	Round           *tournament.Round
	Champion        string
}

func (h *Handler) tournamentPage(c echo.Context) error {
	p, st, err := h.TournamentPageStart(c, "nav.tournament", "tournament")
	if err != nil {
		return h.Fail(c, err)
	}
	d := tournamentData{Players: len(st.Players), Round: site.RoundOf(st, 0)}
	for _, pl := range st.Players {
		if pl.Status == tournament.PlayerActive {
			d.Active++
		}
		if pl.ID == st.Tournament.Champion {
			d.Champion = pl.Name
		}
	}
	p.Title = st.Tournament.Name
	p.Events = site.LivePageEvents(st.Tournament.ID)
	p.Data = d
	return h.Render(c, http.StatusOK, "tournament", p)
}

func (h *Handler) standingsPage(c echo.Context) error {
	p, st, err := h.TournamentPageStart(c, "s.title", "standings")
	if err != nil {
		return h.Fail(c, err)
	}
	p.Events = site.LivePageEvents(st.Tournament.ID)
	p.Data = h.StandingsOf(p, st)
	return h.Render(c, http.StatusOK, "standings", p)
}

// seatingData is the seating page's data.
type seatingData struct {
	Round  *tournament.Round
	Rounds []int
	Tables []site.TableView
	Query  string
	Found  bool
	Games  int
}

func (h *Handler) seatingPage(c echo.Context) error {
	p, st, err := h.TournamentPageStart(c, "nav.seating", "seating")
	if err != nil {
		return h.Fail(c, err)
	}
	n := 0
	if s := c.QueryParam("round"); s != "" {
		if n, err = strconv.Atoi(s); err != nil || site.RoundOf(st, n) == nil {
			return h.Fail(c, tournament.RoundParamNotFound(s))
		}
	}
	d := seatingData{Round: site.RoundOf(st, n), Query: strings.TrimSpace(c.QueryParam("q")),
		Games: st.Tournament.Settings.GamesPerRound}
	for i := range st.Rounds {
		d.Rounds = append(d.Rounds, i+1)
	}
	if d.Round != nil {
		d.Tables = site.RoundTables(st, d.Round, site.FoldName(d.Query))
		p.Title = p.T("seat.title", d.Round.Number)
		for _, t := range d.Tables {
			d.Found = d.Found || t.Match
		}
	}
	p.Events = site.LivePageEvents(st.Tournament.ID)
	p.Data = d
	return h.Render(c, http.StatusOK, "seating", p)
}

// playerData is a player's page's data.
type playerData struct {
	Player tournament.Player
	Row    site.StandingRow
	SM     bool
	Bridge bool   // the points are bridge matches' score differences
	Order  string // what ranks the standings
	Rounds []site.PlayerRound
}

func (h *Handler) playerPage(c echo.Context) error {
	p, st, err := h.TournamentPageStart(c, "p.title", "")
	if err != nil {
		return h.Fail(c, err)
	}
	pid := c.Param("pid")
	sv := h.StandingsOf(p, st)
	d := playerData{SM: sv.SM, Bridge: sv.Bridge, Order: sv.Order}
	for _, r := range sv.Rows {
		if r.ID == pid {
			d.Row = r
		}
	}
	pl, ok := site.PlayerIndex(st)[pid]
	if !ok {
		return h.Fail(c, tournament.Errorf(tournament.KindNotFound, tournament.CodePlayerNotFound, "player %q not found", pid))
	}
	d.Player, d.Rounds = pl, site.PlayerRounds(st, pid)
	p.Title = pl.Name
	p.Events = site.LivePageEvents(st.Tournament.ID)
	p.Data = d
	return h.Render(c, http.StatusOK, "player", p)
}

// standingsCSV downloads the standings as CSV.
func (h *Handler) standingsCSV(c echo.Context) error {
	st, err := h.State(c.Request().Context(), c.Param("tid"))
	if err != nil {
		return h.Fail(c, err)
	}
	names := site.PlayerIndex(st)
	return httpx.WriteCSV(c, "standings-"+st.Tournament.ID+".csv",
		site.StandingsCSV(tournament.Standings(st), func(id string) string { return names[id].Name }))
}
