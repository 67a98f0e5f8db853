package api

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
)

// tableChangeRoutes registers the organizer's changes to the tables of an
// open round: a player withdrawn during a game, a wrong seating corrected.
func (s *Server) tableChangeRoutes(g *echo.Group) {
	org := s.require(tournament.RoleOrganizer, tournament.RoleAdmin)
	g.POST("/tournaments/:tid/rounds/:n/tables/:t/withdrawals", s.withdrawDuringGame, org)
	g.POST("/tournaments/:tid/rounds/:n/reseat", s.reseat, org)
}

// reseatRequest is the body of POST …/rounds/{n}/reseat: player swaps
// places with with, or moves to table.
type reseatRequest struct {
	Player string `json:"player"`
	With   string `json:"with"`
	Table  int    `json:"table"`
	Reason string `json:"reason"`
}

func (s *Server) reseat(c echo.Context) error {
	var req reseatRequest
	n, err := roundBody(c, &req)
	if err != nil {
		return err
	}
	r, err := s.console.Reseat(c.Request().Context(), app.Reseat{Actor: actorOf(c), Tournament: c.Param("tid"), Round: n,
		Reseat: play.Reseat{Player: req.Player, With: req.With, Table: req.Table, Reason: req.Reason}})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toRound(r.Result, nil))
}

// withdrawalRequest is the body of POST …/tables/{t}/withdrawals.
type withdrawalRequest struct {
	Player   string `json:"player"`
	Handling string `json:"handling"`
	Reason   string `json:"reason"`
}

// withdrawalJSON is a player withdrawn during a game.
type withdrawalJSON struct {
	Player    string    `json:"player"`
	Round     int       `json:"round"`
	Table     int       `json:"table"`
	Game      int       `json:"game"`
	Handling  string    `json:"handling"`
	Reason    string    `json:"reason"`
	By        string    `json:"by"`
	CreatedAt time.Time `json:"created_at"`
}

func (s *Server) withdrawDuringGame(c echo.Context) error {
	var req withdrawalRequest
	n, err := roundBody(c, &req)
	if err != nil {
		return err
	}
	t, err := intParam(c, "t", tableNotFound)
	if err != nil {
		return err
	}
	r, err := s.console.Withdraw(c.Request().Context(), app.Withdraw{Actor: actorOf(c), Tournament: c.Param("tid"), Round: n, Table: t,
		Withdrawal: play.Withdrawal{Player: req.Player, Handling: tournament.WithdrawalHandling(req.Handling), Reason: req.Reason}})
	if err != nil {
		return err
	}
	w := r.Result
	return c.JSON(http.StatusCreated, withdrawalJSON{Player: w.Player, Round: w.Round, Table: w.Table, Game: w.Game,
		Handling: string(w.Handling), Reason: w.Reason, By: w.By, CreatedAt: w.CreatedAt})
}
