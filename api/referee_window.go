package api

import (
	"encoding/hex"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/tournament"
)

// windowRoutes registers the correction window (provisional and final
// results, reopening) and verifiable draws (commitment, reveal).
func (s *Server) windowRoutes(g *echo.Group) {
	org := s.require(tournament.RoleOrganizer, tournament.RoleAdmin)
	g.GET("/tournaments/:tid/rounds/:n/window", s.getWindow, s.require(tournament.RolePublic))
	g.POST("/tournaments/:tid/rounds/:n/reopen", s.reopenRound, org)
	g.PUT("/tournaments/:tid/correction-window", s.setCorrectionWindow, org)
	g.POST("/tournaments/:tid/rounds/:n/commitment", s.commitSeed, org)
	g.POST("/tournaments/:tid/rounds/:n/reveal", s.revealSeed, org)
	g.GET("/tournaments/:tid/rounds/:n/draw", s.getDraw, s.require(tournament.RolePublic))
}

// resultStatusJSON is one game's result with its status.
type resultStatusJSON struct {
	Table        int    `json:"table"`
	Game         int    `json:"game"`
	ResultID     string `json:"result_id"`
	Kind         string `json:"kind"`
	Status       string `json:"status"`
	OpenDisputes int    `json:"open_disputes"`
}

// windowJSON is a round's correction window: whether its results are
// open (being played), provisional (disputes taken until closes_at) or
// final, and the seconds left.
type windowJSON struct {
	Round             int                `json:"round"`
	CorrectionMinutes int                `json:"correction_minutes"`
	Status            string             `json:"status"`
	ClosedAt          *time.Time         `json:"closed_at"`
	ClosesAt          *time.Time         `json:"closes_at"`
	SecondsLeft       int64              `json:"seconds_left"`
	Reopened          bool               `json:"reopened"`
	Results           []resultStatusJSON `json:"results"`
}

func (s *Server) getWindow(c echo.Context) error {
	n, w, err := readRound(c, s.deps.Referees.Window)
	if err != nil {
		return err
	}
	out := windowJSON{Round: n, CorrectionMinutes: w.CorrectionMinutes, Status: string(w.Status), ClosedAt: w.ClosedAt, ClosesAt: w.ClosesAt,
		SecondsLeft: int64(w.Left / time.Second), Reopened: w.Reopened, Results: make([]resultStatusJSON, len(w.Results))}
	for i, r := range w.Results {
		out.Results[i] = resultStatusJSON{Table: r.Key.Table, Game: r.Key.Game, ResultID: strconv.FormatInt(r.ID, 10), Kind: string(r.Kind),
			Status: string(w.Status), OpenDisputes: w.Open[r.Key]}
	}
	return c.JSON(http.StatusOK, out)
}

// reopenRequest is the body of POST …/rounds/{n}/reopen.
type reopenRequest struct {
	Reason  string `json:"reason"`
	Minutes int    `json:"minutes"`
}

// reopeningJSON is a reopening of a round's results.
type reopeningJSON struct {
	Round     int       `json:"round"`
	Reason    string    `json:"reason"`
	Until     time.Time `json:"until"`
	By        string    `json:"by"`
	CreatedAt time.Time `json:"created_at"`
}

func (s *Server) reopenRound(c echo.Context) error {
	refs := s.deps.Referees
	req := reopenRequest{Minutes: tournament.DefaultCorrectionMinutes}
	n, err := roundBody(c, &req)
	if err != nil {
		return err
	}
	ro, err := refs.Reopen(c.Request().Context(), refereeActorOf(c), c.Param("tid"), n, req.Minutes, req.Reason)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, reopeningJSON{Round: ro.Round, Reason: ro.Reason, Until: ro.Until, By: ro.By, CreatedAt: ro.CreatedAt})
}

// correctionWindowJSON is the body and answer of PUT …/correction-window.
type correctionWindowJSON struct {
	CorrectionMinutes *int `json:"correction_minutes"`
}

func (s *Server) setCorrectionWindow(c echo.Context) error {
	refs := s.deps.Referees
	var req correctionWindowJSON
	if err := httpx.DecodeJSON(c, &req); err != nil {
		return err
	}
	if req.CorrectionMinutes == nil {
		return tournament.Errorf(tournament.KindInvalid, tournament.CodeInvalidCorrectionMinutes, "correction_minutes is required")
	}
	if err := refs.SetCorrectionMinutes(c.Request().Context(), refereeActorOf(c), c.Param("tid"), *req.CorrectionMinutes); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, req)
}

// commitmentRequest is the body of POST …/rounds/{n}/commitment.
type commitmentRequest struct {
	SHA256 string `json:"sha256"`
}

// commitmentJSON is a published draw commitment.
type commitmentJSON struct {
	Round     int       `json:"round"`
	SHA256    string    `json:"sha256"`
	CreatedAt time.Time `json:"created_at"`
}

func (s *Server) commitSeed(c echo.Context) error {
	refs := s.deps.Referees
	var req commitmentRequest
	n, err := roundBody(c, &req)
	if err != nil {
		return err
	}
	cm, err := refs.Commit(c.Request().Context(), refereeActorOf(c), c.Param("tid"), n, req.SHA256)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, commitmentJSON{Round: cm.Round, SHA256: hex.EncodeToString(cm.SeedSHA256), CreatedAt: cm.CreatedAt})
}

// revealRequest is the body of POST …/rounds/{n}/reveal.
type revealRequest struct {
	Seed *int64 `json:"seed"`
}

func (s *Server) revealSeed(c echo.Context) error {
	refs := s.deps.Referees
	var req revealRequest
	n, err := roundBody(c, &req)
	if err != nil {
		return err
	}
	if req.Seed == nil {
		return tournament.Errorf(tournament.KindInvalid, tournament.CodeInvalidSeed, "seed is required: the seed whose SHA-256 was committed")
	}
	a := refereeActorOf(c)
	r, err := refs.Reveal(c.Request().Context(), a, c.Param("tid"), n, *req.Seed)
	if err != nil {
		return err
	}
	return s.drawn(c, a, r)
}

// drawJSON is the public inputs of a round's draw (referee.DrawInputs):
// what `revisor seat --draw` reads to recompute the tables.
type drawJSON struct {
	Format    string      `json:"format"`
	Seating   string      `json:"seating"`
	Rounds    int         `json:"rounds"`
	Round     int         `json:"round"`
	Seed      int64       `json:"seed"`
	Players   []string    `json:"players"`
	History   []roundJSON `json:"history"`
	Standings []string    `json:"standings,omitempty"`
	// Constraints are the fixed tables and players kept apart of the draw.
	Constraints *tournament.ExportConstraints `json:"constraints,omitempty"`
	Tables      []tableJSON                   `json:"tables"`
	Commitment  *commitmentJSON               `json:"commitment"`
	// SearchSteps: where the clock cap cut the seating search, which the
	// replay stops at (tournament.Round.SearchSteps); absent when not cut.
	SearchSteps int `json:"search_steps,omitempty"`
}

func (s *Server) getDraw(c echo.Context) error {
	_, in, err := readRound(c, s.deps.Referees.DrawInputs)
	if err != nil {
		return err
	}
	out := drawJSON{Format: string(in.Format), Seating: in.Seating, Rounds: in.Rounds, Round: in.Round, Seed: in.Seed,
		Players: in.Players, History: make([]roundJSON, len(in.History)), Standings: in.Standings, Constraints: in.Constraints.Export(),
		Tables: toRound(&tournament.Round{Tables: in.Tables}, nil).Tables, SearchSteps: in.SearchSteps}
	for i := range in.History {
		out.History[i] = toRound(&in.History[i], nil)
	}
	if cm := in.Commitment; cm != nil {
		out.Commitment = &commitmentJSON{Round: cm.Round, SHA256: hex.EncodeToString(cm.SeedSHA256), CreatedAt: cm.CreatedAt}
	}
	return c.JSON(http.StatusOK, out)
}
