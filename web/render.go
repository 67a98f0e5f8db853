package web

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/tournament"
)

// page is what every template receives: the layout's fields and the
// page's own Data.
type page struct {
	Lang  string
	Title string
	// Here is the request's path and query, for the language switch.
	Here       string
	Tournament *tournament.Tournament
	Nav        string // the active item of the tournament menu
	// Events is the URL of the page's event stream when it updates live.
	Events string
	// Script is a page's own script under /static/, beside app.js.
	Script string
	// Refresh is a meta refresh ("15;url=...") for the big screen.
	Refresh   string
	CSRF      string
	BodyClass string
	// Organizer is true when the visitor is logged in as this
	// tournament's organizer (or the admin).
	Organizer bool
	Data      any
}

// T returns the text of key in the page's language.
func (p *page) T(key string, args ...any) string { return translate(p.Lang, key, args...) }

// loc is the page's locale: its language, times in the tournament's time
// zone (a page of no tournament: Stockholm's).
func (p *page) loc() locale {
	if p.Tournament != nil {
		return localeOf(p.Lang, p.Tournament.Settings.Location())
	}
	return localeOf(p.Lang, stockholm)
}

// Date, Time, DateTime and Decimal format for the page's language (see
// locale); templates call them as {{.Date t}}.
func (p *page) Date(t time.Time) string         { return p.loc().Date(t) }
func (p *page) Time(t time.Time) string         { return p.loc().Time(t) }
func (p *page) DateTime(t time.Time) string     { return p.loc().DateTime(t) }
func (p *page) Decimal(f float64, d int) string { return p.loc().Decimal(f, d) }

// Day writes a date that is a day, not an instant (a tournament's date),
// read the same in every time zone.
func (p *page) Day(t time.Time) string { return localeOf(p.Lang, time.UTC).Date(t) }

// Languages lists the language switch's entries.
func (p *page) Languages() []language_ {
	out := make([]language_, len(languages))
	for i, l := range languages {
		out[i] = language_{Code: l, Name: translate(l, "lang.name"), Current: l == p.Lang,
			URL: "/lang/" + l + "?next=" + url.QueryEscape(p.Here)}
	}
	return out
}

// language_ is one entry of the language switch.
type language_ struct {
	Code, Name, URL string
	Current         bool
}

// newPage starts a page for the request.
func (h *Handler) newPage(c echo.Context, title string) *page {
	p := &page{Lang: h.language(c), Here: c.Request().URL.RequestURI()}
	if tok, ok := c.Get(middleware.DefaultCSRFConfig.ContextKey).(string); ok {
		p.CSRF = tok
	}
	p.Title = p.T(title)
	return p
}

// templateFuncs are the helpers templates may call.
var templateFuncs = template.FuncMap{
	"add": func(a, b int) int { return a + b },
	"seq": func(n int) []int {
		out := make([]int, n)
		for i := range out {
			out[i] = i + 1
		}
		return out
	},
	"lower": strings.ToLower,
	// pair passes two values to a template called from a range.
	"pair": func(a, b any) struct{ A, B any } { return struct{ A, B any }{a, b} },
	// list makes a list of strings in a template.
	"list": func(xs ...string) []string { return xs },
}

// parseTemplates parses each page template together with the layout.
func parseTemplates(fsys fs.FS) (map[string]*template.Template, error) {
	names, err := fs.Glob(fsys, "templates/*.html")
	if err != nil {
		return nil, err
	}
	pages := make(map[string]*template.Template)
	for _, n := range names {
		base := strings.TrimSuffix(path.Base(n), ".html")
		if base == "layout" {
			continue
		}
		t, err := template.New(base).Funcs(templateFuncs).ParseFS(fsys, "templates/layout.html", n)
		if err != nil {
			return nil, fmt.Errorf("web: template %s: %w", n, err)
		}
		pages[base] = t
	}
	return pages, nil
}

// render writes the page named name with status.
func (h *Handler) render(c echo.Context, status int, name string, p *page) error {
	t, ok := h.pages[name]
	if !ok {
		return fmt.Errorf("web: no template %q", name)
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout", p); err != nil {
		h.log.Error("render page", "page", name, "error", err.Error())
		return c.String(http.StatusInternalServerError, "the page could not be rendered")
	}
	if pc, ok := c.Get(pageCacheKey).(*pageCacheSlot); ok && status == http.StatusOK {
		h.cache.putPage(pc.tid, pc.key, pc.gen, pc.at, buf.Bytes())
	}
	return h.writePage(c, status, buf.Bytes())
}

// writePage writes a rendered page.
func (h *Handler) writePage(c echo.Context, status int, body []byte) error {
	hd := c.Response().Header()
	if hd.Get("Cache-Control") == "" {
		hd.Set("Cache-Control", "no-cache")
	}
	hd.Set("Vary", "Accept-Language, Cookie")
	return c.HTMLBlob(status, body)
}

// errorData is the error page's data.
type errorData struct {
	Status  int
	Heading string
	Message string
}

// fail renders an error page for err: the application's message for
// visitor errors, nothing of the cause for server errors.
// roundNumber reads the path's round number {n}; a path that is not a
// number names no round (404 round_not_found).
func roundNumber(c echo.Context) (int, error) {
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil {
		return 0, tournament.RoundParamNotFound(c.Param("n"))
	}
	return n, nil
}

func (h *Handler) fail(c echo.Context, err error) error {
	status := httpx.StatusOf(err)
	p := h.newPage(c, "err.title")
	msg := errorText(p.Lang, err)
	var he *echo.HTTPError
	if errors.As(err, &he) && status < 500 {
		msg = p.T(fmt.Sprintf("err.%d", status))
	}
	if status >= 500 {
		h.log.Error("page failed", "path", c.Request().URL.Path, "error", err.Error())
		msg = p.T("e.internal")
	}
	heading := p.T(fmt.Sprintf("err.%d", status))
	if strings.HasPrefix(heading, "err.") {
		heading = p.T("err.title")
	}
	p.Title = heading
	p.Data = errorData{Status: status, Heading: heading, Message: msg}
	return h.render(c, status, "error", p)
}

// HandleError is the web pages' echo HTTPErrorHandler: errors that reach
// it (unknown routes, wrong methods, panics) leave as an HTML error page.
func (h *Handler) HandleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	c.Response().Header().Set("Content-Security-Policy", ContentSecurityPolicy)
	_ = h.fail(c, err)
}

// pageCacheKey is the echo context key of a cacheable page's slot.
const pageCacheKey = "revisor.web.pagecache"

type pageCacheSlot struct {
	tid, key string
	gen      uint64
	at       time.Time
}

// cachedPage serves a page of a tournament from the cache of rendered
// pages while the tournament has not changed, and offers the page it
// renders otherwise. The pages it wraps show the same to every visitor of
// a language — or, for the console's pages with forms, to the same browser
// (the key holds its CSRF token); the console checks the organizer before.
func (h *Handler) cachedPage(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		tid := c.Param("tid")
		key := preferenceKey(c.Request()) + " " + c.Request().URL.RequestURI()
		if tok, ok := c.Get(middleware.DefaultCSRFConfig.ContextKey).(string); ok {
			key += " " + tok // a page with forms is the visitor's own
		}
		if body, ok := h.cache.page(tid, key); ok {
			return h.writePage(c, http.StatusOK, body)
		}
		if gen, ok := h.cache.generation(tid); ok {
			c.Set(pageCacheKey, &pageCacheSlot{tid: tid, key: key, gen: gen, at: h.cfg.Now()})
		}
		return next(c)
	}
}
