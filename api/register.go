package api

import (
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/registry"
)

// registerRoutes registers the server's register of people, the series
// (seasons) and the ratings: the admin changes them, everyone reads them.
func (s *Server) registerRoutes(g *echo.Group) {
	admin, public := s.require(tournament.RoleAdmin), s.require(tournament.RolePublic)
	g.GET("/people", s.listPeople, public)
	g.POST("/people", s.addPerson, admin)
	g.GET("/people/:pid", s.getPerson, public)
	g.POST("/people/:pid/merge", s.mergePerson, admin)
	g.GET("/register/log", s.registerLog, admin)
	g.GET("/ratings", s.listRatings, public)
	g.POST("/series", s.createSeries, admin)
	g.GET("/series", s.listSeries, public)
	g.GET("/series/:sid", s.getSeries, public)
	g.POST("/series/:sid/tournaments", s.addSeriesTournament, admin)
	g.GET("/series/:sid/standings", s.getSeriesStandings, public)
}

// personJSON is an entry of the register. The membership number is shown
// to the admin only.
type personJSON struct {
	ID         string    `json:"id"`
	Name       string    `json:"name"`
	Club       string    `json:"club"`
	Membership string    `json:"membership,omitempty"`
	MergedInto string    `json:"merged_into,omitempty"`
	CreatedAt  time.Time `json:"created_at"`
}

func toPerson(p registry.Person, admin bool) personJSON {
	out := personJSON{ID: p.ID, Name: p.Name, Club: p.Club, MergedInto: p.MergedInto, CreatedAt: p.CreatedAt}
	if admin {
		out.Membership = p.Membership
	}
	return out
}

func isAdmin(c echo.Context) bool { return PrincipalOf(c).Role == tournament.RoleAdmin }

func (s *Server) listPeople(c echo.Context) error {
	reg := s.deps.Register
	limit, err := optionalIntParam(c, "limit", 1, 500)
	if err != nil {
		return err
	}
	people, err := reg.People(c.Request().Context(), c.QueryParam("q"), limit)
	if err != nil {
		return err
	}
	out := make([]personJSON, len(people))
	for i, p := range people {
		out[i] = toPerson(p, isAdmin(c))
	}
	return c.JSON(http.StatusOK, map[string]any{"people": out})
}

// optionalIntParam reads a whole-number query parameter between lo and hi;
// 0 when it is absent.
func optionalIntParam(c echo.Context, name string, lo, hi int) (int, error) {
	v := c.QueryParam(name)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, tournament.Errorf(tournament.KindInvalid, tournament.CodeInvalidParameter,
			"%s must be a whole number from %d to %d", name, lo, hi)
	}
	return n, nil
}

type personRequest struct {
	Name       string `json:"name"`
	Club       string `json:"club"`
	Membership string `json:"membership"`
}

func (s *Server) addPerson(c echo.Context) error {
	reg := s.deps.Register
	var req personRequest
	if err := httpx.DecodeJSON(c, &req); err != nil {
		return err
	}
	p, err := reg.AddPerson(c.Request().Context(), actorOf(c),
		registry.NewPerson{Name: req.Name, Club: req.Club, Membership: req.Membership})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, toPerson(p, true))
}

// ratingJSON is a rating: the mean, the uncertainty and the rating shown
// (mu − 3·sigma).
type ratingJSON struct {
	Mu      float64 `json:"mu"`
	Sigma   float64 `json:"sigma"`
	Ordinal float64 `json:"rating"`
}

type ratedJSON struct {
	Rank   int        `json:"rank"`
	Person personJSON `json:"person"`
	ratingJSON
	Games int       `json:"games"`
	Last  time.Time `json:"last_played"`
}

type ratingChangeJSON struct {
	Tournament     string     `json:"tournament"`
	TournamentName string     `json:"tournament_name"`
	Round          int        `json:"round"`
	Table          int        `json:"table"`
	Game           int        `json:"game"`
	PlayedAt       time.Time  `json:"played_at"`
	Place          int        `json:"place"`
	Players        int        `json:"players"`
	Forfeit        bool       `json:"forfeit,omitempty"`
	Before         ratingJSON `json:"before"`
	After          ratingJSON `json:"after"`
}

func toRating(mu, sigma, ord float64) ratingJSON {
	return ratingJSON{Mu: round3(mu), Sigma: round3(sigma), Ordinal: round3(ord)}
}

// round3 keeps three decimals: enough for a list, and stable to read.
func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

func (s *Server) getPerson(c echo.Context) error {
	reg := s.deps.Register
	p, rated, hist, err := reg.RatingHistory(c.Request().Context(), c.Param("pid"))
	if err != nil {
		return err
	}
	out := map[string]any{"person": toPerson(p, isAdmin(c)), "history": []ratingChangeJSON{}}
	if rated != nil {
		out["rating"] = toRating(rated.Rating.Mu, rated.Rating.Sigma, rated.Rating.Ordinal())
		out["games"] = rated.Games
	}
	h := make([]ratingChangeJSON, len(hist))
	for i, x := range hist {
		h[i] = ratingChangeJSON{Tournament: x.Tournament, TournamentName: x.TournamentName, Round: x.Round,
			Table: x.Table, Game: x.Game, PlayedAt: x.PlayedAt, Place: x.Place, Players: x.Players, Forfeit: x.Forfeit,
			Before: toRating(x.Before.Mu, x.Before.Sigma, x.Before.Ordinal()),
			After:  toRating(x.After.Mu, x.After.Sigma, x.After.Ordinal())}
	}
	out["history"] = h
	return c.JSON(http.StatusOK, out)
}

type mergeRequest struct {
	Into   string `json:"into"`
	Reason string `json:"reason"`
}

func (s *Server) mergePerson(c echo.Context) error {
	reg := s.deps.Register
	var req mergeRequest
	if err := httpx.DecodeJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	if err := reg.Merge(ctx, actorOf(c), c.Param("pid"), req.Into, req.Reason); err != nil {
		return err
	}
	p, err := reg.Person(ctx, c.Param("pid"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toPerson(p, true))
}

type registerChangeJSON struct {
	ID     int64     `json:"id"`
	At     time.Time `json:"at"`
	Actor  string    `json:"actor"`
	Action string    `json:"action"`
	Person string    `json:"person,omitempty"`
	Other  string    `json:"other,omitempty"`
	Series string    `json:"series,omitempty"`
	Reason string    `json:"reason,omitempty"`
}

func (s *Server) registerLog(c echo.Context) error {
	reg := s.deps.Register
	log, err := reg.Log(c.Request().Context(), c.QueryParam("person"))
	if err != nil {
		return err
	}
	out := make([]registerChangeJSON, len(log))
	for i, x := range log {
		out[i] = registerChangeJSON{ID: x.ID, At: x.At, Actor: x.Actor, Action: x.Action, Person: x.Person,
			Other: x.Other, Series: x.Series, Reason: x.Reason}
	}
	return c.JSON(http.StatusOK, map[string]any{"entries": out})
}

func (s *Server) listRatings(c echo.Context) error {
	reg := s.deps.Register
	list, err := reg.Ratings(c.Request().Context())
	if err != nil {
		return err
	}
	out := make([]ratedJSON, len(list))
	for i, r := range list {
		out[i] = ratedJSON{Rank: i + 1, Person: toPerson(r.Person, false),
			ratingJSON: toRating(r.Rating.Mu, r.Rating.Sigma, r.Rating.Ordinal()), Games: r.Games, Last: r.Last}
	}
	return c.JSON(http.StatusOK, map[string]any{"ratings": out})
}

type seriesRequest struct {
	Name        string   `json:"name"`
	BestOf      int      `json:"best_of"`
	MinNights   int      `json:"min_nights"`
	Tournaments []string `json:"tournaments"`
}

type seriesJSON struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	BestOf      int       `json:"best_of"`
	MinNights   int       `json:"min_nights"`
	Tournaments []string  `json:"tournaments"`
	CreatedAt   time.Time `json:"created_at"`
}

func toSeries(sr *registry.Series) seriesJSON {
	ts := sr.Tournaments
	if ts == nil {
		ts = []string{}
	}
	return seriesJSON{ID: sr.ID, Name: sr.Name, BestOf: sr.Rule.BestOf, MinNights: sr.Rule.MinNights,
		Tournaments: ts, CreatedAt: sr.CreatedAt}
}

func (s *Server) createSeries(c echo.Context) error {
	reg := s.deps.Register
	var req seriesRequest
	if err := httpx.DecodeJSON(c, &req); err != nil {
		return err
	}
	sr, err := reg.CreateSeries(c.Request().Context(), actorOf(c), registry.NewSeries{Name: req.Name,
		Rule: registry.SeriesRule{BestOf: req.BestOf, MinNights: req.MinNights}, Tournaments: req.Tournaments})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, toSeries(sr))
}

func (s *Server) listSeries(c echo.Context) error {
	reg := s.deps.Register
	list, err := reg.ListSeries(c.Request().Context())
	if err != nil {
		return err
	}
	out := make([]seriesJSON, len(list))
	for i := range list {
		out[i] = toSeries(&list[i])
	}
	return c.JSON(http.StatusOK, map[string]any{"series": out})
}

func (s *Server) getSeries(c echo.Context) error {
	reg := s.deps.Register
	sr, err := reg.Series(c.Request().Context(), c.Param("sid"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toSeries(sr))
}

func (s *Server) addSeriesTournament(c echo.Context) error {
	reg := s.deps.Register
	var req struct {
		Tournament string `json:"tournament"`
	}
	if err := httpx.DecodeJSON(c, &req); err != nil {
		return err
	}
	sr, err := reg.AddToSeries(c.Request().Context(), actorOf(c), c.Param("sid"), req.Tournament)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toSeries(sr))
}

type seriesNightJSON struct {
	Tournament      string `json:"tournament"`
	PlacementPoints int    `json:"placement_points"`
	GamePoints      int    `json:"game_points"`
	Counted         bool   `json:"counted"`
}

type seriesRowJSON struct {
	Rank       int               `json:"rank"`
	Person     personJSON        `json:"person"`
	Total      int               `json:"total"`
	GamePoints int               `json:"game_points"`
	Nights     []seriesNightJSON `json:"nights"`
	Ranked     bool              `json:"ranked"`
}

func (s *Server) getSeriesStandings(c echo.Context) error {
	reg := s.deps.Register
	sr, rows, err := reg.SeriesStandings(c.Request().Context(), c.Param("sid"))
	if err != nil {
		return err
	}
	out := make([]seriesRowJSON, len(rows))
	for i, r := range rows {
		nights := make([]seriesNightJSON, len(r.Nights))
		for j, n := range r.Nights {
			nights[j] = seriesNightJSON{Tournament: n.Tournament, PlacementPoints: n.PlacementPoints,
				GamePoints: n.GamePoints, Counted: n.Counted}
		}
		out[i] = seriesRowJSON{Rank: r.Rank, Person: toPerson(r.Person, false), Total: r.Total,
			GamePoints: r.GamePoints, Nights: nights, Ranked: r.Ranked}
	}
	if wantsCSV(c) {
		return writeSeriesCSV(c, out)
	}
	return c.JSON(http.StatusOK, map[string]any{"series": toSeries(sr), "rows": out})
}

func writeSeriesCSV(c echo.Context, rows []seriesRowJSON) error {
	lines := [][]string{{"rank", "person", "name", "club", "total", "game_points", "nights", "ranked"}}
	for _, r := range rows {
		rank := ""
		if r.Ranked {
			rank = strconv.Itoa(r.Rank)
		}
		lines = append(lines, []string{rank, r.Person.ID, r.Person.Name, r.Person.Club, strconv.Itoa(r.Total),
			strconv.Itoa(r.GamePoints), strconv.Itoa(len(r.Nights)), strconv.FormatBool(r.Ranked)})
	}
	return httpx.WriteCSV(c, "series.csv", lines)
}
