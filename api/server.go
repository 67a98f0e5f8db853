// Package api is Revisor's HTTP interface: a REST API on echo v4 under
// /api/v1 (docs/api.md), problem+json errors (RFC 9457), health and
// readiness probes, Prometheus metrics and the OpenAPI document.
//
// Handlers bind, validate, call a service and write the response; they hold
// no SQL and no rules. Storage and services come in through Deps, so the
// package depends on the domain (tournament, engine) and never on
// tournament/postgres.
//
// Adding a resource: write `func (s *Server) xRoutes(g *echo.Group)` in its own
// file (api/x.go), add it to the list in routes, document its paths in
// openapi.json (TestOpenAPIMatchesRoutes names what is missing), and protect
// each route with s.require(roles...).
package api

import (
	"context"
	"crypto/rand"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/revisor-sm/revisor/internal/ratelimit"
	"github.com/revisor-sm/revisor/tournament"
)

// DefaultBodyLimit is the largest request body the API reads: 1 MiB.
const DefaultBodyLimit = 1 << 20

// Config holds the server's settings. The zero value works: no admin token,
// 1 MiB bodies, logs discarded, the real clock.
type Config struct {
	// Logger receives one JSON line per request and the causes of server
	// errors. Nil discards them.
	Logger *slog.Logger
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
}

// Deps are the services the handlers call. Every field may be nil in tests
// of the parts that do not need it; a route whose dependency is missing
// answers 503.
type Deps struct {
	// Ready reports whether the database answers and its schema is current
	// (postgres.Readiness). /readyz answers 503 with its error.
	Ready func(context.Context) error
	// Idempotency stores first responses to requests with Idempotency-Key.
	Idempotency IdempotencyStore
	// Tokens resolves tournament-scoped tokens (organizer, referee, table).
	Tokens TokenResolver
	// Tournaments runs tournaments: players, rounds, results, standings
	// (api/tournament.go and the files beside it).
	Tournaments *tournament.Service
	// Referees runs referee tokens, disputes, rulings, correction windows,
	// draw commitments and the audit log (api/referee.go and beside it).
	Referees *tournament.Referees
	// Events feeds the web pages' live updates (postgres.Listener into a
	// tournament.Broker). Nil: pages do not update by themselves.
	Events tournament.EventSource
	// Failures counts wrong tokens per address across every process behind
	// one address (postgres.FailureCounts). Nil: each process counts alone.
	Failures ratelimit.Shared
	// Registry collects the metrics served at /metrics. The server registers
	// its HTTP metrics on it; register process and pool collectors beside
	// them. Nil: a registry of the server's own.
	Registry *prometheus.Registry
}

// Server is the HTTP handler of the API.
type Server struct {
	e       *echo.Echo
	cfg     Config
	deps    Deps
	log     *slog.Logger
	metrics *httpMetrics
	limiter *ratelimit.Failures
	web     *echo.Echo // the web pages (api/webmount.go)
	drain   *drain     // ends event streams on shutdown (middleware.go)
}

// New returns a server with every route registered.
func New(cfg Config, deps Deps) (*Server, error) {
	cfg = withDefaults(cfg)
	if deps.Registry == nil {
		deps.Registry = prometheus.NewRegistry()
	}
	m, err := newHTTPMetrics(deps.Registry)
	if err != nil {
		return nil, err
	}
	s := &Server{e: echo.New(), cfg: cfg, deps: deps, log: cfg.Logger, metrics: m,
		limiter: ratelimit.NewFailures(cfg.Now), drain: newDrain()}
	if deps.Failures != nil {
		s.limiter.Share(deps.Failures, func(err error) { s.log.Warn("count a wrong token", "error", err.Error()) })
	}
	s.e.HideBanner, s.e.HidePort = true, true
	s.e.Logger.SetOutput(io.Discard)
	s.e.HTTPErrorHandler = s.handleError
	s.e.Binder = binder{}
	s.e.IPExtractor = echo.ExtractIPDirect()
	if cfg.TrustProxy {
		s.e.IPExtractor = echo.ExtractIPFromXFFHeader()
	}
	s.e.Use(s.observe, s.recover, s.securityHeaders, s.cors(), s.limitBody, s.idempotent)
	s.routes()
	if err := s.mountWeb(); err != nil {
		return nil, err
	}
	return s, nil
}

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
	if cfg.NewRequestID == nil {
		cfg.NewRequestID = func() string { return rand.Text()[:16] }
	}
	return cfg
}

// routes registers every route: probes and metrics outside /api/v1, and one
// function per resource inside it.
func (s *Server) routes() {
	s.e.GET("/healthz", s.healthz)
	s.e.GET("/readyz", s.readyz)
	s.e.GET("/metrics", s.serveMetrics)
	v1 := s.e.Group("/api/v1")
	for _, register := range []func(*echo.Group){
		s.openAPIRoutes,
		s.validateRoutes,
		s.whoamiRoutes,
		s.tournamentRoutes,
		s.playerRoutes,
		s.roundRoutes,
		s.gameRoutes,
		s.standingsRoutes,
		s.refereeRoutes,
		s.disputeRoutes,
		s.auditRoutes,
		s.windowRoutes,
		// Add resources here, one function each (api/<resource>.go).
	} {
		register(v1)
	}
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.serveWeb(w, r) {
		return
	}
	s.e.ServeHTTP(w, r)
}

// Route is one registered route in OpenAPI notation: path parameters are
// written {name}.
type Route struct {
	Method, Path string
}

// Routes lists the registered routes, for the test that holds them and the
// OpenAPI document together.
func (s *Server) Routes() []Route {
	var routes []Route
	for _, r := range s.e.Routes() {
		if r.Method == echo.RouteNotFound {
			continue
		}
		routes = append(routes, Route{Method: r.Method, Path: openAPIPath(r.Path)})
	}
	return routes
}

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

// errMissingDependency is the cause logged when a route's service is nil.
var errMissingDependency = errors.New("the server was started without this service")

// unavailable is the answer of a route whose dependency is missing.
func unavailable(what string) error {
	return &tournament.Error{Kind: tournament.KindUnavailable, Code: "service_unavailable",
		Message: what + " is not available on this server", Err: errMissingDependency}
}
