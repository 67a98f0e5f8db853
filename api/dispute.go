package api

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/referee"
)

// disputeRoutes registers disputes and rulings.
func (s *Server) disputeRoutes(g *echo.Group) {
	ref := s.require(tournament.RoleReferee, tournament.RoleOrganizer, tournament.RoleAdmin)
	open := g.POST("/tournaments/:tid/disputes", s.openDispute, s.require(tournament.RoleTable, tournament.RoleOrganizer, tournament.RoleAdmin))
	// The referees' store claims the key and stores the answer in the
	// dispute's transaction (issue 27).
	s.storeClaims[open.Path] = true
	g.GET("/tournaments/:tid/disputes", s.listDisputes, ref)
	g.GET("/tournaments/:tid/disputes/:id", s.getDispute, ref)
	g.POST("/tournaments/:tid/disputes/:id/ruling", s.rule, ref)
}

// disputeRequest is the body of POST …/disputes.
type disputeRequest struct {
	Round       int             `json:"round"`
	Table       int             `json:"table"`
	Game        int             `json:"game"`
	Description string          `json:"description"`
	Record      json.RawMessage `json:"record,omitempty"`
	Deal        int             `json:"deal,omitempty"` // the disputed deal, 1-based
}

// actorJSON names who did something: a role and a token id, never a token.
type actorJSON struct {
	Role  string `json:"role"`
	Token string `json:"token"`
}

// disputeJSON is a dispute as referees see it.
type disputeJSON struct {
	ID          string          `json:"id"`
	Round       int             `json:"round"`
	Table       int             `json:"table"`
	Game        int             `json:"game"`
	Description string          `json:"description"`
	Status      string          `json:"status"`
	OpenedBy    actorJSON       `json:"opened_by"`
	CreatedAt   time.Time       `json:"created_at"`
	ResultID    *string         `json:"result_id"`
	Deal        *int            `json:"deal"`
	Record      json.RawMessage `json:"record"`
	Verdict     json.RawMessage `json:"verdict"`
	Ruling      *rulingJSON     `json:"ruling"`
}

// adjustmentJSON is a point adjustment.
type adjustmentJSON struct {
	ID     string `json:"id,omitempty"`
	Player string `json:"player"`
	Points int    `json:"points"`
	Scale  string `json:"scale,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// rulingJSON is a ruling.
type rulingJSON struct {
	ID           string           `json:"id"`
	Decision     string           `json:"decision"`
	Reason       string           `json:"reason"`
	CorrectionID *string          `json:"correction_id"`
	Verdict      json.RawMessage  `json:"verdict"`
	Disqualified []string         `json:"disqualified"`
	Adjustments  []adjustmentJSON `json:"adjustments"`
	RuledBy      actorJSON        `json:"ruled_by"`
	CreatedAt    time.Time        `json:"created_at"`
}

func toDispute(d *referee.Dispute) disputeJSON {
	out := disputeJSON{ID: strconv.FormatInt(d.ID, 10), Round: d.Key.Round, Table: d.Key.Table, Game: d.Key.Game,
		Description: d.Description, Status: string(d.Status), OpenedBy: actorJSON{string(d.OpenedRole), d.OpenedBy},
		CreatedAt: d.CreatedAt, ResultID: idString(d.ResultID), Deal: d.Deal, Record: orNull(d.Record), Verdict: orNull(d.Verdict)}
	if d.Ruling != nil {
		r := toRuling(d.Ruling)
		out.Ruling = &r
	}
	return out
}

func toRuling(r *referee.Ruling) rulingJSON {
	out := rulingJSON{ID: strconv.FormatInt(r.ID, 10), Decision: r.Decision, Reason: r.Reason, CorrectionID: idString(r.CorrectionID),
		Verdict: orNull(r.Verdict), Disqualified: r.Disqualified, Adjustments: make([]adjustmentJSON, len(r.Adjustments)),
		RuledBy: actorJSON{string(r.RuledRole), r.RuledBy}, CreatedAt: r.CreatedAt}
	if out.Disqualified == nil {
		out.Disqualified = []string{}
	}
	for i, a := range r.Adjustments {
		out.Adjustments[i] = adjustmentJSON{ID: strconv.FormatInt(a.ID, 10), Player: a.Player, Points: a.Points,
			Scale: a.Scale, Reason: a.Reason}
	}
	return out
}

// idString writes a stored numeric id as the API's opaque string id; nil
// stays nil (null).
func idString(id *int64) *string {
	if id == nil {
		return nil
	}
	s := strconv.FormatInt(*id, 10)
	return &s
}

// orNull writes stored JSON as it is, and null for none.
func orNull(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage("null")
	}
	return b
}

func (s *Server) openDispute(c echo.Context) error {
	var req disputeRequest
	if err := httpx.DecodeJSON(c, &req); err != nil {
		return err
	}
	location := func(out disputeJSON) string { return "/api/v1/tournaments/" + c.Param("tid") + "/disputes/" + out.ID }
	// The answer is made once the dispute is stored (its id known), in its
	// transaction: it commits with it (requestUnit).
	via := disputeVia(c, func(c echo.Context, key string, outcome any) ([]byte, error) {
		out := toDispute(outcome.(*referee.Dispute))
		h := c.Response().Header()
		h.Set(echo.HeaderLocation, location(out))
		defer h.Del(echo.HeaderLocation) // set again with the answer, when the dispute commits
		return prepareAnswer(c, key, http.StatusCreated, out)
	})
	d, err := s.deps.Table.OpenDispute(c.Request().Context(), app.OpenDispute{Actor: refereeActorOf(c), Tournament: c.Param("tid"),
		Dispute: referee.NewDispute{Round: req.Round, Table: req.Table, Game: req.Game, Description: req.Description, Record: req.Record, Deal: req.Deal},
		Via:     via})
	if err != nil {
		return err
	}
	out := toDispute(d)
	c.Response().Header().Set(echo.HeaderLocation, location(out))
	return c.JSON(http.StatusCreated, out)
}

// disputesJSON is a page of disputes; next is the after= of the next
// page, null on the last.
type disputesJSON struct {
	Disputes []disputeJSON `json:"disputes"`
	Next     *string       `json:"next"`
}

// disputeFilter reads the query: status, after, limit.
func disputeFilter(c echo.Context) (referee.DisputeFilter, error) {
	f := referee.DisputeFilter{Status: referee.DisputeStatus(c.QueryParam("status"))}
	return f, readPage(c, "a dispute", &f.After, &f.Limit)
}

func (s *Server) listDisputes(c echo.Context) error {
	page, err := readAs(c, refereeActorOf(c), disputeFilter, s.deps.Disputes.Disputes)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, disputesJSON{Disputes: mapped(page.Disputes, toDispute), Next: nextOf(page.Next)})
}

// disputeID reads the dispute id of the path; anything else is a 404.
func disputeID(c echo.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id < 1 {
		return 0, tournament.Errorf(tournament.KindNotFound, tournament.CodeDisputeNotFound, "dispute %q not found", c.Param("id"))
	}
	return id, nil
}

func (s *Server) getDispute(c echo.Context) error {
	d, err := readAs(c, refereeActorOf(c), disputeID, s.deps.Disputes.Dispute)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toDispute(d))
}

// rulingRequest is the body of POST …/disputes/{id}/ruling.
type rulingRequest struct {
	Decision    string           `json:"decision"`
	Reason      string           `json:"reason"`
	Adjustments []adjustmentJSON `json:"adjustments"`
	Disqualify  []string         `json:"disqualify"`
	Record      json.RawMessage  `json:"record,omitempty"`
}

func (r rulingRequest) toNew() referee.NewRuling {
	n := referee.NewRuling{Decision: r.Decision, Reason: r.Reason, Disqualify: r.Disqualify, Record: r.Record}
	for _, a := range r.Adjustments {
		n.Adjustments = append(n.Adjustments, referee.NewAdjustment{Player: a.Player, Points: a.Points, Scale: a.Scale, Reason: a.Reason})
	}
	return n
}

// rulingAnswer is the answer to a ruling: the ruling, the corrected
// result, what happened to advancement, and the standings that follow.
type rulingAnswer struct {
	Ruling      rulingJSON     `json:"ruling"`
	Correction  *resultJSON    `json:"correction,omitempty"`
	Advancement string         `json:"advancement,omitempty"`
	Standings   []standingJSON `json:"standings"`
}

func (s *Server) rule(c echo.Context) error {
	id, err := disputeID(c)
	if err != nil {
		return err
	}
	var req rulingRequest
	if err := httpx.DecodeJSON(c, &req); err != nil {
		return err
	}
	r, err := s.console.Rule(c.Request().Context(), app.Rule{Actor: refereeActorOf(c), Tournament: c.Param("tid"), Dispute: id, Ruling: req.toNew()})
	if err != nil {
		return err
	}
	ch := r.Result
	out := rulingAnswer{Ruling: toRuling(ch.Ruling), Advancement: ch.Note, Standings: toStandings(ch.Standings)}
	if ch.Correction != nil {
		r := toResult(ch.Correction, false, false)
		out.Correction = &r
	}
	return c.JSON(http.StatusOK, out)
}
