package web_test

import (
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/revisor-sm/revisor/tournament"
)

// TestBrowserEveryPageFitsAPhone (issue 14, item 3) opens every public and
// console page of the router (web/web.go and the console's, disputes'
// and register's groups) in Chromium at a true 360 px phone viewport and
// at 1366 px, in Swedish and English: no page is wider than the window, no
// table scrolls inside its box (but the printed score sheets'), no word is
// broken in the middle, and a screenshot of each is written to the
// artifacts directory.
func TestBrowserEveryPageFitsAPhone(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	s.playAll(t, f, f.Round, 1)
	series, person := registerFixture(t, s)
	tp := "/t/" + f.ID
	pages := []struct{ name, path string }{
		{"home", "/"}, {"login", "/login"}, {"tournament", tp}, {"standings", tp + "/standings"},
		{"seating", tp + "/seating"}, {"seating-find", tp + "/seating?q=anna"}, {"player", tp + "/players/" + f.Players[0].ID},
		{"screen", tp + "/screen"}, {"screen-seating", tp + "/screen?view=seating"}, {"sheets", tp + "/rounds/1/sheets"},
		{"table-login", tp + "/table"}, {"ratings", "/ratings"}, {"person", "/people/" + person},
		{"series", "/series/" + series.ID}, {"series-screen", "/series/" + series.ID + "/screen"},
		// Behind the admin's login (the admin may do what an organizer may).
		{"admin", "/admin"}, {"console", tp + "/console"}, {"console-players", tp + "/console/players"},
		{"console-player", tp + "/console/players/" + f.Players[0].ID}, {"room", tp + "/console/rounds/1/room"},
		{"cards", tp + "/console/rounds/1/cards"}, {"console-sheets", tp + "/console/rounds/1/sheets"},
		{"table-change", tp + "/console/rounds/1/tables/1"}, {"result", tp + "/console/rounds/1/tables/1/games/1"},
		{"disputes", tp + "/disputes"},
		{"console-settings", tp + "/console/settings"},
	}
	for _, size := range []struct {
		name string
		w, h int
	}{{"phone", 360, 740}, {"desktop", 1366, 900}} {
		for _, lang := range []string{"sv", "en"} {
			t.Run(size.name+"/"+lang, func(t *testing.T) {
				t.Parallel()
				c := newChrome(t, size.w, size.h)
				// A headless window is never narrower than about 500 px: emulate the phone's viewport.
				c.do("viewport", chromedp.EmulateViewport(int64(size.w), int64(size.h)))
				c.adminLogin(s.URL)
				for _, pg := range pages {
					c.do("open "+pg.path, chromedp.Navigate(s.URL+"/lang/"+lang+"?next="+url.QueryEscape(pg.path)))
					waitLoaded(t, c, pg.path)
					if got := c.eval(`String(document.documentElement.scrollWidth <= window.innerWidth)`); got != "true" {
						t.Errorf("%s %s at %d px scrolls sideways (%s px wide): %s", lang, pg.path, size.w,
							c.eval(`String(document.documentElement.scrollWidth)`), c.eval(wideElements))
					}
					if got := c.eval(midWordBreaks); got != "" {
						t.Errorf("%s %s at %d px breaks words in the middle: %s", lang, pg.path, size.w, got)
					}
					if got := c.eval(scrollingBoxes); got != "" && !paperForms[pg.name] {
						t.Errorf("%s %s at %d px: a box scrolls sideways: %s", lang, pg.path, size.w, got)
					}
					if l := c.eval(`document.documentElement.lang`); l != lang {
						t.Errorf("%s: page language %q, want %q", pg.path, l, lang)
					}
					c.screenshot(fmt.Sprintf("page-%s-%s-%s", pg.name, lang, size.name))
				}
			})
		}
	}
}

// midWordBreaks lists the words of the page's main part that a line
// break cuts in two ("Anderss/on"): a word whose characters lie on more
// than one line. Words are what stands between spaces, hyphens, dashes and
// slashes.
const midWordBreaks = `(() => {
	const out = [], walk = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
	for (let n = walk.nextNode(); n && out.length < 6; n = walk.nextNode()) {
		const re = /[^\s\-–—\/]+/g;
		for (let m = re.exec(n.data); m && out.length < 6; m = re.exec(n.data)) {
			const r = document.createRange();
			r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
			const tops = new Set([...r.getClientRects()].filter(b => b.width > 0).map(b => Math.round(b.top)));
			if (tops.size > 1) out.push(m[0]);
		}
	}
	return out.join(", ");
})()`

// scrollingBoxes names the boxes (tables in a scroller) wider than their
// room, which a phone's user must scroll sideways.
const scrollingBoxes = `[...document.querySelectorAll(".grid-wrap, .scroll-x")].filter(e => e.scrollWidth > e.clientWidth + 1).
	map(e => (e.querySelector("table") || e).id || e.className).join(", ")`

// paperForms are the pages made for printing (score sheets on A4 in
// landscape), whose tables a phone may scroll.
var paperForms = map[string]bool{"sheets": true, "console-sheets": true}

// waitLoaded waits until the page is loaded with its styles.
func waitLoaded(t *testing.T, c *chrome, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if ok, err := chromedp.Run(c.ctx, chromedp.Evaluate[bool](`document.readyState === "complete" && document.body !== null`)); err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not load within 10 s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
