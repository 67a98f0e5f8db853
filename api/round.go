package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/tournament"
)

// roundRoutes registers the rounds of a tournament: drawing, reading,
// table codes, closing and tie resolutions.
func (s *Server) roundRoutes(g *echo.Group) {
	org := s.require(tournament.RoleOrganizer, tournament.RoleAdmin)
	g.POST("/tournaments/:tid/rounds", s.drawRound, org)
	g.GET("/tournaments/:tid/rounds", s.listRounds, s.require(tournament.RolePublic))
	g.GET("/tournaments/:tid/rounds/:n", s.getRound, s.require(tournament.RolePublic))
	g.GET("/tournaments/:tid/rounds/:n/codes", s.roundCodes, org)
	g.POST("/tournaments/:tid/rounds/:n/close", s.closeRound, org)
	g.POST("/tournaments/:tid/rounds/:n/ties", s.resolveTie, org)
}

// tableJSON is a table of a round. Code is shown only to the organizer.
type tableJSON struct {
	Number      int      `json:"number"`
	Players     []string `json:"players"`
	Seats       []int    `json:"seats"`
	FirstDealer string   `json:"first_dealer"`
	Code        string   `json:"code,omitempty"`
}

// roundJSON is a round as the API shows it.
type roundJSON struct {
	Number    int           `json:"number"`
	Seed      int64         `json:"seed"`
	Final     bool          `json:"final"`
	Status    string        `json:"status"`
	CreatedAt time.Time     `json:"created_at"`
	ClosedAt  *time.Time    `json:"closed_at,omitempty"`
	Tables    []tableJSON   `json:"tables"`
	Results   []resultJSON  `json:"results,omitempty"`
	Outcomes  []outcomeJSON `json:"outcomes,omitempty"`
}

func toRound(r *tournament.Round, codes map[int]string) roundJSON {
	out := roundJSON{Number: r.Number, Seed: r.Seed, Final: r.Final, Status: string(r.Status),
		CreatedAt: r.CreatedAt, ClosedAt: r.ClosedAt, Tables: make([]tableJSON, len(r.Tables))}
	for i, t := range r.Tables {
		out.Tables[i] = tableJSON{Number: t.Number, Players: t.Players, Seats: t.SeatNumbers(), FirstDealer: t.FirstDealer,
			Code: codes[t.Number]}
	}
	return out
}

// drawRequest is the optional body of POST …/rounds.
type drawRequest struct {
	Seed        *int64         `json:"seed"`
	FixedTables map[string]int `json:"fixed_tables"`
	KeepApart   [][]string     `json:"keep_apart"`
	ClubsApart  bool           `json:"clubs_apart"`
	SeedBy      string         `json:"seed_by"`
}

func (s *Server) drawRound(c echo.Context) error {
	var req drawRequest
	if c.Request().ContentLength != 0 {
		if err := httpx.DecodeJSON(c, &req); err != nil {
			return err
		}
	}
	a := actorOf(c)
	opts := tournament.DrawOptions{Seed: req.Seed, FixedTables: req.FixedTables, KeepApart: req.KeepApart, ClubsApart: req.ClubsApart}
	switch req.SeedBy {
	case "":
	case "rating":
		var err error
		if opts, err = s.deps.Register.SeedByRating(c.Request().Context(), c.Param("tid"), opts); err != nil {
			return err
		}
	default:
		return tournament.InvalidField("seed_by", "seed_by must be \"rating\" or left out, not %q", req.SeedBy)
	}
	d, err := s.console.DrawRound(c.Request().Context(), app.DrawRound{Actor: a, Tournament: c.Param("tid"), Options: opts})
	if err != nil {
		return err
	}
	return s.drawn(c, a, d.Drawn)
}

// drawn answers a round just drawn (or revealed, which draws it) with its
// tables and their codes, which no cache may keep.
func (s *Server) drawn(c echo.Context, a tournament.Actor, r *tournament.Round) error {
	codes, err := s.deps.Rounds.TableCodes(c.Request().Context(), a, c.Param("tid"), r.Number)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, toRound(r, codes))
}

// roundsJSON lists a tournament's rounds.
type roundsJSON struct {
	Rounds []roundJSON `json:"rounds"`
}

func (s *Server) listRounds(c echo.Context) error {
	svc := s.deps.Rounds
	rs, err := svc.Rounds(c.Request().Context(), c.Param("tid"))
	if err != nil {
		return err
	}
	out := roundsJSON{Rounds: make([]roundJSON, len(rs))}
	for i := range rs {
		out.Rounds[i] = toRound(&rs[i], nil)
	}
	return c.JSON(http.StatusOK, out)
}

func (s *Server) getRound(c echo.Context) error {
	_, v, err := readRound(c, s.deps.Rounds.Round)
	if err != nil {
		return err
	}
	out := toRound(v.Round, nil)
	out.Results = make([]resultJSON, len(v.Results))
	for i := range v.Results {
		out.Results[i] = toResult(&v.Results[i], false, false)
	}
	for _, o := range v.Outcomes {
		out.Outcomes = append(out.Outcomes, toOutcome(o))
	}
	return c.JSON(http.StatusOK, out)
}

// codesJSON lists the table codes of a round.
type codesJSON struct {
	Round  int         `json:"round"`
	Tables []tableJSON `json:"tables"`
}

func (s *Server) roundCodes(c echo.Context) error {
	svc := s.deps.Rounds
	n, err := roundParam(c)
	if err != nil {
		return err
	}
	ctx, a, tid := c.Request().Context(), actorOf(c), c.Param("tid")
	codes, err := svc.TableCodes(ctx, a, tid, n)
	if err != nil {
		return err
	}
	v, err := svc.Round(ctx, tid, n)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, codesJSON{Round: n, Tables: toRound(v.Round, codes).Tables})
}

// outcomeJSON is one player's outcome of a closed round.
type outcomeJSON struct {
	Table    int    `json:"table"`
	Player   string `json:"player"`
	Rank     int    `json:"rank"`
	Advanced bool   `json:"advanced"`
}

func toOutcome(o tournament.Outcome) outcomeJSON {
	return outcomeJSON{Table: o.Table, Player: o.Player, Rank: o.Rank, Advanced: o.Advanced}
}

// closeJSON is the answer to closing a round.
type closeJSON struct {
	Round            int           `json:"round"`
	Status           string        `json:"status"`
	Outcomes         []outcomeJSON `json:"outcomes"`
	Eliminated       []string      `json:"eliminated"`
	TournamentStatus string        `json:"tournament_status"`
	Champion         string        `json:"champion,omitempty"`
}

func (s *Server) closeRound(c echo.Context) error {
	n, err := roundParam(c)
	if err != nil {
		return err
	}
	var accept bool
	switch v := c.QueryParam("accept_unconfirmed"); v {
	case "", "false":
	case "true":
		accept = true
	default:
		return queryError("accept_unconfirmed",
			"the query parameter accept_unconfirmed must be true or false, not %q", v)
	}
	closed, err := s.console.CloseRound(c.Request().Context(), app.CloseRound{Actor: actorOf(c), Tournament: c.Param("tid"),
		Round: n, AcceptUnconfirmed: accept})
	if err != nil {
		return err
	}
	ch := closed.Change
	out := closeJSON{Round: n, Status: string(tournament.RoundClosed), Outcomes: make([]outcomeJSON, len(ch.Outcomes)),
		Eliminated: ch.Eliminated, TournamentStatus: string(ch.TournamentStatus), Champion: ch.Champion}
	if out.Eliminated == nil {
		out.Eliminated = []string{}
	}
	for i, o := range ch.Outcomes {
		out.Outcomes[i] = toOutcome(o)
	}
	return c.JSON(http.StatusOK, out)
}

// tieRequest is the body of POST …/rounds/{n}/ties.
type tieRequest struct {
	Players []string `json:"players"`
	Method  string   `json:"method"`
	Note    string   `json:"note"`
}

// tieJSON is a recorded tie resolution.
type tieJSON struct {
	ID        string    `json:"id"`
	Round     int       `json:"round"`
	Players   []string  `json:"players"`
	Method    string    `json:"method"`
	Note      string    `json:"note"`
	DecidedBy string    `json:"decided_by"`
	CreatedAt time.Time `json:"created_at"`
}

func (s *Server) resolveTie(c echo.Context) error {
	var req tieRequest
	n, err := roundBody(c, &req)
	if err != nil {
		return err
	}
	res, err := s.console.ResolveTie(c.Request().Context(), app.ResolveTie{Actor: actorOf(c), Tournament: c.Param("tid"), Round: n,
		Players: req.Players, Method: req.Method, Note: req.Note})
	if err != nil {
		return err
	}
	r := res.Record
	return c.JSON(http.StatusCreated, tieJSON{ID: strconv.FormatInt(r.ID, 10), Round: r.Round, Players: r.Players, Method: r.Method,
		Note: r.Note, DecidedBy: r.By, CreatedAt: r.CreatedAt})
}
