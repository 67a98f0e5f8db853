// Package api is Revisor's JSON API: a REST API on echo v4 under /api/v1
// (docs/api.md), problem+json errors (RFC 9457), health and readiness
// probes, Prometheus metrics and the OpenAPI document. Package server mounts
// it on one router beside the web pages (package web), its peer; the
// HTTP pieces both need are in package api/httpx.
//
// Handlers bind, validate, call a service and write the response; they hold
// no SQL and no rules. Storage and services come in through Deps, so the
// package depends on the domain (tournament, engine) and never on
// tournament/postgres.
//
// Adding a resource: write `func (s *Server) xRoutes(g *echo.Group)` in its own
// file (api/x.go), add it to the list in Register, document its paths in
// openapi.json (TestOpenAPIMatchesRoutes names what is missing), and protect
// each route with s.require(roles...).
package api

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/internal/ratelimit"
	"github.com/revisor-sm/revisor/tournament"
)

// DefaultBodyLimit is the largest request body the server reads: 1 MiB.
const DefaultBodyLimit = httpx.DefaultBodyLimit

// Config holds the server's settings. The zero value works: no admin token,
// 1 MiB bodies, logs discarded, the real clock.
type Config struct {
	// Logger receives one JSON line per request and the causes of server
	// errors. Nil discards them.
	Logger *slog.Logger
	// PublicURL is the address phones and printed cards reach the server
	// by (http(s)://host[:port]); the pages' QR codes and links carry it.
	// Empty: each request's own host.
	PublicURL string
	// AdminTokenHash is HashToken of the admin token. Empty: no token is admin.
	AdminTokenHash []byte
	// BodyLimit is the largest request body in bytes; 0 means DefaultBodyLimit.
	BodyLimit int64
	// TrustProxy takes the client address from X-Forwarded-For (set it only
	// behind a reverse proxy that sets the header).
	TrustProxy bool
	// Now is the clock (rate limits); nil means time.Now.
	Now func() time.Time
	// NewRequestID makes request IDs; nil means 16 random base32 characters.
	NewRequestID func() string
	// CORSOrigins are the origins whose pages may call the API from a
	// browser (ParseOrigins); none: no CORS headers at all.
	CORSOrigins []string
	// SecureCookies marks the web pages' cookies Secure on plain HTTP too
	// (behind a TLS-terminating proxy); requests over TLS always get them.
	SecureCookies bool
	// Failures counts wrong tokens per client address; the router gives
	// the API and the pages the same one, so that a guesser has one budget
	// for every door. Nil: a counter of the API's own.
	Failures *ratelimit.Failures
	// Door is the one path of every credential (httpx.Verify) over
	// Failures and a per-tournament budget of wrong codes; the router
	// gives the API and the pages the same one. Nil: a door over Failures.
	Door *httpx.Door
}

// Deps are the services the handlers call, each a narrow interface declared
// in services.go. Ready, Idempotency, Tokens and the seven services are
// required (New says which one is missing), so that no handler checks for a
// missing service; Events, Failures and Registry may be nil. Package server
// fills the services from tournament's Service, Referees and Register.
type Deps struct {
	// Ready reports whether the database answers and its schema is current
	// (postgres.Readiness). /readyz answers 503 with its error.
	Ready func(context.Context) error
	// Idempotency stores first responses to requests with Idempotency-Key.
	Idempotency IdempotencyStore
	// Tokens resolves tournament-scoped tokens (organizer, referee, table).
	Tokens TokenResolver
	// Tournaments creates tournaments and registers their players.
	Tournaments Tournaments
	// Rounds draws and closes rounds and changes their tables.
	Rounds Rounds
	// Games reads the games' results.
	Games Games
	// Table runs the commands on a round's games: whole games, deals,
	// corrections, confirmations, disputes (app.Table, which the pages
	// run too).
	Table app.TablePlay
	// Room reads the standings, the room view and the round clock.
	Room Room
	// Referees runs referee tokens, correction windows, draw commitments
	// and the audit log.
	Referees Referees
	// Disputes runs disputes and rulings.
	Disputes Disputes
	// Register runs the server's register of people, series and ratings.
	Register Register
	// Events feeds the web pages' live updates (postgres.Listener into a
	// tournament.Broker); required by the pages.
	Events tournament.EventSource
	// Failures counts wrong tokens per address across every process behind
	// one address (postgres.FailureCounts). Nil: each process counts alone.
	Failures ratelimit.Shared
	// Registry collects the metrics served at /metrics. The router
	// registers its HTTP metrics on it; register process and pool
	// collectors beside them. Nil: a registry of the server's own.
	Registry *prometheus.Registry
}

// Server is the JSON API: its routes, its middleware and its errors, which
// package server mounts on the one router beside the web pages.
type Server struct {
	cfg     Config
	deps    Deps
	log     *slog.Logger
	door    *httpx.Door
	metrics echo.HandlerFunc // /metrics
	routes  []Route          // what Register added, for Routes
	// storeClaims are the routes (echo paths) whose Idempotency-Key the
	// tournament store claims with the write's first read (requestUnit, app.Unit).
	storeClaims map[string]bool
	// codeLookups lets one request at a time look up the table codes of a
	// tournament that are not cached yet (auth.go).
	codeLookups codeLookups
	// console runs the draw and the close (app.Console), as the
	// organizer's console does; a request's Idempotency-Key is the
	// middleware's (idempotency.go), so the API sends the commands no key.
	console *app.Console
}

// New returns the API, ready to Register on a router, or an error naming
// the first required dependency that is missing.
func New(cfg Config, deps Deps) (*Server, error) {
	if err := deps.check(); err != nil {
		return nil, err
	}
	cfg = withDefaults(cfg)
	if deps.Registry == nil {
		deps.Registry = prometheus.NewRegistry()
	}
	return &Server{cfg: cfg, deps: deps, log: cfg.Logger, door: cfg.Door, storeClaims: map[string]bool{},
		console: app.NewConsole(app.ConsoleServices{Rounds: deps.Rounds, Clock: deps.Room, Players: deps.Tournaments, Rulings: deps.Disputes},
			app.NewOnce(deps.Idempotency, cfg.Logger)),
		metrics: echo.WrapHandler(promhttp.HandlerFor(deps.Registry, promhttp.HandlerOpts{Registry: deps.Registry}))}, nil
}

// check names the first required dependency that is missing.
func (d Deps) check() error { return httpx.Required("api.New", d, "Events", "Failures", "Registry") }

func withDefaults(cfg Config) Config {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.BodyLimit <= 0 {
		cfg.BodyLimit = DefaultBodyLimit
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Failures == nil {
		cfg.Failures = ratelimit.NewFailures(cfg.Now)
	}
	if cfg.Door == nil {
		cfg.Door = httpx.NewDoor(cfg.Failures, nil, cfg.Now)
	}
	return cfg
}

// Register adds the API's routes to e: the probes and metrics outside
// /api/v1, and one function per resource inside it. It also sets e's
// Binder, so that c.Bind answers with the API's problems (the pages do not
// bind bodies).
func (s *Server) Register(e *echo.Echo) {
	before := routeSet(e)
	e.Binder = httpx.Binder{}
	e.GET("/healthz", s.healthz)
	e.GET("/readyz", s.readyz)
	e.GET("/metrics", s.metrics)
	v1 := e.Group("/api/v1")
	for _, register := range []func(*echo.Group){
		s.openAPIRoutes,
		s.validateRoutes,
		s.whoamiRoutes,
		s.tournamentRoutes,
		s.playerRoutes,
		s.roundRoutes,
		s.gameRoutes,
		s.tablePlayRoutes,
		s.clockRoutes,
		s.standingsRoutes,
		s.refereeRoutes,
		s.disputeRoutes,
		s.auditRoutes,
		s.windowRoutes,
		s.tableChangeRoutes,
		s.registerRoutes,
		// Add resources here, one function each (api/<resource>.go).
	} {
		register(v1)
	}
	for _, r := range e.Routes() {
		if r.Method != echo.RouteNotFound && !before[*r] {
			s.routes = append(s.routes, Route{Method: r.Method, Path: openAPIPath(r.Path)})
		}
	}
}

// Middleware is the API's own middleware, which the router runs on the
// API's requests after the shared middleware (package httpx): its security
// policy, CORS and idempotency keys.
func (s *Server) Middleware() []echo.MiddlewareFunc {
	return []echo.MiddlewareFunc{s.securityHeaders, s.cors(), s.idempotent}
}

// routeSet is the set of routes registered on e.
func routeSet(e *echo.Echo) map[echo.Route]bool {
	set := map[echo.Route]bool{}
	for _, r := range e.Routes() {
		set[*r] = true
	}
	return set
}

// Route is one registered route in OpenAPI notation: path parameters are
// written {name}.
type Route struct {
	Method, Path string
}

// Routes lists the routes Register added, for the test that holds them and
// the OpenAPI document together.
func (s *Server) Routes() []Route { return s.routes }

// openAPIPath turns echo's /a/:id/b into OpenAPI's /a/{id}/b.
func openAPIPath(p string) string {
	parts := strings.Split(p, "/")
	for i, part := range parts {
		if name, ok := strings.CutPrefix(part, ":"); ok {
			parts[i] = "{" + name + "}"
		}
	}
	return strings.ReplaceAll(strings.Join(parts, "/"), `\:`, ":") // echo's escaped colon
}
