package site

import (
	"bytes"
	"context"
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

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/tournament"
)

// Page is what every template receives: the layout's fields and the
// page's own Data.
type Page struct {
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
	Refresh string
	// Reread, with Refresh, has static/app.js read the page's live part
	// again every Reread seconds in place, and keeps the meta refresh for
	// browsers without scripts (a page that reloads itself under a
	// reader fails WCAG 2.2.1).
	Reread    int
	CSRF      string
	BodyClass string
	// Organizer is true when the visitor is logged in as this
	// tournament's organizer (or the admin).
	Organizer bool
	// AsOf is, on a live page, when its snapshot's read began in
	// microseconds since 1970: the page holds every change announced
	// before (live.go).
	AsOf int64
	Data any
}

// T returns the text of key in the page's language.
func (p *Page) T(key string, args ...any) string { return Translate(p.Lang, key, args...) }

// TN is T for a count: the text key+".one" when n is 1 and the language
// has one ("1 table with an open dispute"), else key's; n is the first
// argument of either. A text that names its count after other arguments
// takes them after n and reorders them with explicit indexes: c.tie,
// TN("c.tie", places, table), is "Table %[2]d: ... (%[1]d places go on)".
func (p *Page) TN(key string, n int, args ...any) string {
	if n == 1 {
		if s := Translate(p.Lang, key+".one", append([]any{n}, args...)...); s != key+".one" {
			return s
		}
	}
	return Translate(p.Lang, key, append([]any{n}, args...)...)
}

// Loc is the page's locale: its language, times in the tournament's time
// zone (a page of no tournament: Stockholm's).
func (p *Page) Loc() Locale {
	if p.Tournament != nil {
		return localeOf(p.Lang, p.Tournament.Settings.Location())
	}
	return localeOf(p.Lang, stockholm)
}

// Date, Time, DateTime and Decimal format for the page's language (see
// locale); templates call them as {{.Date t}}.
func (p *Page) Date(t time.Time) string         { return p.Loc().Date(t) }
func (p *Page) Time(t time.Time) string         { return p.Loc().Time(t) }
func (p *Page) DateTime(t time.Time) string     { return p.Loc().DateTime(t) }
func (p *Page) Decimal(f float64, d int) string { return p.Loc().Decimal(f, d) }

// Day writes a date that is a day, not an instant (a tournament's date),
// read the same in every time zone.
func (p *Page) Day(t time.Time) string { return localeOf(p.Lang, time.UTC).Date(t) }

// Languages lists the language switch's entries.
func (p *Page) Languages() []language_ {
	out := make([]language_, len(Languages))
	for i, l := range Languages {
		out[i] = language_{Code: l, Name: Translate(l, "lang.name"), Current: l == p.Lang,
			URL: "/lang/" + l + "?next=" + url.QueryEscape(p.Here)}
	}
	return out
}

// language_ is one entry of the language switch.
type language_ struct {
	Code, Name, URL string
	Current         bool
}

// NewPage starts a page for the request.
func (h *Site) NewPage(c echo.Context, title string) *Page {
	p := &Page{Lang: h.Language(c), Here: c.Request().URL.RequestURI()}
	if tok, ok := c.Get(csrfContextKey).(string); ok {
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

// Render writes the page named name with status.
func (h *Site) Render(c echo.Context, status int, name string, p *Page) error {
	t, ok := h.pages[name]
	if !ok {
		return fmt.Errorf("web: no template %q", name)
	}
	// A page that answers a form (a refused POST) is not followed live:
	// a live page fetches its own URL again, and the form's action is not
	// a page (the console's round close, answered with its ties, fetched
	// itself as 404s at its stream's hello).
	if m := c.Request().Method; m != http.MethodGet && m != http.MethodHead {
		p.Events = ""
	}
	if at, ok := c.Get(pageAsOfKey).(time.Time); ok && p.Events != "" && p.AsOf == 0 {
		p.AsOf = at.UnixMicro()
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout", p); err != nil {
		h.log.Error("render page", "page", name, "error", err.Error())
		return c.String(http.StatusInternalServerError, "the page could not be rendered")
	}
	h.renders.Add(1)
	if pc, ok := c.Get(pageCacheKey).(*pageCacheSlot); ok && status == http.StatusOK {
		e := h.cache.putPage(pc.tid, pc.key, pc.stamp, pc.class, pc.at, p.AsOf, buf.Bytes())
		return h.writeEntry(c, e)
	}
	return h.writePage(c, status, buf.Bytes())
}

// Renders counts the pages rendered since the start (for the metrics).
func (h *Site) Renders() uint64 { return h.renders.Load() }

// writePage writes a rendered page.
func (h *Site) writePage(c echo.Context, status int, body []byte) error {
	pageHeaders(c)
	return c.HTMLBlob(status, body)
}

func pageHeaders(c echo.Context) {
	hd := c.Response().Header()
	if _, ok := hd["Cache-Control"]; !ok {
		hd["Cache-Control"] = noCache
	}
	hd["Vary"] = pageVary
}

// The values of pageHeaders, made once (see entryHeaders).
var (
	noCache  = headerValue("no-cache")
	pageVary = headerValue("Accept-Language, Cookie, Accept-Encoding")
)

// writeEntry writes a page of the cache: with its ETag, so that a request
// that holds the same page already (If-None-Match) gets 304 and no body;
// compressed for those who accept gzip; a live page with its version in
// X-Revisor-As-Of too (its data-as-of). Its headers' values are the
// entry's, made once; with its Content-Length the body is written whole,
// not in chunks.
func (h *Site) writeEntry(c echo.Context, e *pageEntry) error {
	pageHeaders(c)
	hd := c.Response().Header()
	if e.hdr.asOf != nil {
		hd["X-Revisor-As-Of"] = e.hdr.asOf
	}
	req := c.Request()
	gz := e.gz != nil && acceptsGzip(req.Header.Get("Accept-Encoding"))
	etag, length, body := e.hdr.etag, e.hdr.length, e.body
	if gz {
		etag, length, body = e.hdr.gzEtag, e.hdr.gzLength, e.gz
	}
	hd["Etag"] = etag
	if inm := req.Header.Get("If-None-Match"); inm != "" && (etagMatch(inm, e.etag) || etagMatch(inm, etag[0])) {
		return c.NoContent(http.StatusNotModified)
	}
	if gz {
		hd["Content-Encoding"] = gzipEncoding
	}
	hd["Content-Type"] = htmlType
	hd["Content-Length"] = length
	c.Response().WriteHeader(http.StatusOK)
	_, err := c.Response().Write(body)
	return err
}

var (
	gzipEncoding = headerValue("gzip")
	htmlType     = headerValue(echo.MIMETextHTMLCharsetUTF8)
)

// acceptsGzip reports whether an Accept-Encoding header takes gzip.
func acceptsGzip(header string) bool {
	for t := range strings.SplitSeq(header, ",") {
		name, q, _ := strings.Cut(strings.TrimSpace(t), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") {
			return strings.ReplaceAll(strings.TrimSpace(q), " ", "") != "q=0"
		}
	}
	return false
}

// etagMatch reports whether an If-None-Match header names etag (or *).
func etagMatch(header, etag string) bool {
	for t := range strings.SplitSeq(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

// errorData is the error page's data.
type errorData struct {
	Status  int
	Heading string
	Message string
}

// RoundNumber reads the path's round number {n}; a path that is not a
// number names no round (404 round_not_found).
func RoundNumber(c echo.Context) (int, error) {
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil {
		return 0, tournament.RoundParamNotFound(c.Param("n"))
	}
	return n, nil
}

// Fail renders an error page for err: the application's message for
// visitor errors, nothing of the cause for server errors.
func (h *Site) Fail(c echo.Context, err error) error {
	status := httpx.StatusOf(err)
	p := h.NewPage(c, "err.title")
	msg := ErrorText(p.Lang, err)
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
	return h.Render(c, status, "error", p)
}

// HandleError is the web pages' echo HTTPErrorHandler: errors that reach
// it (unknown routes, wrong methods, panics) leave as an HTML error page.
func (h *Site) HandleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	c.Response().Header().Set("Content-Security-Policy", ContentSecurityPolicy)
	_ = h.Fail(c, err)
}

// pageCacheKey is the echo context key of a cacheable page's slot.
const pageCacheKey = "revisor.web.pagecache"

type pageCacheSlot struct {
	tid, key string
	stamp    stamp
	class    pageClass
	at       time.Time
}

// refreshHeader marks a page's live refresh by static/app.js, after an
// event: such fetches wait for the page's next render, at most one every
// renderEvery, and share it.
const refreshHeader = "X-Revisor-Refresh"

// CachedPage serves a live public page (livePage) from the cache of
// rendered pages; CachedAnyPage a page that is stale after any change.
func (h *Site) CachedPage(next echo.HandlerFunc) echo.HandlerFunc {
	return h.pageCache(livePage, next)
}

// CachedAnyPage serves a page that is stale after any change from the
// cache of rendered pages (pageCache).
func (h *Site) CachedAnyPage(next echo.HandlerFunc) echo.HandlerFunc {
	return h.pageCache(anyPage, next)
}

// pageCache serves a page of a tournament from the cache of rendered
// pages while nothing it shows has changed, and renders it otherwise, once
// for all the requests that want it meanwhile. The pages it wraps show the
// same to every visitor of a language — or, for the console's pages with
// forms, to the same browser (the key holds its CSRF token); the console
// checks the organizer before.
func (h *Site) pageCache(class pageClass, next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		tid := c.Param("tid")
		key := preferenceKey(c.Request()) + " " + c.Request().URL.RequestURI()
		if tok, ok := c.Get(csrfContextKey).(string); ok {
			key += " " + tok // a page with forms is the visitor's own
		}
		refresh := c.Request().Header.Get(refreshHeader) == "1"
		ctx := c.Request().Context()
		for {
			t := h.cache.pageFor(tid, key, class, refresh)
			switch {
			case t.entry != nil:
				return h.answer(c, t.entry)
			case t.wait != nil:
				select {
				case <-t.woken:
				case <-ctx.Done():
					return ctx.Err()
				}
				if e := t.wait.entry; e != nil {
					return h.answer(c, e)
				}
				continue // its render was not kept: ask again
			}
			defer h.cache.endRender(tid, key, t)
			if err := sleep(ctx, t.due.Sub(h.cfg.Now())); err != nil {
				return err
			}
			release, ok := h.budget.take(ctx, t.last == nil)
			if !ok {
				return h.overBudget(c, t.last)
			}
			defer release()
			if t.cached {
				c.Set(pageCacheKey, &pageCacheSlot{tid: tid, key: key, stamp: t.stamp, class: class, at: h.cfg.Now()})
			}
			return next(c)
		}
	}
}

// answer writes a page of the cache within the pages' budget (budget.go,
// share): the thousand fetches that follow a result take a core in turn,
// not both at once ahead of the tables' writes.
func (h *Site) answer(c echo.Context, e *pageEntry) error {
	done := h.budget.share(c.Request().Context())
	defer done()
	return h.writeEntry(c, e)
}

// overBudget answers a page whose render found no place in the budget
// (budget.go): the page as rendered last, else 503 busy.
func (h *Site) overBudget(c echo.Context, last *pageEntry) error {
	if err := c.Request().Context().Err(); err != nil {
		return err
	}
	if last != nil {
		return h.writeEntry(c, last)
	}
	c.Response().Header().Set("Retry-After", "2")
	return h.Fail(c, tournament.Errorf(tournament.KindUnavailable, tournament.CodeBusy,
		"the server is drawing as many pages as it can; try again in a moment"))
}

// sleep waits for d, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// TournamentPageStart loads the snapshot and starts a page of the
// tournament's menu.
func (h *Site) TournamentPageStart(c echo.Context, title, nav string) (*Page, *tournament.State, error) {
	st, err := h.pageState(c)
	if err != nil {
		return nil, nil, err
	}
	p := h.NewPage(c, title)
	p.Tournament, p.Nav = &st.Tournament, nav
	return p, st, nil
}

// RoundPageStart is TournamentPageStart for a page of round {n} of the
// path, which must have been drawn.
func (h *Site) RoundPageStart(c echo.Context, title string) (*Page, *tournament.State, *tournament.Round, error) {
	p, st, err := h.TournamentPageStart(c, title, "")
	if err != nil {
		return nil, nil, nil, err
	}
	n, err := strconv.Atoi(c.Param("n"))
	r := RoundOf(st, n)
	if err != nil || n < 1 || r == nil {
		return nil, nil, nil, tournament.RoundParamNotFound(c.Param("n"))
	}
	return p, st, r, nil
}

// EventsURL is the event stream of the room's page, which hears every
// change; LivePageEvents that of a public page (live.go).
func EventsURL(tid string) string { return "/t/" + PathEscape(tid) + "/events" }

// LivePageEvents is the event stream of a public page (live.go).
func LivePageEvents(tid string) string { return EventsURL(tid) + "?for=pages" }
