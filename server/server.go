// Package server builds Revisor's one HTTP router: the JSON API (package
// api) and the web pages (package web) mounted side by side on one echo
// instance, behind the request middleware both share (package api/httpx),
// applied once. cmd/revisor serves it; tests build the same router with it.
//
// Each adapter owns its routes: the API /api/v1/..., /healthz, /readyz and
// /metrics; the pages the rest they register (/, /t/..., /login, /admin,
// /static/...). A request's errors go back to the adapter that owns its
// route, so the API answers problem+json and the pages HTML; a path no route
// knows is the API's 404 (problem+json).
package server

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/internal/ratelimit"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/referee"
	"github.com/revisor-sm/revisor/tournament/registry"
	"github.com/revisor-sm/revisor/tournament/transfer"
	"github.com/revisor-sm/revisor/web"
	"github.com/revisor-sm/revisor/web/site"
)

// Server is the router, an http.Handler.
type Server struct {
	e          *echo.Echo
	api        *api.Server
	web        *web.Handler
	middleware *httpx.Middleware
	webRoutes  map[string]bool // the route templates the pages registered
	webList    []api.Route     // the pages' routes, in the API's notation
}

// Deps are the server's storage and services: the API's infrastructure and
// the tournament's services, which New hands to the API (api.Deps) and
// to the pages (web.Deps), each of which sees them only through the narrow
// interfaces it declares. All are required but Snapshots, Failures and
// Registry, which may be nil.
type Deps struct {
	// Ready reports whether the database answers and its schema is current.
	Ready func(context.Context) error
	// Idempotency stores first responses to requests with Idempotency-Key.
	Idempotency api.IdempotencyStore
	// Tokens resolves tournament-scoped tokens (organizer, referee, table).
	Tokens api.TokenResolver
	// Tournaments runs tournaments: players, settings, standings.
	Tournaments *tournament.Service
	// Play runs the tables' play: rounds, games, deals, confirmations,
	// the clock.
	Play *play.Service
	// Snapshots reads the snapshots the pages show; nil: Tournaments.
	// Give it a service on a database pool of its own (cmd/revisor does)
	// and a page never waits for a connection behind the writes of
	// arriving results.
	Snapshots site.Snapshots
	// Referees runs referee tokens, disputes, rulings, correction windows,
	// draw commitments and the audit log.
	Referees *referee.Service
	// Register runs the register of people, series and ratings.
	Register *registry.Service
	// Transfer exports and imports whole tournaments.
	Transfer *transfer.Service
	// Events feeds the pages' live updates (a tournament.Broker when nothing
	// else publishes).
	Events tournament.EventSource
	// Failures counts wrong tokens across processes; nil: each alone.
	Failures ratelimit.Shared
	// Registry collects the metrics served at /metrics; nil: the server's own.
	Registry *prometheus.Registry
	// Streams bound the pages' live event streams; zero fields take the
	// defaults (site.StreamLimits).
	Streams site.StreamLimits
	// PageWorkers bounds the pages' work under way at once (web.Config.Renders);
	// 0: one fewer than the cores.
	PageWorkers int
}

// check names the first required dependency that is missing.
func (d Deps) check() error {
	return httpx.Required("server.New", d, "Snapshots", "Failures", "Registry", "Streams", "PageWorkers")
}

// apiDeps are the API's dependencies: each service through the interfaces
// the API declares.
func (d Deps) apiDeps(table *app.Table) api.Deps {
	return api.Deps{Ready: d.Ready, Idempotency: d.Idempotency, Tokens: d.Tokens, Table: table,
		Tournaments: d.Tournaments, Rounds: d.Play, Games: d.Play, Room: d.Play,
		Referees: d.Referees, Disputes: d.Referees, Register: d.Register,
		Events: d.Events, Failures: d.Failures, Registry: d.Registry}
}

// webDeps are the pages' dependencies: the table's commands are the API's
// (one app.Table), run once per Idempotency-Key by once.
func (d Deps) webDeps(table *app.Table, once *app.Once) web.Deps {
	snapshots := d.Snapshots
	if snapshots == nil {
		snapshots = d.Tournaments
	}
	return web.Deps{Snapshots: snapshots, Tournaments: d.Tournaments, Players: d.Tournaments, Rounds: d.Play, Room: d.Play,
		Referees: d.Referees, Register: d.Register, Transfer: d.Transfer, Events: d.Events, Table: table, Once: once}
}

// New builds the router. The API's Config is the server's: the pages get
// the settings and services they share with the API (admin token, clock,
// logger, secure cookies, the tournament services, live events), and both
// get one counter of wrong tokens, so that a guesser has one budget for
// every door.
func New(cfg api.Config, deps Deps) (*Server, error) {
	if err := deps.check(); err != nil {
		return nil, err
	}
	if deps.Registry == nil {
		deps.Registry = prometheus.NewRegistry()
	}
	if cfg.Failures == nil {
		cfg.Failures = ratelimit.NewFailures(cfg.Now)
		if deps.Failures != nil {
			log := cfg.Logger
			if log == nil {
				log = slog.New(slog.DiscardHandler)
			}
			cfg.Failures.Share(deps.Failures, func(err error) { log.Warn("count a wrong token", "error", err.Error()) })
		}
	}
	metrics, err := httpx.NewMetrics(deps.Registry)
	if err != nil {
		return nil, err
	}
	mw, err := httpx.NewMiddleware(httpx.MiddlewareConfig{Logger: cfg.Logger, Metrics: metrics,
		NewRequestID: cfg.NewRequestID, BodyLimit: cfg.BodyLimit, TrustProxy: cfg.TrustProxy})
	if err != nil {
		return nil, err
	}
	if cfg.Door == nil || cfg.Door.Addresses() != cfg.Failures {
		cfg.Door = httpx.NewDoor(cfg.Failures, nil, cfg.Now)
	}
	// The API and the table pages run the same commands (package app).
	table := app.NewTable(deps.Play, deps.Referees)
	a, err := api.New(cfg, deps.apiDeps(table))
	if err != nil {
		return nil, err
	}
	s := &Server{e: echo.New(), api: a, middleware: mw, webRoutes: map[string]bool{}}
	s.web, err = web.New(web.Config{AdminTokenHash: cfg.AdminTokenHash, HashToken: api.HashToken,
		Logger: cfg.Logger, Now: cfg.Now, SecureCookies: cfg.SecureCookies, Failures: cfg.Failures, Door: cfg.Door, Streams: deps.Streams,
		PublicURL: cfg.PublicURL, Renders: deps.PageWorkers},
		deps.webDeps(table, app.NewOnce(deps.Idempotency, cfg.Logger)))
	if err != nil {
		return nil, err
	}
	if err := deps.Registry.Register(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "revisor_page_renders_total",
		Help: "Pages rendered; the others were answered from the cache of rendered pages."},
		func() float64 { return float64(s.web.Renders()) })); err != nil {
		return nil, err
	}
	s.e.HideBanner, s.e.HidePort = true, true
	s.e.Logger.SetOutput(io.Discard)
	s.e.IPExtractor = echo.ExtractIPDirect()
	if cfg.TrustProxy {
		s.e.IPExtractor = echo.ExtractIPFromXFFHeader()
	}
	s.e.HTTPErrorHandler = s.handleError
	mw.Use(s.e)
	s.e.Use(s.credentials)
	s.e.Use(s.apiOnly(a.Middleware()...))
	a.Register(s.e)
	s.mountWeb()
	return s, nil
}

// credentials verifies every credential the request carries — the
// Authorization header, the session cookie, the table cookie — on every
// route, each on the one path of credentials (httpx.Verify), before the
// route's handler runs; the handlers that read one then find the outcome
// kept. So a wrong credential spends its try wherever it is sent, and a
// new route cannot become a door around the budget (issue 25: the table
// cookie on /t/{tid}/table guessed codes with no limit). The outcome is
// the handlers' to answer: a route that ignores a credential ignores it.
func (s *Server) credentials(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if c.Request().Header.Get(echo.HeaderAuthorization) != "" {
			_, _ = s.api.Authenticate(c)
		}
		s.web.Credentials(c)
		return next(c)
	}
}

// mountWeb registers the pages and remembers their route templates.
func (s *Server) mountWeb() {
	before := map[echo.Route]bool{}
	for _, r := range s.e.Routes() {
		before[*r] = true
	}
	s.web.Register(s.e)
	for _, r := range s.e.Routes() {
		if !before[*r] {
			s.webRoutes[r.Path] = true
			if r.Method != echo.RouteNotFound {
				s.webList = append(s.webList, api.Route{Method: r.Method, Path: webRoutePath(r.Path)})
			}
		}
	}
}

// webRoutePath writes a page's route template in the API's notation: path
// parameters {name}, and a trailing wildcard {file}.
func webRoutePath(p string) string {
	parts := strings.Split(p, "/")
	for i, part := range parts {
		if name, ok := strings.CutPrefix(part, ":"); ok {
			parts[i] = "{" + name + "}"
		} else if part == "*" {
			parts[i] = "{file}"
		}
	}
	return strings.Join(parts, "/")
}

// isWeb reports whether the request's route is one of the pages'. echo
// sets c.Path to the route template also for a wrong method (405).
func (s *Server) isWeb(c echo.Context) bool { return s.webRoutes[c.Path()] }

// apiOnly runs mw on the API's requests only.
func (s *Server) apiOnly(mw ...echo.MiddlewareFunc) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		h := next
		for i := len(mw) - 1; i >= 0; i-- {
			h = mw[i](h)
		}
		return func(c echo.Context) error {
			if s.isWeb(c) {
				return next(c)
			}
			return h(c)
		}
	}
}

// handleError sends an error to the adapter that owns the request's route.
func (s *Server) handleError(err error, c echo.Context) {
	if s.isWeb(c) {
		s.web.HandleError(err, c)
		return
	}
	s.api.HandleError(err, c)
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.e.ServeHTTP(w, r) }

// Drain tells event streams to end; call it when shutdown begins
// (http.Server.RegisterOnShutdown). Ordinary requests are not affected.
func (s *Server) Drain() { s.middleware.Drain() }

// Routes lists the API's routes, for the test that holds them and the
// OpenAPI document together.
func (s *Server) Routes() []api.Route { return s.api.Routes() }

// WebRoutes lists the pages' routes (every method, not-found catch-alls
// left out), taken from the router, so that a test that walks every route
// learns of a new page without being told.
func (s *Server) WebRoutes() []api.Route { return slices.Clone(s.webList) }
