// Package web is Revisor's web front, served by the same binary as the API:
// server-rendered pages (html/template, assets embedded) for players and
// spectators — the tournament, its standings, the seating with "find my
// table", each player's rounds, a big-screen view, printable score sheets —
// and the organizer's console behind the organizer token: registering
// players, drawing rounds, entering results, closing rounds, resolving ties,
// printing table cards and downloading the tournament.
//
// Pages work without JavaScript and under a strict Content-Security-Policy
// (no inline script or style). With JavaScript, standings and seating
// follow the tournament live through Server-Sent Events fed by a
// tournament.EventSource (PostgreSQL LISTEN/NOTIFY in production), and the
// seating search filters as one types. Texts are in Swedish and English.
//
// The package depends on package tournament (its services through the narrow
// interfaces in services.go) and package api/httpx only;
// package server mounts it on one router beside the JSON API (package api),
// its peer.
package web

import (
	"context"
	"crypto/subtle"
	"embed"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/internal/ratelimit"
	"github.com/revisor-sm/revisor/internal/tokens"
	"github.com/revisor-sm/revisor/tournament"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// serviceWorker is the path of the table page's service worker.
const serviceWorker = "/static/sw.js"

// ContentSecurityPolicy is sent with every page: nothing but the server's
// own scripts, styles and connections, no inline code, no framing.
const ContentSecurityPolicy = "default-src 'self'; base-uri 'none'; object-src 'none'; " +
	"form-action 'self'; frame-ancestors 'none'"

// Config holds the web front's settings.
type Config struct {
	// AdminTokenHash is the SHA-256 of the admin token (as api.Config);
	// empty: nobody logs in as admin.
	AdminTokenHash []byte
	// HashToken hashes a presented token the way AdminTokenHash was made.
	// Nil means tokens.HashToken.
	HashToken func(string) []byte
	// SecureCookies marks cookies Secure even on plain HTTP requests (set
	// it behind a TLS-terminating proxy). Requests over TLS always get
	// Secure cookies.
	SecureCookies bool
	// Logger receives failures the pages hide from visitors. Nil discards.
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Failures counts wrong tokens per client address. Pass the API's
	// counter (package server does) so that a guesser has one budget for the
	// login form and the API together, not one per door. Nil: a counter
	// of the pages' own.
	Failures *ratelimit.Failures
	// Door is the one path of every credential (httpx.Verify) over
	// Failures; pass the API's (package server does). Nil: a door over
	// Failures.
	Door *httpx.Door
	// Streams bound the live event streams held open at once; zero
	// fields take the defaults (streams.go).
	Streams StreamLimits
	// Heartbeat is how often an idle event stream sends a comment so that
	// proxies keep it open; 0 means 25 seconds.
	Heartbeat time.Duration
	// Renders bounds the pages' work under way at once — renders, answers
	// from the page cache, the public streams' messages (budget.go); 0:
	// one fewer than the cores, one at least.
	Renders int
	// PublicURL is the address phones reach the server by
	// (http(s)://host[:port]), which QR codes, cards and links carry.
	// Empty: each request's own scheme and host.
	PublicURL string
}

// Deps are the services the pages read and change, each a narrow interface
// declared in services.go; all are required (New says which one is
// missing), so that no handler checks for one. Package server fills the
// services from tournament's Service, Referees and Register.
type Deps struct {
	// Snapshots reads a tournament's snapshot, every page's read.
	Snapshots Snapshots
	// Tournaments reads tournaments and tables and identifies tokens.
	Tournaments Tournaments
	// Players creates tournaments and registers their players.
	Players Players
	// Rounds draws, scores, closes and downloads rounds.
	Rounds Rounds
	// Room reads the room view and runs the round clock.
	Room Room
	// Events feeds the live updates (a tournament.Broker when nothing
	// else publishes).
	Events tournament.EventSource
	// Referees runs referee tokens, disputes and rulings.
	Referees Referees
	// Table runs the table's commands and queries (app.Table).
	Table app.TablePlay
	// Once runs a table's post sent with an Idempotency-Key at most once
	// (app.Once).
	Once Idempotent
	// Register reads the register, series and ratings.
	Register Register
	// Transfer downloads whole tournaments.
	Transfer Transfer
}

// Handler serves the pages.
type Handler struct {
	cfg   Config
	deps  Deps
	pages map[string]*template.Template
	log   *slog.Logger
	cache *snapshots
	qrs   qrCodes
	// renders counts the pages rendered (Renders).
	renders atomic.Uint64
	hub     *hub // the public pages' streams (live.go)
	budget  *renderBudget
	streams *streams // the bounds of the live streams (streams.go)
}

// New parses the templates and returns the handler, or an error naming the
// first dependency that is missing.
func New(cfg Config, deps Deps) (*Handler, error) {
	if err := deps.check(); err != nil {
		return nil, err
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.HashToken == nil {
		cfg.HashToken = tokens.HashToken
	}
	if cfg.Failures == nil {
		cfg.Failures = ratelimit.NewFailures(cfg.Now)
	}
	if cfg.Door == nil {
		cfg.Door = httpx.NewDoor(cfg.Failures, nil, cfg.Now)
	}
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = 25 * time.Second
	}
	pages, err := parseTemplates(templateFS)
	if err != nil {
		return nil, err
	}
	cache := newSnapshots(deps.Events, cfg.Now)
	return &Handler{cfg: cfg, deps: deps, pages: pages, log: cfg.Logger,
		cache: cache, hub: newHub(cache, cfg.Now), streams: newStreams(cfg.Streams),
		budget: newRenderBudget(cfg.Renders, renderWait, renderFirstWait)}, nil
}

// check names the first dependency that is missing.
func (d Deps) check() error { return httpx.Required("web.New", d) }

// Register adds the pages' routes to e, outside /api/v1, each with the
// pages' security headers. The pages own the subtrees of their routes
// (/t/..., /lang/..., /admin/...): an unknown path there is an HTML 404,
// while any other unknown path is the API's (problem+json).
func (h *Handler) Register(e *echo.Echo) {
	static, _ := fs.Sub(staticFS, "static")
	files := http.StripPrefix("/static/", http.FileServerFS(static))
	e.GET("/static/*", func(c echo.Context) error {
		if strings.HasSuffix(c.Request().URL.Path, "/") {
			return echo.ErrNotFound // no directory listings
		}
		hd := c.Response().Header()
		hd.Set("Cache-Control", "public, max-age=3600")
		hd.Set("X-Content-Type-Options", "nosniff")
		if c.Request().URL.Path == serviceWorker {
			// The table page's worker controls the table pages, below
			// /t/; a new version reaches the phones at their next load.
			hd.Set("Service-Worker-Allowed", "/t/")
			hd.Set("Cache-Control", "no-cache")
			hd.Set("Content-Security-Policy", ContentSecurityPolicy)
		}
		files.ServeHTTP(c.Response(), c.Request())
		return nil
	})
	// No group middleware on the root: echo would add a catch-all route
	// for it and take every unknown path (and the API's 405s) from the API.
	with := func(mw ...echo.MiddlewareFunc) []echo.MiddlewareFunc {
		return append([]echo.MiddlewareFunc{h.secure}, mw...)
	}
	// Public pages answer HEAD too (link checkers, uptime monitors).
	page := func(path string, hf echo.HandlerFunc, mw ...echo.MiddlewareFunc) {
		e.GET(path, hf, with(mw...)...)
		e.HEAD(path, hf, with(mw...)...)
	}
	page("/", h.home)
	e.GET("/lang/:lang", h.switchLanguage, with()...)
	page("/t/:tid", h.tournamentPage, h.cachedPage)
	page("/t/:tid/standings", h.standingsPage, h.cachedPage)
	page("/t/:tid/standings.csv", h.standingsCSV)
	page("/t/:tid/seating", h.seatingPage, h.cachedPage)
	page("/t/:tid/players/:pid", h.playerPage, h.cachedPage)
	page("/t/:tid/screen", h.screenPage, h.cachedPage)
	page("/t/:tid/poster", h.posterPage)
	page("/s/:code", h.shortLink)
	page("/t/:tid/rounds/:n/sheets", h.sheetsPage, h.cachedAnyPage)
	e.GET("/t/:tid/events", h.events, with(h.admitStream)...)
	h.registerRoutes(page)

	csrf := h.csrf()
	e.GET("/login", h.loginPage, with(csrf)...)
	e.POST("/login", h.loginSubmit, with(csrf)...)
	e.POST("/logout", h.logout, with(csrf)...)
	e.GET("/admin", h.adminPage, with(csrf)...)
	e.POST("/admin/tournaments", h.adminCreate, with(csrf)...)
	h.consoleRoutes(e.Group("/t/:tid/console", with(csrf)...))
	h.disputeRoutes(e.Group("/t/:tid/disputes", with(csrf)...))
	h.tableRoutes(e.Group("/t/:tid/table", with(csrf)...))
	for _, subtree := range []string{"/t/*", "/s/*", "/lang/*", "/admin/*", "/people/*", "/series/*"} {
		e.RouteNotFound(subtree, echo.NotFoundHandler, with()...)
	}
}

// secure sets the security headers of every page.
func (h *Handler) secure(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		hd := c.Response().Header()
		hd["Content-Security-Policy"] = pageCSP
		hd["X-Content-Type-Options"] = noSniff
		hd["Referrer-Policy"] = sameOrigin
		hd["X-Frame-Options"] = denyFrames
		return next(c)
	}
}

// The values of secure's headers, made once (see entryHeaders).
var (
	pageCSP    = headerValue(ContentSecurityPolicy)
	noSniff    = headerValue("nosniff")
	sameOrigin = headerValue("same-origin")
	denyFrames = headerValue("DENY")
)

// csrfField is the hidden form field holding the CSRF token.
const csrfField = "_csrf"

// state loads everything a tournament's pages show in one consistent read.
func (h *Handler) state(ctx context.Context, tid string) (*tournament.State, error) {
	return h.cache.load(ctx, tid, h.deps.Snapshots.Snapshot)
}

// pageStateKey is the echo context key of the snapshot a page request
// read last; pageAsOfKey of when that snapshot's read began.
const (
	pageStateKey = "revisor.web.state"
	pageAsOfKey  = "revisor.web.asof"
)

// pageState is state for the tournament of the request's path, kept for
// the request's page language (pageLanguageState): a page and its
// language come from one snapshot, one read even while results arrive
// (each a change that keeps the snapshot from the cache).
func (h *Handler) pageState(c echo.Context) (*tournament.State, error) {
	st, at, err := h.cache.loadAt(c.Request().Context(), c.Param("tid"), h.deps.Snapshots.Snapshot)
	if err == nil {
		c.Set(pageStateKey, st)
		c.Set(pageAsOfKey, at)
	}
	return st, err
}

// pageLanguageState is the snapshot the request read last (pageState), else
// a read of its own: only for the page's language, which a snapshot read
// before a write of the same request still tells right.
func (h *Handler) pageLanguageState(c echo.Context) (*tournament.State, error) {
	if st, ok := c.Get(pageStateKey).(*tournament.State); ok {
		return st, nil
	}
	return h.state(c.Request().Context(), c.Param("tid"))
}

// isAdminToken reports whether token is the server's admin token.
func (h *Handler) isAdminToken(token string) bool {
	return len(h.cfg.AdminTokenHash) > 0 && token != "" &&
		subtle.ConstantTimeCompare(h.cfg.HashToken(token), h.cfg.AdminTokenHash) == 1
}
