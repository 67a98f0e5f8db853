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
// Package web is the entry: New builds the pages and Register mounts their
// routes. It serves the public pages, the login and the admin's page
// itself, and mounts the pages of web/table (the table page) and
// web/console (the console and the referees' pages); what they all share
// is web/site's. The pages depend on package tournament (its services
// through the narrow interfaces of web/site's services.go), app and
// api/httpx only; package server mounts them on one router beside the
// JSON API (package api), their peer.
package web

import (
	"embed"
	"io/fs"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/web/console"
	"github.com/revisor-sm/revisor/web/site"
	"github.com/revisor-sm/revisor/web/table"
)

//go:embed static
var staticFS embed.FS

// serviceWorker is the path of the table page's service worker.
const serviceWorker = "/static/sw.js"

// Config holds the web front's settings: site.Config's, which every page
// shares.
type Config site.Config

// Deps are the services the pages read and change: site.Deps, each a
// narrow interface declared in web/site's services.go; all are required
// (New says which one is missing), so that no handler checks for one.
// Package server fills the services from tournament's Service, Referees
// and Register.
type Deps site.Deps

// Handler serves the pages.
type Handler struct {
	*site.Site
	table   *table.Handler
	console *console.Handler
	// admin runs the admin's form to create a tournament once per form
	// key (app.Console).
	admin *app.Console
}

// New parses the templates and returns the handler, or an error naming the
// first dependency that is missing.
func New(cfg Config, deps Deps) (*Handler, error) {
	s, err := site.New(site.Config(cfg), site.Deps(deps))
	if err != nil {
		return nil, err
	}
	return &Handler{Site: s, table: table.New(s), console: console.New(s),
		admin: app.NewConsole(app.ConsoleServices{Tournaments: deps.Players}, deps.Once)}, nil
}

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
			hd.Set("Content-Security-Policy", site.ContentSecurityPolicy)
		}
		files.ServeHTTP(c.Response(), c.Request())
		return nil
	})
	// No group middleware on the root: echo would add a catch-all route
	// for it and take every unknown path (and the API's 405s) from the API.
	with := func(mw ...echo.MiddlewareFunc) []echo.MiddlewareFunc {
		return append([]echo.MiddlewareFunc{h.Secure}, mw...)
	}
	// Public pages answer HEAD too (link checkers, uptime monitors).
	page := func(path string, hf echo.HandlerFunc, mw ...echo.MiddlewareFunc) {
		e.GET(path, hf, with(mw...)...)
		e.HEAD(path, hf, with(mw...)...)
	}
	page("/", h.home)
	e.GET("/lang/:lang", h.switchLanguage, with()...)
	page("/t/:tid", h.tournamentPage, h.CachedPage)
	page("/t/:tid/standings", h.standingsPage, h.CachedPage)
	page("/t/:tid/standings.csv", h.standingsCSV)
	page("/t/:tid/seating", h.seatingPage, h.CachedPage)
	page("/t/:tid/players/:pid", h.playerPage, h.CachedPage)
	page("/t/:tid/screen", h.console.ScreenPage, h.CachedPage)
	page("/t/:tid/poster", h.posterPage)
	page("/s/:code", h.shortLink)
	page("/t/:tid/rounds/:n/sheets", h.console.SheetsPage, h.CachedAnyPage)
	e.GET("/t/:tid/events", h.Events, with(h.AdmitStream)...)
	h.registerRoutes(page)

	csrf := h.CSRF()
	e.GET("/login", h.LoginPage, with(csrf)...)
	e.POST("/login", h.LoginSubmit, with(csrf)...)
	e.POST("/logout", h.Logout, with(csrf)...)
	e.GET("/admin", h.adminPage, with(csrf)...)
	e.POST("/admin/tournaments", h.adminCreate, with(csrf)...)
	h.console.Routes(e.Group("/t/:tid/console", with(csrf)...))
	h.console.DisputeRoutes(e.Group("/t/:tid/disputes", with(csrf)...))
	h.table.Routes(e.Group("/t/:tid/table", with(csrf)...))
	for _, subtree := range []string{"/t/*", "/s/*", "/lang/*", "/admin/*", "/people/*", "/series/*"} {
		e.RouteNotFound(subtree, echo.NotFoundHandler, with()...)
	}
}
