package api

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// apiContentSecurityPolicy is the policy of JSON responses: they load
// nothing and are framed nowhere.
const apiContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'"

// securityHeaders adds the API's own security headers to those every
// response gets (package httpx): no referrer, and a policy that loads
// nothing. The web pages set their own (web).
func (s *Server) securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Content-Security-Policy", apiContentSecurityPolicy)
		return next(c)
	}
}

// cors answers cross-origin requests from the configured origins only
// (Config.CORSOrigins, REVISOR_CORS_ORIGINS); without any, no CORS header
// is ever sent and browsers keep other sites' pages out. Credentials are
// tokens in the Authorization header, never cookies, so none are allowed.
func (s *Server) cors() echo.MiddlewareFunc {
	if len(s.cfg.CORSOrigins) == 0 {
		return func(next echo.HandlerFunc) echo.HandlerFunc { return next }
	}
	return middleware.CORSWithConfig(middleware.CORSConfig{
		AllowOrigins: s.cfg.CORSOrigins,
		AllowMethods: []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete},
		AllowHeaders: []string{echo.HeaderAuthorization, echo.HeaderContentType, "Idempotency-Key", echo.HeaderXRequestID},
		ExposeHeaders: []string{echo.HeaderLocation, echo.HeaderXRequestID, "Idempotent-Replayed",
			echo.HeaderWWWAuthenticate},
		MaxAge: 600,
	})
}

// ParseOrigins reads a comma-separated list of origins
// (REVISOR_CORS_ORIGINS): each scheme://host[:port], http or https, without
// a path. "*" is refused: the API names the sites it trusts.
func ParseOrigins(list string) ([]string, error) {
	var out []string
	for _, o := range strings.Split(list, ",") {
		o = strings.TrimSpace(o)
		if o == "" {
			continue
		}
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
			(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.User != nil || u.Fragment != "" {
			return nil, fmt.Errorf("CORS origin %q: want scheme://host[:port], http or https, without a path", o)
		}
		out = append(out, u.Scheme+"://"+strings.ToLower(u.Host))
	}
	return out, nil
}
