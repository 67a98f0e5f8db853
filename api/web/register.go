package web

import (
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/tournament"
)

// registerRoutes adds the public pages of the server's register: the
// rating list, each person's history, and the series (seasons) with their
// standings, CSV and big screen.
func (h *Handler) registerRoutes(page func(string, echo.HandlerFunc, ...echo.MiddlewareFunc)) {
	page("/ratings", h.ratingsPage)
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

func fmt1(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }

func (h *Handler) ratingsPage(c echo.Context) error {
	reg := h.deps.Register
	list, err := reg.Ratings(c.Request().Context())
	if err != nil {
		return h.fail(c, err)
	}
	p := h.newPage(c, "rt.title")
	rows := make([]ratingRow, len(list))
	for i, r := range list {
		rows[i] = ratingRow{Rank: i + 1, ID: r.Person.ID, Name: r.Person.Name, Club: r.Person.Club,
			Rating: fmt1(r.Rating.Ordinal()), Mu: fmt1(r.Rating.Mu), Sigma: fmt1(r.Rating.Sigma), Games: r.Games,
			Last: r.Last.In(stockholm).Format("2006-01-02")}
	}
	p.Data = rows
	return h.render(c, http.StatusOK, "ratings", p)
}

// stockholm is where Chicago is played; dates on the register's pages are
// shown in its time.
var stockholm = func() *time.Location {
	if l, err := time.LoadLocation("Europe/Stockholm"); err == nil {
		return l
	}
	return time.UTC
}()

// historyRow is one rated game on a person's page.
type historyRow struct {
	Date, Tournament, TournamentID string
	Round, Table, Game             int
	Place, Players                 int
	Forfeit                        bool
	Before, After, Change          string
}

type personData struct {
	Person  tournament.Person
	Rating  string
	Games   int
	History []historyRow
}

func (h *Handler) personPage(c echo.Context) error {
	reg := h.deps.Register
	person, rated, hist, err := reg.RatingHistory(c.Request().Context(), c.Param("pid"))
	if err != nil {
		return h.fail(c, err)
	}
	p := h.newPage(c, "rt.person")
	p.Title = person.Name
	d := personData{Person: person}
	if rated != nil {
		d.Rating, d.Games = fmt1(rated.Rating.Ordinal()), rated.Games
	}
	for i := len(hist) - 1; i >= 0; i-- { // newest first
		x := hist[i]
		change := x.After.Ordinal() - x.Before.Ordinal()
		sign := ""
		if change >= 0 {
			sign = "+"
		}
		d.History = append(d.History, historyRow{Date: x.PlayedAt.In(stockholm).Format("2006-01-02"),
			Tournament: x.TournamentName, TournamentID: x.Tournament, Round: x.Round, Table: x.Table, Game: x.Game,
			Place: x.Place, Players: x.Players, Forfeit: x.Forfeit, Before: fmt1(x.Before.Ordinal()),
			After: fmt1(x.After.Ordinal()), Change: sign + fmt1(change)})
	}
	p.Data = d
	return h.render(c, http.StatusOK, "person", p)
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
	Series *tournament.Series
	Nights []string // the tournaments' names, in order
	Rows   []seriesRowView
	Screen bool
}

func (h *Handler) seriesData(c echo.Context) (*page, *seriesData, error) {
	reg := h.deps.Register
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
		if st, err := h.state(ctx, tid); err == nil {
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
	p := h.newPage(c, "ser.title")
	p.Title = sr.Name
	return p, d, nil
}

func (h *Handler) seriesPage(c echo.Context) error {
	p, d, err := h.seriesData(c)
	if err != nil {
		return h.fail(c, err)
	}
	p.Data = d
	return h.render(c, http.StatusOK, "series", p)
}

// seriesScreen is the series for a screen across the room: larger type,
// no menu, reloaded every minute.
func (h *Handler) seriesScreen(c echo.Context) error {
	p, d, err := h.seriesData(c)
	if err != nil {
		return h.fail(c, err)
	}
	d.Screen = true
	p.Data, p.BodyClass, p.Refresh = d, "screen", "60"
	return h.render(c, http.StatusOK, "series", p)
}

func (h *Handler) seriesCSV(c echo.Context) error {
	_, d, err := h.seriesData(c)
	if err != nil {
		return h.fail(c, err)
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
