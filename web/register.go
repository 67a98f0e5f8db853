package web

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/registry"
	"github.com/revisor-sm/revisor/web/site"
)

// registerRoutes adds the public pages of the server's register: the
// rating list, each person's history, and the series (seasons) with their
// standings, CSV and big screen.
func (h *Handler) registerRoutes(page func(string, echo.HandlerFunc, ...echo.MiddlewareFunc)) {
	page("/ratings", h.ratingsPage)
	page("/t/:tid/rules", h.rulesPage, h.CachedPage)
	page("/t/:tid/", tournamentSlash)
	page("/people/:pid", h.personPage)
	page("/series/:sid", h.seriesPage)
	page("/series/:sid/screen", h.seriesScreen)
	page("/series/:sid/standings.csv", h.seriesCSV)
}

// ratingRow is one line of the rating list.
type ratingRow struct {
	Rank           int
	ID, Name, Club string
	Rating         string // μ − 3σ, one decimal
	Mu, Sigma      string
	Games          int
	Last           string
}

func (h *Handler) ratingsPage(c echo.Context) error {
	reg := h.Deps().Register
	list, err := reg.Ratings(c.Request().Context())
	if err != nil {
		return h.Fail(c, err)
	}
	p := h.NewPage(c, "rt.title")
	rows := make([]ratingRow, len(list))
	loc := p.Loc()
	for i, r := range list {
		rows[i] = ratingRow{Rank: i + 1, ID: r.Person.ID, Name: r.Person.Name, Club: r.Person.Club,
			Rating: loc.Decimal(r.Rating.Ordinal(), 1), Mu: loc.Decimal(r.Rating.Mu, 1), Sigma: loc.Decimal(r.Rating.Sigma, 1),
			Games: r.Games, Last: loc.Date(r.Last)}
	}
	p.Data = rows
	return h.Render(c, http.StatusOK, "ratings", p)
}

// historyRow is one rated game on a person's page.
type historyRow struct {
	Date, Tournament, TournamentID string
	Round, Table, Game             int
	Place, Players                 int
	Forfeit                        bool
	Before, After, Change          string
}

type personData struct {
	Person  registry.Person
	Rating  string
	Games   int
	History []historyRow
}

func (h *Handler) personPage(c echo.Context) error {
	reg := h.Deps().Register
	person, rated, hist, err := reg.RatingHistory(c.Request().Context(), c.Param("pid"))
	if err != nil {
		return h.Fail(c, err)
	}
	p := h.NewPage(c, "rt.person")
	p.Title = person.Name
	d := personData{Person: person}
	loc := p.Loc()
	if rated != nil {
		d.Rating, d.Games = loc.Decimal(rated.Rating.Ordinal(), 1), rated.Games
	}
	for i := len(hist) - 1; i >= 0; i-- { // newest first
		x := hist[i]
		d.History = append(d.History, historyRow{Date: loc.Date(x.PlayedAt),
			Tournament: x.TournamentName, TournamentID: x.Tournament, Round: x.Round, Table: x.Table, Game: x.Game,
			Place: x.Place, Players: x.Players, Forfeit: x.Forfeit, Before: loc.Decimal(x.Before.Ordinal(), 1),
			After: loc.Decimal(x.After.Ordinal(), 1), Change: loc.Signed(x.After.Ordinal()-x.Before.Ordinal(), 1)})
	}
	p.Data = d
	return h.Render(c, http.StatusOK, "person", p)
}

// seriesRowView is one person's line of a series.
type seriesRowView struct {
	Rank           int
	Shared         bool
	ID, Name, Club string
	Total, GP      int
	Nights         []seriesCell
	Ranked         bool
}

// seriesCell is one night of a person: their points, and whether the rule
// counts it.
type seriesCell struct {
	Played  bool
	Points  int
	Counted bool
}

type seriesData struct {
	Series *registry.Series
	Nights []string // the tournaments' names, in order
	Rows   []seriesRowView
	Screen bool
}

func (h *Handler) seriesData(c echo.Context) (*site.Page, *seriesData, error) {
	reg := h.Deps().Register
	ctx := c.Request().Context()
	sr, rows, err := reg.SeriesStandings(ctx, c.Param("sid"))
	if err != nil {
		return nil, nil, err
	}
	d := &seriesData{Series: sr}
	col := map[string]int{}
	for i, tid := range sr.Tournaments {
		col[tid] = i
		name := tid
		if st, err := h.State(ctx, tid); err == nil {
			name = st.Tournament.Name
		}
		d.Nights = append(d.Nights, name)
	}
	for i, r := range rows {
		v := seriesRowView{Rank: r.Rank, ID: r.Person.ID, Name: r.Person.Name, Club: r.Person.Club, Total: r.Total,
			GP: r.GamePoints, Ranked: r.Ranked, Nights: make([]seriesCell, len(sr.Tournaments))}
		v.Shared = r.Ranked && ((i > 0 && rows[i-1].Rank == r.Rank) || (i+1 < len(rows) && rows[i+1].Rank == r.Rank))
		for _, n := range r.Nights {
			v.Nights[col[n.Tournament]] = seriesCell{Played: true, Points: n.PlacementPoints, Counted: n.Counted}
		}
		d.Rows = append(d.Rows, v)
	}
	p := h.NewPage(c, "ser.title")
	p.Title = sr.Name
	return p, d, nil
}

func (h *Handler) seriesPage(c echo.Context) error {
	p, d, err := h.seriesData(c)
	if err != nil {
		return h.Fail(c, err)
	}
	p.Data = d
	return h.Render(c, http.StatusOK, "series", p)
}

// seriesScreen is the series for a screen across the room: larger type,
// no menu, reloaded every minute.
func (h *Handler) seriesScreen(c echo.Context) error {
	p, d, err := h.seriesData(c)
	if err != nil {
		return h.Fail(c, err)
	}
	d.Screen = true
	p.Data, p.BodyClass, p.Refresh = d, "screen", "60"
	return h.Render(c, http.StatusOK, "series", p)
}

func (h *Handler) seriesCSV(c echo.Context) error {
	_, d, err := h.seriesData(c)
	if err != nil {
		return h.Fail(c, err)
	}
	header := []string{"rank", "person", "name", "club", "total", "game_points"}
	header = append(header, d.Nights...)
	lines := [][]string{header}
	for _, r := range d.Rows {
		rank := ""
		if r.Ranked {
			rank = strconv.Itoa(r.Rank)
		}
		line := []string{rank, r.ID, r.Name, r.Club, strconv.Itoa(r.Total), strconv.Itoa(r.GP)}
		for _, n := range r.Nights {
			cell := ""
			if n.Played {
				cell = strconv.Itoa(n.Points)
			}
			line = append(line, cell)
		}
		lines = append(lines, line)
	}
	return httpx.WriteCSV(c, "series-"+d.Series.ID+".csv", lines)
}

// tournamentSlash sends /t/{tid}/ (a link typed or pasted with its slash)
// to the tournament's page, which answered 404 before.
func tournamentSlash(c echo.Context) error {
	return c.Redirect(http.StatusMovedPermanently, "/t/"+site.PathEscape(c.Param("tid")))
}

// rulesPage is the printable one-page sheet of a tournament's rules
// (/t/{tid}/rules), for the tables and the notice board.
func (h *Handler) rulesPage(c echo.Context) error {
	p, st, err := h.TournamentPageStart(c, "rs.title", "")
	if err != nil {
		return h.Fail(c, err)
	}
	d := site.RulesData{Bridge: st.Tournament.Format == tournament.FormatBridge}
	if !d.Bridge {
		r := site.TournamentRules(&st.Tournament)
		d.Profile, d.Lines = site.RulesSummary(p, r), site.RulesLines(p, r)
	}
	p.Data = d
	return h.Render(c, http.StatusOK, "rules", p)
}
