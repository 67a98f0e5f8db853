package web_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// Browser tests drive Debian's Chromium. They fail when it is missing,
// unless REVISOR_BROWSER_TESTS=off says to skip them; the test script
// installs it (apt-get install -y chromium chromium-headless-shell).
//
// Most run in Chromium's headless shell (chromium-headless-shell): the same
// Blink and V8 as the browser, without the browser's own machinery, at less
// than half its CPU a page (the tests of the day that measured it: the
// phone menu's walk 11 s of CPU against 26, the accessibility walk 75 s
// against 132). The shell has no back-forward cache, so
// a test of what the cache does to a page opens the full browser
// (newFullChrome).

// browserKind names the two browsers a test may open.
type browserKind int

const (
	headlessShell browserKind = iota // chromium-headless-shell
	fullBrowser                      // chromium in its headless mode
)

// chromiumPath finds a browser of the kind: $REVISOR_CHROMIUM_SHELL or
// chromium-headless-shell on $PATH for the shell (the full browser when the
// shell is not installed), $REVISOR_CHROMIUM or chromium on $PATH for the
// full browser.
func chromiumPath(t *testing.T, kind browserKind) string {
	t.Helper()
	if kind == headlessShell {
		if p := os.Getenv("REVISOR_CHROMIUM_SHELL"); p != "" {
			return p
		}
		if p, err := exec.LookPath("chromium-headless-shell"); err == nil {
			return p
		}
	}
	if p := os.Getenv("REVISOR_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("REVISOR_BROWSER_TESTS") == "off" {
		t.Skip("chromium not found and REVISOR_BROWSER_TESTS=off")
	}
	t.Fatal("chromium not found: install it (apt-get install -y chromium chromium-headless-shell), set REVISOR_CHROMIUM, " +
		"or set REVISOR_BROWSER_TESTS=off to skip the browser tests")
	return ""
}

// chrome is a headless browser tab with a record of what went wrong in it.
type chrome struct {
	ctx context.Context
	t   *testing.T
	mu  sync.Mutex
	bad []string // CSP violations, script errors and exceptions
	// allowed are messages a test expects (a 422 page it provokes).
	allowed []string
}

// allow lets the browser log messages containing msg without failing the
// test: a refusal the test provokes on purpose.
func (c *chrome) allow(msg string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.allowed = append(c.allowed, msg)
}

// adminLogin logs the browser in at base's /login with the admin token and
// waits for the admin page's form.
func (c *chrome) adminLogin(base string) {
	c.do("admin logs in", chromedp.Navigate(base+"/login"), chromedp.SendKeys(chromedp.ID("token"), adminToken),
		chromedp.Submit(chromedp.ID("token")), chromedp.WaitVisible(chromedp.ID("name")))
}

// sharedChromium is one of the package's headless browsers, started by the first
// test that needs it and stopped by TestMain: each test gets a browser
// context of its own in it (its own cookies, storage and cache), which costs
// a tab rather than a process, and tests in parallel use it at once.
type sharedChromium struct {
	once sync.Once
	ctx  context.Context // the browser's first tab; tests make children of it
	err  error
	stop func()
}

// browsers are the package's two: the headless shell and the full browser.
var browsers [2]sharedChromium

// TestMain stops the package's browsers after the tests.
func TestMain(m *testing.M) {
	code := dbtest.Main(m)
	for i := range browsers {
		if browsers[i].stop != nil {
			browsers[i].stop()
		}
	}
	os.Exit(code)
}

// sharedBrowser returns the context of the package's browser of the kind,
// starting it on the first call.
func sharedBrowser(t *testing.T, kind browserKind) context.Context {
	t.Helper()
	path := chromiumPath(t, kind)
	b := &browsers[kind]
	b.once.Do(func() {
		dir, err := os.MkdirTemp("", "revisor-chromium-")
		if err != nil {
			b.err = err
			return
		}
		opts := []chromedp.ExecAllocatorOption{
			chromedp.ExecPath(path),
			chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("no-default-browser-check", true),
			// Tabs of parallel tests are in the background; their timers must run.
			chromedp.Flag("disable-background-timer-throttling", true),
			chromedp.Flag("disable-renderer-backgrounding", true),
			chromedp.Flag("disable-backgrounding-occluded-windows", true),
			chromedp.UserDataDir(dir),
			chromedp.WindowSize(1366, 900),
		}
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancel := chromedp.NewContext(actx)
		b.ctx = ctx
		b.stop = func() { cancel(); cancelAlloc(); os.RemoveAll(dir) }
		b.err = chromedp.Do(ctx)
	})
	if b.err != nil {
		t.Fatalf("start %s: %v", path, b.err)
	}
	return b.ctx
}

// newChrome opens a fresh browser context (no cookies, no storage) in the
// package's Chromium with a viewport of width×height.
func newChrome(t *testing.T, width, height int) *chrome {
	t.Helper()
	return openChrome(t, headlessShell, width, height)
}

// newFullChrome is newChrome in the full browser, for a test of what only
// it does (its back-forward cache).
func newFullChrome(t *testing.T, width, height int) *chrome {
	t.Helper()
	return openChrome(t, fullBrowser, width, height)
}

// openChrome opens a fresh browser context in the package's browser of the
// kind.
func openChrome(t *testing.T, kind browserKind, width, height int) *chrome {
	t.Helper()
	// scripts/test.sh runs the browser tests by this prefix, once and
	// without -race, and the rest with -race but without them.
	if !strings.HasPrefix(t.Name(), "TestBrowser") {
		t.Fatalf("%s opens Chromium: a browser test's name starts with TestBrowser", t.Name())
	}
	ctx, cancel := chromedp.NewContext(sharedBrowser(t, kind), chromedp.WithNewBrowserContext())
	ctx, cancelTimeout := context.WithTimeout(ctx, 6*time.Minute)
	t.Cleanup(func() { cancelTimeout(); cancel() })
	c := &chrome{ctx: ctx, t: t}
	if err := chromedp.Listen(ctx, c.watch); err != nil {
		t.Fatalf("open a browser context: %v", err)
	}
	// A window is never narrower than about 500 px: the viewport is emulated.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), int64(height))); err != nil {
		t.Fatalf("viewport %d×%d: %v", width, height, err)
	}
	t.Cleanup(func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, b := range c.bad {
			t.Errorf("in the browser: %s", b)
		}
	})
	failureShot(t, ctx, "")
	return c
}

// watch records CSP violations, errors logged and uncaught exceptions.
func (c *chrome) watch(ev any) {
	var msg string
	switch e := ev.(type) {
	case *log.EventEntryAdded:
		if e.Entry.Level == log.EntryLevelError || strings.Contains(e.Entry.Text, "Content Security Policy") {
			msg = fmt.Sprintf("%s %s: %s (%s)", e.Entry.Source, e.Entry.Level, e.Entry.Text, e.Entry.URL)
		}
	case *runtime.EventExceptionThrown:
		msg = "exception: " + e.ExceptionDetails.Text
		if e.ExceptionDetails.Exception != nil {
			msg += " " + e.ExceptionDetails.Exception.Description
		}
	}
	if msg != "" {
		c.mu.Lock()
		for _, a := range c.allowed {
			if strings.Contains(msg, a) {
				c.mu.Unlock()
				return
			}
		}
		c.bad = append(c.bad, msg)
		c.mu.Unlock()
	}
}

// do runs actions and fails the test on an error.
func (c *chrome) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	c.t.Helper()
	if err := chromedp.Do(c.ctx, actions...); err != nil {
		c.t.Fatalf("%s: %v", what, err)
	}
}

// clickAndWait clicks the element sel, which leaves the page, and waits
// until the next page is loaded and cond (JavaScript) holds there.
func (c *chrome) clickAndWait(what, sel, cond string) {
	c.t.Helper()
	c.do(what+": mark the page", chromedp.Evaluate[chromedp.Void](`window.revisorLeaving = true`))
	c.do(what, chromedp.Click(chromedp.CSS(sel)))
	wait := `!window.revisorLeaving && document.readyState === "complete" && (` + cond + `)`
	deadline := time.Now().Add(10 * time.Second)
	for {
		// Evaluations fail while the page navigates; try again until it is there.
		if ok, err := chromedp.Run(c.ctx, chromedp.Evaluate[bool](wait)); err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("%s: the next page did not come within 10s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// eval evaluates a JavaScript expression to a string.
func (c *chrome) eval(expr string) string {
	c.t.Helper()
	v, err := chromedp.Run(c.ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		c.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// screenshotsWanted says whether the tests write their screenshots:
// REVISOR_SCREENSHOTS=on (any value but empty or "off") asks for them. A
// full-page PNG costs the browser about twice a page's load (about 145 ms
// on this machine against 68 ms), and a run takes over 500 of them that
// nobody looks at unless a page is being changed, so they are left out
// unless asked for. A browser test that fails writes one of the page it
// ended on all the same (failureShot).
func screenshotsWanted() bool {
	v := os.Getenv("REVISOR_SCREENSHOTS")
	return v != "" && v != "off"
}

// failureShot writes a screenshot of ctx's page, named after the test,
// when t failed: what the browser showed at the end. It is registered
// after the context's cancel, so that it runs before it.
func failureShot(t *testing.T, ctx context.Context, who string) {
	t.Cleanup(func() {
		if !t.Failed() || ctx.Err() != nil {
			return
		}
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		png, err := chromedp.Run(sctx, chromedp.FullScreenshot(100)) // 100: a PNG (below it, a JPEG)
		if err != nil {
			t.Logf("no screenshot of the failed page: %v", err)
			return
		}
		name := "FAILED-" + strings.NewReplacer("/", "-", " ", "-").Replace(t.Name()+who)
		writeArtifact(t, name, png)
	})
}

// artifactsDir is where screenshots go: $REVISOR_ARTIFACTS, else a
// directory under the system's temporary directory.
func artifactsDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("REVISOR_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "revisor-artifacts")
	}
	dir = filepath.Join(dir, "web")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// screenshot writes a full-page PNG of the current page, when
// screenshots are wanted.
func (c *chrome) screenshot(name string) {
	c.t.Helper()
	if !screenshotsWanted() {
		return
	}
	png, err := chromedp.Run(c.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		c.t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(artifactsDir(c.t), name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		c.t.Fatal(err)
	}
	c.t.Logf("screenshot: %s", path)
}

// TestBrowserStandingsUpdateLive opens the standings in Chromium, submits
// a result, and checks that the page shows it within 2 seconds without a
// reload.
func TestBrowserStandingsUpdateLive(t *testing.T) {
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	c := newChrome(t, 1280, 900)
	c.do("open standings", chromedp.Navigate(s.URL+"/t/"+f.ID+"/standings"),
		chromedp.WaitVisible(chromedp.CSS("#standings")))
	if _, err := chromedp.Run(c.ctx, chromedp.Poll[bool](`document.body.dataset.live === "on"`,
		chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		t.Fatalf("the page's event stream did not open: %v", err)
	}
	c.do("mark the page", chromedp.Evaluate[chromedp.Void](`window.revisorMark = 1`))
	tb := f.Round.Tables[0]
	p := tb.Players[0]
	// sm ranks by the round's placement points: the column that moves.
	cell := fmt.Sprintf(`document.querySelector('tr[data-player="%s"] td.rpp').textContent.trim()`, p)
	if got := c.eval(cell); got != "0" {
		t.Fatalf("round points of %s before the result = %q, want 0", p, got)
	}
	rec := tournamenttest.SheetGame(rand.New(rand.NewPCG(3, 3)), tb.Players, tb.FirstDealerOf(1))
	start := time.Now()
	s.submit(t, f, 1, tb, 1, rec)
	if _, err := chromedp.Run(c.ctx, chromedp.Poll[bool](cell+` !== "0"`,
		chromedp.WithPollingTimeout(2*time.Second), chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		t.Fatalf("the standings did not show the result within 2s of its submission: %v", err)
	}
	t.Logf("the standings showed the result %v after its submission", time.Since(start).Round(time.Millisecond))
	if c.eval(`String(window.revisorMark)`) != "1" {
		t.Errorf("the page was reloaded; want an update in place")
	}
	c.screenshot("standings")
}

// TestBrowserConsoleRunsATournament runs a small tournament in Chromium
// from its creation to a closed round through the organizer's pages, and
// takes screenshots of the seating, a table card, a score sheet and the
// standings.
func TestBrowserConsoleRunsATournament(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	c := newChrome(t, 1280, 900)
	u := s.URL
	c.adminLogin(u)
	c.do("create the tournament",
		chromedp.SendKeys(chromedp.ID("name"), "Höstturneringen i Chicago"),
		chromedp.SetValue(chromedp.ID("games"), "2"),
		chromedp.Click(chromedp.CSS(`button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.ID("organizer-token")))
	token := c.eval(`document.getElementById("organizer-token").textContent`)
	tid := c.eval(`document.getElementById("tournament-link").textContent`)
	if len(token) < 20 || tid == "" {
		t.Fatalf("created page: token %q, id %q", token, tid)
	}
	c.do("open the console", chromedp.Click(chromedp.ID("open-console")), chromedp.WaitVisible(chromedp.ID("players-link")))
	var csv strings.Builder
	csv.WriteString("name,club\n")
	for i := range 8 {
		fmt.Fprintf(&csv, "%s,%s\n", playerName(i), []string{"BK Ess", "Kortklubben"}[i%2])
	}
	c.do("import players", chromedp.Click(chromedp.ID("players-link")), chromedp.WaitVisible(chromedp.ID("csv")),
		chromedp.SetValue(chromedp.ID("csv"), csv.String()), chromedp.Click(chromedp.ID("import-players")),
		chromedp.WaitVisible(chromedp.ID("import-confirm")), chromedp.Click(chromedp.ID("import-confirm")),
		chromedp.WaitVisible(chromedp.ID("player-list")))
	if n := c.eval(`String(document.querySelectorAll("#player-list tbody tr").length)`); n != "8" {
		t.Fatalf("players listed after the import = %s, want 8", n)
	}
	c.do("draw round 1", chromedp.Navigate(u+"/t/"+tid+"/console"), chromedp.SetValue(chromedp.ID("seed"), "9"),
		chromedp.Click(chromedp.ID("draw-round")), chromedp.WaitVisible(chromedp.ID("confirm-dialog")))
	if q := c.eval(`document.getElementById("confirm-text").textContent`); !strings.Contains(q, "round 1") {
		t.Errorf("drawing asks %q, want a question naming round 1", q)
	}
	c.do("confirm the draw", chromedp.Click(chromedp.ID("confirm-ok")), chromedp.WaitVisible(chromedp.ID("round-tables")))

	rv, err := s.plays.Round(c.ctx, tid, 1)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for _, tb := range rv.Round.Tables {
		for g := 1; g <= 2; g++ {
			enterGame(t, c, tb, g, tournamenttest.SheetGame(rng, tb.Players, tb.FirstDealerOf(g)))
		}
	}
	// Closing answers on the console (saved) or, with ties, on the close URL.
	closed := `location.search.includes("saved=1") || location.pathname.endsWith("/close")`
	c.do("close round 1, then cancel", chromedp.Click(chromedp.ID("close-round")), chromedp.WaitVisible(chromedp.ID("confirm-dialog")),
		chromedp.Click(chromedp.ID("confirm-cancel")), chromedp.WaitNotVisible(chromedp.ID("confirm-dialog")))
	if rv, _ := s.plays.Round(c.ctx, tid, 1); rv.Round.Status != tournament.RoundOpen {
		t.Fatalf("round 1 after cancelling the close = %s, want open", rv.Round.Status)
	}
	c.do("close round 1", chromedp.Click(chromedp.ID("close-round")), chromedp.WaitVisible(chromedp.ID("confirm-dialog")))
	c.clickAndWait("confirm the close", "#confirm-ok", closed)
	for range 4 {
		if c.eval(`document.querySelector("form.tie") ? "tie" : "none"`) == "none" {
			break
		}
		c.clickAndWait("resolve a tie", `form.tie button[type="submit"]`, `location.search.includes("saved=1")`)
		c.do("close round 1 again", chromedp.Click(chromedp.ID("close-round")), chromedp.WaitVisible(chromedp.ID("confirm-dialog")))
		c.clickAndWait("confirm the close again", "#confirm-ok", closed)
	}
	if h := c.eval(`document.querySelector("#round + p + h3, h3").textContent`); !strings.Contains(h, "closed") {
		t.Fatalf("round heading after closing = %q, want it closed", h)
	}
	rv, _ = s.plays.Round(c.ctx, tid, 1)
	if rv.Round.Status != tournament.RoundClosed {
		t.Fatalf("round 1 = %s, want closed", rv.Round.Status)
	}

	c.screenshot("console")
	c.do("big screen", chromedp.Navigate(u+"/t/"+tid+"/screen"), chromedp.WaitVisible(chromedp.CSS("main table")))
	c.screenshot("big-screen")
	c.do("table cards", chromedp.Navigate(u+"/t/"+tid+"/console/rounds/1/cards"), chromedp.WaitVisible(chromedp.CSS(".card")))
	c.screenshot("table-cards")
	c.do("score sheet", chromedp.Navigate(u+"/t/"+tid+"/rounds/1/sheets?table=1&game=1"), chromedp.WaitVisible(chromedp.CSS(".sheet")))
	c.screenshot("score-sheet")
	c.do("standings", chromedp.Navigate(u+"/t/"+tid+"/standings"), chromedp.WaitVisible(chromedp.ID("standings")))
	c.screenshot("standings-after-round")

	// Seating on a phone, with the live filter of "find my table".
	phone := newChrome(t, 390, 844)
	phone.do("seating", chromedp.Navigate(u+"/t/"+tid+"/seating"), chromedp.WaitVisible(chromedp.ID("find")))
	phone.screenshot("seating")
	phone.do("find my table", chromedp.SendKeys(chromedp.ID("find"), "greta"))
	visible := phone.eval(`String([...document.querySelectorAll("[data-names]")].filter(e => !e.hidden).length)`)
	if visible != "1" {
		t.Errorf("tables shown after typing a name = %s, want 1", visible)
	}
	phone.screenshot("seating-find")
}

// enterGame fills a game's score-sheet form in the browser and submits it.
func enterGame(t *testing.T, c *chrome, tb tournament.Table, g int, rec []byte) {
	t.Helper()
	deals := sheetLines(t, rec)
	what := fmt.Sprintf("table %d game %d", tb.Number, g)
	c.do("open "+what, chromedp.Click(chromedp.ID(fmt.Sprintf("game-%d-%d", tb.Number, g))),
		chromedp.WaitVisible(chromedp.ID("result-form")))
	for rows := mustAtoi(t, c.eval(`document.querySelector('input[name="rows"]').value`)); len(deals) > rows; {
		c.clickAndWait("more rows", `button[name="more"]`,
			fmt.Sprintf(`Number(document.querySelector('input[name="rows"]').value) > %d`, rows))
		rows = mustAtoi(t, c.eval(`document.querySelector('input[name="rows"]').value`))
	}
	var steps []chromedp.Action[chromedp.Void]
	for k, d := range deals {
		for i, p := range tb.Players {
			for src, v := range d[p] {
				field, val := sheetField(src, v)
				steps = append(steps, chromedp.SetValue(chromedp.ID(fmt.Sprintf("d%d_s%d_%s", k, i, field)), val))
			}
		}
	}
	steps = append(steps, chromedp.Click(chromedp.ID("submit-result")), chromedp.WaitVisible(chromedp.ID("round-tables")))
	c.do("enter "+what, steps...)
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// viewports are the sizes every page is looked at: a true 360 px phone
// and a desktop.
var viewports = []viewport{{"phone", 360, 740}, {"desktop", 1366, 900}}

// viewport is a screen size pages are looked at.
type viewport struct {
	name string
	w, h int
}

// shootPages opens each of pages (name to path) at phone and desktop
// width in Swedish and English, runs check on it and writes a screenshot
// named prefix-name-lang-size.
func shootPages(t *testing.T, s *site, prefix string, pages map[string]string, check func(c *chrome, lang, path string, width int)) {
	t.Helper()
	for _, size := range viewports {
		c := newChrome(t, size.w, size.h)
		// A headless window is never narrower than about 500 px: emulate the phone's viewport.
		c.do("viewport", chromedp.EmulateViewport(int64(size.w), int64(size.h)))
		for _, lang := range []string{"sv", "en"} {
			for name, path := range pages {
				c.do("open "+path, chromedp.Navigate(s.URL+"/lang/"+lang+"?next="+url.QueryEscape(path)), chromedp.WaitVisible(chromedp.CSS("h1")))
				check(c, lang, path, size.w)
				c.screenshot(fmt.Sprintf("%s-%s-%s-%s", prefix, name, lang, size.name))
			}
		}
	}
}

// noSidewaysScroll is a check of shootPages: neither the page nor a table
// inside its scroller may be wider than the screen.
func noSidewaysScroll(t *testing.T) func(c *chrome, lang, path string, width int) {
	return func(c *chrome, lang, path string, width int) {
		if c.eval(`String(document.documentElement.scrollWidth <= window.innerWidth)`) != "true" || c.eval(tablesPastTheWindow) != "" {
			t.Errorf("%s %s at %d px scrolls sideways (%s px wide)", lang, path, width,
				c.eval(`String(document.documentElement.scrollWidth)`))
		}
	}
}

// TestBrowserManyLivePagesInOneTab walks through ten live pages in one tab,
// as a player tapping from the standings to the seating and back does.
// Each page must open its event stream at once: a page left behind in
// the back-forward cache with its stream open held one of the six
// connections Chromium opens to a server over HTTP/1.1, and the seventh
// live page waited about a minute for one to end (static/app.js closes
// the stream on pagehide).
func TestBrowserManyLivePagesInOneTab(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	c := newFullChrome(t, 360, 740) // the headless shell has no back-forward cache
	for i := range 10 {
		page := []string{"standings", "seating"}[i%2]
		start := time.Now()
		c.do("open "+page, chromedp.Navigate(s.URL+"/t/"+f.ID+"/"+page))
		if _, err := chromedp.Run(c.ctx, chromedp.Poll[bool](`document.body.dataset.live === "on"`,
			chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			t.Fatalf("live page %d (%s): its event stream did not open within 10 s: %v", i+1, page, err)
		}
		took := time.Since(start)
		t.Logf("live page %d (%s) following after %v", i+1, page, took.Round(time.Millisecond))
		if took > 10*time.Second {
			t.Errorf("live page %d (%s) took %v to load and follow its stream, want under 10 s", i+1, page, took.Round(time.Millisecond))
		}
	}
}
