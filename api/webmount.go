package api

import (
	"io"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/web"
)

// mountWeb builds the web pages (package web) on an echo instance of their
// own, so that their HTML error pages and routes stay apart from the API's
// problem+json, 404s and 405s and from its OpenAPI document. They share the
// admin token, the tournament service, the event source, the counter of
// wrong tokens (one budget per address for every door) and the request
// middleware (request IDs, access log, metrics, recovery, body limit).
func (s *Server) mountWeb() error {
	h, err := web.New(web.Config{AdminTokenHash: s.cfg.AdminTokenHash, HashToken: HashToken, Logger: s.log,
		Now: s.cfg.Now, SecureCookies: s.cfg.SecureCookies, Failures: s.limiter},
		web.Deps{Tournaments: s.deps.Tournaments, Events: s.deps.Events, Referees: s.deps.Referees})
	if err != nil {
		return err
	}
	w := echo.New()
	w.HideBanner, w.HidePort = true, true
	w.Logger.SetOutput(io.Discard)
	w.IPExtractor = s.e.IPExtractor
	w.HTTPErrorHandler = h.HandleError
	w.Use(s.observe, s.recover, s.limitBody)
	h.Register(w)
	s.web = w
	return nil
}

// serveWeb serves r with the web pages when it is theirs.
func (s *Server) serveWeb(w http.ResponseWriter, r *http.Request) bool {
	if s.web == nil || !web.Owns(r.URL.Path) {
		return false
	}
	s.web.ServeHTTP(w, r)
	return true
}
