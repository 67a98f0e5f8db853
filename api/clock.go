package api

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
)

// clockRoutes registers the round clock: anyone reads it, the organizer
// runs it.
func (s *Server) clockRoutes(g *echo.Group) {
	const clock = "/tournaments/:tid/rounds/:n/clock"
	g.GET(clock, s.getClock, s.require(tournament.RolePublic))
	g.POST(clock, s.setClock, s.require(tournament.RoleOrganizer, tournament.RoleAdmin))
}

// clockRequest is the body of POST …/clock.
type clockRequest struct {
	Action  string `json:"action"`
	Minutes int    `json:"minutes,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

// toClock writes a clock as it reads at now (httpx.ClockOf).
func toClock(c *tournament.Clock, now time.Time) httpx.Clock {
	return httpx.ClockOf(&app.ClockReading{Clock: c, At: now})
}

func (s *Server) getClock(c echo.Context) error {
	_, r, err := readRound(c, func(ctx context.Context, tid string, n int) (*app.ClockReading, error) {
		return s.deps.Table.RoundClock(ctx, app.RoundClock{Tournament: tid, Round: n})
	})
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	return c.JSON(http.StatusOK, toClock(r.Clock, r.At))
}

func (s *Server) setClock(c echo.Context) error {
	var req clockRequest
	n, err := roundBody(c, &req)
	if err != nil {
		return err
	}
	r, err := s.console.SetClock(c.Request().Context(), app.SetClock{Actor: actorOf(c), Tournament: c.Param("tid"), Round: n,
		Action: play.ClockAction{Action: req.Action, Minutes: req.Minutes, Reason: req.Reason}})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toClock(r.Result, s.deps.Room.Now()))
}
