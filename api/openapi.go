package api

import (
	_ "embed"
	"net/http"

	"github.com/labstack/echo/v4"
)

// openAPIDocument is the OpenAPI 3.1 description of every route. Add a
// resource's paths here when adding its routes; TestOpenAPIMatchesRoutes
// names any route or path that is on one side only.
//
//go:embed openapi.json
var openAPIDocument []byte

// openAPIRoutes serves the document as JSON and as YAML (JSON is YAML 1.2).
func (s *Server) openAPIRoutes(g *echo.Group) {
	g.GET("/openapi.json", func(c echo.Context) error {
		return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, openAPIDocument)
	})
	g.GET("/openapi.yaml", func(c echo.Context) error {
		return c.Blob(http.StatusOK, "application/yaml", openAPIDocument)
	})
}
