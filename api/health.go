package api

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/tournament"
)

// readyTimeout bounds the readiness check so that a hung database makes
// /readyz answer 503 rather than hang.
const readyTimeout = 2 * time.Second

// status is the body of /healthz and a successful /readyz.
type status struct {
	Status string `json:"status"`
}

// healthz answers 200 while the process serves requests.
func (s *Server) healthz(c echo.Context) error {
	return c.JSON(http.StatusOK, status{Status: "ok"})
}

// readyz answers 200 when the database answers and its schema is at the
// version this server needs, else 503 problem+json saying which.
func (s *Server) readyz(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), readyTimeout)
	defer cancel()
	if err := s.deps.Ready(ctx); err != nil {
		return asUnavailable(err)
	}
	return c.JSON(http.StatusOK, status{Status: "ready"})
}

// asUnavailable keeps a readiness failure's code when it is already an
// unavailable error and makes any other failure one: not ready is 503.
func asUnavailable(err error) error {
	if tournament.ErrorKind(err) == tournament.KindUnavailable {
		return err
	}
	return &tournament.Error{Kind: tournament.KindUnavailable, Code: tournament.CodeNotReady,
		Message: "the database is not ready", Err: err}
}
