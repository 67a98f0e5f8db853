// Package site is what every page of Revisor's web front shares: the
// templates and their rendering, the languages and their texts, the
// locale's dates and numbers, the session, the table's and the CSRF
// cookies, the render budget, the cache of snapshots and rendered pages,
// the live event streams, the error page and its texts, and the views of a
// tournament (standings, seating, score sheets) more than one set of pages
// shows. The pages themselves live beside it: package web (the public
// pages and the router's entry), web/table (the table page) and
// web/console (the organizer's console and the referees' pages), each
// with a Handler that embeds a *Site.
package site

import (
	"context"
	"crypto/subtle"
	"embed"
	"html/template"
	"log/slog"
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
	// Heartbeat is how often an event stream sends its "ping", so that
	// proxies keep it open and a page can tell a stream the network
	// dropped without a word; 0 means 25 seconds.
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

// Site is what the pages share; each package of pages embeds it in its
// Handler.
type Site struct {
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

// New parses the templates and returns the site, or an error naming the
// first dependency that is missing.
func New(cfg Config, deps Deps) (*Site, error) {
	if err := httpx.Required("web.New", deps); err != nil {
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
	return &Site{cfg: cfg, deps: deps, pages: pages, log: cfg.Logger,
		cache: cache, hub: newHub(cache, cfg.Now), streams: newStreams(cfg.Streams),
		budget: newRenderBudget(cfg.Renders, renderWait, renderFirstWait)}, nil
}

// Deps are the services the pages call.
func (h *Site) Deps() Deps { return h.deps }

// Door is the one path of every credential (Config.Door).
func (h *Site) Door() *httpx.Door { return h.cfg.Door }

// PublicURL is the address phones reach the server by (Config.PublicURL),
// empty when each request's own is.
func (h *Site) PublicURL() string { return h.cfg.PublicURL }

// Version is the version of now, as the event streams name versions:
// the server's clock in microseconds (live.go).
func (h *Site) Version() int64 { return h.cfg.Now().UnixMicro() }

// Invalidate forgets tid's snapshot and rendered pages after a write of
// this process, so that the page that follows it shows the write.
func (h *Site) Invalidate(tid string) { h.cache.invalidate(tid) }

// Secure sets the security headers of every page.
func (h *Site) Secure(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		hd := c.Response().Header()
		hd["Content-Security-Policy"] = pageCSP
		hd["X-Content-Type-Options"] = noSniff
		hd["Referrer-Policy"] = sameOrigin
		hd["X-Frame-Options"] = denyFrames
		return next(c)
	}
}

// The values of Secure's headers, made once (see entryHeaders).
var (
	pageCSP    = headerValue(ContentSecurityPolicy)
	noSniff    = headerValue("nosniff")
	sameOrigin = headerValue("same-origin")
	denyFrames = headerValue("DENY")
)

// csrfField is the hidden form field holding the CSRF token.
const csrfField = "_csrf"

// State loads everything a tournament's pages show in one consistent read.
func (h *Site) State(ctx context.Context, tid string) (*tournament.State, error) {
	return h.cache.load(ctx, tid, h.deps.Snapshots.Snapshot)
}

// pageStateKey is the echo context key of the snapshot a page request
// read last; pageAsOfKey of when that snapshot's read began.
const (
	pageStateKey = "revisor.web.state"
	pageAsOfKey  = "revisor.web.asof"
)

// pageState is State for the tournament of the request's path, kept for
// the request's page language (pageLanguageState): a page and its
// Language come from one snapshot, one read even while results arrive
// (each a change that keeps the snapshot from the cache).
func (h *Site) pageState(c echo.Context) (*tournament.State, error) {
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
func (h *Site) pageLanguageState(c echo.Context) (*tournament.State, error) {
	if st, ok := c.Get(pageStateKey).(*tournament.State); ok {
		return st, nil
	}
	return h.State(c.Request().Context(), c.Param("tid"))
}

// isAdminToken reports whether token is the server's admin token.
func (h *Site) isAdminToken(token string) bool {
	return len(h.cfg.AdminTokenHash) > 0 && token != "" &&
		subtle.ConstantTimeCompare(h.cfg.HashToken(token), h.cfg.AdminTokenHash) == 1
}
