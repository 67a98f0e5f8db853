package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/tournament"
)

// tablePlayRoutes registers what a table does at the table besides
// entering deals: correcting a deal before the game is confirmed, reading
// the game's deals as they stand, and each player's confirmation.
func (s *Server) tablePlayRoutes(g *echo.Group) {
	const game = "/tournaments/:tid/rounds/:n/tables/:t/games/:g"
	table := s.require(tournament.RoleTable, tournament.RoleOrganizer, tournament.RoleAdmin)
	g.GET(game+"/deals", s.listDeals, s.require(tournament.RolePublic))
	correct := g.PUT(game+"/deals/:d", s.correctDeal, table)
	confirm := g.POST(game+"/confirmations", s.confirmGame, table)
	// The store claims the key and stores the answer (issues 17 and 27).
	s.storeClaims[correct.Path], s.storeClaims[confirm.Path] = true, true
	g.GET("/tournaments/:tid/rounds/:n/room", s.getRoom, s.require(tournament.RoleOrganizer, tournament.RoleAdmin))
}

// correctionRequest is the body of PUT …/deals/{d}.
type correctionRequest struct {
	Deal   json.RawMessage `json:"deal"`
	Reason string          `json:"reason"`
}

// correctedJSON is the answer to a correction: dealJSON with the deal's
// version.
type correctedJSON struct {
	dealJSON
	Version int `json:"version"`
}

// gameDeal reads the game and the deal number of a path.
func gameDeal(c echo.Context) (tournament.GameKey, int, error) {
	k, err := gameKey(c)
	if err != nil {
		return k, 0, err
	}
	n, err := pathDeal(c)
	return k, n, err
}

// pathDeal reads the deal number of a path.
func pathDeal(c echo.Context) (int, error) {
	n, err := strconv.Atoi(c.Param("d"))
	if err != nil || n < 1 || n > 1000 {
		return 0, tournament.Errorf(tournament.KindNotFound, tournament.CodeDealNotFound, "deal %q not found", c.Param("d"))
	}
	return n, nil
}

func (s *Server) correctDeal(c echo.Context) error {
	k, n, err := gameDeal(c)
	if err != nil {
		return err
	}
	var req correctionRequest
	if err := httpx.DecodeJSON(c, &req); err != nil {
		return err
	}
	// The answer is made once the correction is written, in its
	// transaction: it commits with it (requestUnit).
	via := unitOf(c, func(c echo.Context, key string, outcome any) ([]byte, error) {
		p := outcome.(*tournament.CorrectedDeal)
		return prepareAnswer(c, key, correctionStatus(p), toCorrectedJSON(p))
	})
	p, err := s.deps.Table.CorrectDeal(c.Request().Context(), app.CorrectDeal{Actor: actorOf(c), Game: k, Deal: n,
		Data: req.Deal, Reason: req.Reason, Via: via})
	if err != nil {
		return err
	}
	return c.JSON(correctionStatus(p), toCorrectedJSON(p))
}

// correctionStatus is the status of the answer to a correction: 201 when
// a new version was stored, 200 when it was the deal as it stood.
func correctionStatus(p *tournament.CorrectedDeal) int {
	if p.Repeat {
		return http.StatusOK
	}
	return http.StatusCreated
}

func toCorrectedJSON(p *tournament.CorrectedDeal) correctedJSON {
	return correctedJSON{dealJSON: toDealJSON(&p.DealProgress), Version: p.Version}
}

// toDealJSON writes a deal's progress.
func toDealJSON(p *tournament.DealProgress) dealJSON {
	out := dealJSON{Deal: p.Deal, Result: p.Result, Scores: p.Game.Scores, GameOver: p.Game.GameOver || p.Final != nil}
	if p.Final != nil {
		g := toResult(p.Final, false, true)
		out.Game = &g
		out.EndedBy = engine.EndedByTarget
		if p.EndedByTime {
			out.EndedBy = engine.EndedByTime
		}
	}
	return out
}

// storedDealJSON is one deal of a game as it stands.
type storedDealJSON struct {
	Deal      int             `json:"deal"`
	Version   int             `json:"version"`
	EnteredAt time.Time       `json:"entered_at"`
	Record    json.RawMessage `json:"record"`
}

// confirmationJSON is a player's confirmation.
type confirmationJSON struct {
	Player      string    `json:"player"`
	ConfirmedAt time.Time `json:"confirmed_at"`
	ConfirmedBy string    `json:"confirmed_by"`
}

// playedGameJSON is a game as it stands: GET …/deals.
type playedGameJSON struct {
	Deals         []storedDealJSON   `json:"deals"`
	GameOver      bool               `json:"game_over"`
	ResultID      *string            `json:"result_id"`
	Confirmations []confirmationJSON `json:"confirmations"`
}

func toConfirmations(cs []tournament.Confirmation) []confirmationJSON {
	out := make([]confirmationJSON, len(cs))
	for i, c := range cs {
		out[i] = confirmationJSON{Player: c.Player, ConfirmedAt: c.At, ConfirmedBy: c.ConfirmedBy}
	}
	return out
}

func (s *Server) listDeals(c echo.Context) error {
	g, err := readGame(c, func(ctx context.Context, k tournament.GameKey) (*tournament.TableGame, error) {
		return s.deps.Table.GameDeals(ctx, app.GameDeals{Game: k})
	})
	if err != nil {
		return err
	}
	out := playedGameJSON{Deals: make([]storedDealJSON, len(g.Deals)), GameOver: g.Result != nil,
		Confirmations: toConfirmations(g.Confirmations)}
	for i, d := range g.Deals {
		out.Deals[i] = storedDealJSON{Deal: i + 1, Version: d.Version, EnteredAt: d.At, Record: d.Deal}
	}
	if g.Result != nil {
		out.ResultID = idString(&g.Result.ID)
	}
	return c.JSON(http.StatusOK, out)
}

// confirmRequest is the body of POST …/confirmations.
type confirmRequest struct {
	Player string `json:"player"`
}

// confirmedJSON is the answer to a confirmation.
type confirmedJSON struct {
	Player        string             `json:"player"`
	ResultID      string             `json:"result_id"`
	ConfirmedAt   time.Time          `json:"confirmed_at"`
	Confirmations []confirmationJSON `json:"confirmations"`
	Confirmed     bool               `json:"confirmed"` // every player at the table has confirmed
}

func (s *Server) confirmGame(c echo.Context) error {
	var req confirmRequest
	k, err := gameRequest(c, &req)
	if err != nil {
		return err
	}
	// The answer is known before the confirmation is stored (under the
	// game's lock): it commits with it (requestUnit).
	via := unitOf(c, func(c echo.Context, key string, outcome any) ([]byte, error) {
		res := outcome.(*tournament.Confirmed)
		return prepareAnswer(c, key, confirmStatus(res), toConfirmedJSON(res))
	})
	res, err := s.deps.Table.ConfirmGame(c.Request().Context(), app.ConfirmGame{Actor: actorOf(c), Game: k, Player: req.Player, Via: via})
	if err != nil {
		return err
	}
	return c.JSON(confirmStatus(res), toConfirmedJSON(res))
}

// confirmStatus is the status of the answer to a confirmation: 201 when
// it was stored, 200 when the player had confirmed before.
func confirmStatus(res *tournament.Confirmed) int {
	if res.Created {
		return http.StatusCreated
	}
	return http.StatusOK
}

func toConfirmedJSON(res *tournament.Confirmed) confirmedJSON {
	return confirmedJSON{Player: res.Confirmation.Player, ResultID: strconv.FormatInt(res.Game.Result.ID, 10),
		ConfirmedAt: res.Confirmation.At, Confirmations: toConfirmations(res.Game.Confirmations), Confirmed: res.Confirmed}
}
