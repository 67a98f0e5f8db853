package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/tournament"
)

// whoamiResponse tells a client what its token is good for.
type whoamiResponse struct {
	Role       string `json:"role"`
	Tournament string `json:"tournament,omitempty"`
	Round      int    `json:"round,omitempty"`
	Table      int    `json:"table,omitempty"`
}

// whoamiRoutes registers GET /whoami, which lets a client check a token
// before it relies on it, and GET /tournaments/{tid}/whoami, which also
// knows the tournament's table codes (a code means something only within
// its tournament).
func (s *Server) whoamiRoutes(g *echo.Group) {
	g.GET("/whoami", s.whoami, s.require(tournament.RolePublic))
	g.GET("/tournaments/:tid/whoami", s.whoami, s.require(tournament.RolePublic))
}

func (s *Server) whoami(c echo.Context) error {
	p := PrincipalOf(c)
	return c.JSON(http.StatusOK, whoamiResponse{Role: string(p.Role), Tournament: p.Tournament, Round: p.Round, Table: p.Table})
}
