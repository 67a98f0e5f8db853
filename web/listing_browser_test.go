package web_test

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
)

// waitJS waits until cond (JavaScript) holds on the page, for at most d.
func waitJS(t *testing.T, c *chrome, what, cond string, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		if ok, err := chromedp.Run(c.ctx, chromedp.Evaluate[bool](cond)); err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, d)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestBrowserFindingATournament (issue 14, item 5): the home page's list,
// the admin's list with the private one marked, a short link followed and
// the poster, at 360 and 1366 px in Swedish and English, with screenshots.
func TestBrowserFindingATournament(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	ts := listingFixture(t, s)
	up := ts["upcoming"]
	pages := []struct{ name, path, check string }{
		{"home", "/", `document.querySelectorAll(".tournament-list li").length === 3 && document.querySelectorAll(".list-status").length === 3`},
		{"admin", "/admin", `document.querySelectorAll(".tournament-list li").length === 4 && document.querySelectorAll(".tournament-list .badge").length === 1`},
		{"poster", "/t/" + up.ID + "/poster", `document.querySelector(".poster-qr svg.qr") !== null &&
			document.getElementById("poster-link").textContent.endsWith("/s/` + up.Code + `")`},
		{"tournament", "/t/" + up.ID, `document.getElementById("short-link") !== null`},
	}
	for _, size := range viewports {
		c := newChrome(t, size.w, size.h)
		c.do("viewport", chromedp.EmulateViewport(int64(size.w), int64(size.h)))
		c.adminLogin(s.URL)
		for _, lang := range []string{"sv", "en"} {
			for _, pg := range pages {
				c.do("open "+pg.path, chromedp.Navigate(s.URL+"/lang/"+lang+"?next="+url.QueryEscape(pg.path)))
				waitLoaded(t, c, pg.path)
				if got := c.eval(`String(` + pg.check + `)`); got != "true" {
					t.Errorf("%s %s at %d px: %s does not hold", lang, pg.path, size.w, pg.check)
				}
				if got := c.eval(`String(document.documentElement.scrollWidth <= window.innerWidth)`); got != "true" {
					t.Errorf("%s %s at %d px scrolls sideways (%s px wide)", lang, pg.path, size.w, c.eval(`String(document.documentElement.scrollWidth)`))
				}
				c.screenshot(fmt.Sprintf("finding-%s-%s-%s", pg.name, lang, size.name))
			}
			// The poster's QR code is large on the page: most of the width
			// on a phone, at least 300 px on a desktop.
			c.do("poster", chromedp.Navigate(s.URL+"/t/"+up.ID+"/poster"))
			waitLoaded(t, c, "poster")
			if w, _ := strconv.ParseFloat(c.eval(`String(document.querySelector(".poster-qr svg").getBoundingClientRect().width)`), 64); w < min(0.7*float64(size.w), 300) {
				t.Errorf("poster at %d px: QR code %.0f px wide", size.w, w)
			}
			// A short link typed in small letters lands on the tournament.
			c.do("short link", chromedp.Navigate(s.URL+"/s/"+strings.ToLower(up.Code)))
			waitJS(t, c, "the short link's page", `location.pathname === "/t/`+up.ID+`" && document.readyState === "complete"`, 10*time.Second)
		}
	}
}

// TestBrowserBigScreenNamesAndClock (issue 14, item 8): the big screen's
// list of names A to Ö with their tables is read across a room (headings
// larger than the names, no site menu), and its round clock counts down
// by itself and follows the organizer's pause without a reload.
func TestBrowserBigScreenNamesAndClock(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 24, true)
	ctx := context.Background()
	if _, err := s.plays.SetRoundClock(ctx, org, f.ID, 1, play.ClockAction{Action: tournament.ClockStart, Minutes: 75}); err != nil {
		t.Fatal(err)
	}
	path := "/t/" + f.ID + "/screen?view=names"
	for _, size := range viewports {
		c := newChrome(t, size.w, size.h)
		c.do("viewport", chromedp.EmulateViewport(int64(size.w), int64(size.h)))
		for _, lang := range []string{"sv", "en"} {
			c.do("open "+path, chromedp.Navigate(s.URL+"/lang/"+lang+"?next="+url.QueryEscape(path)))
			waitLoaded(t, c, path)
			if got := c.eval(`String(document.querySelectorAll(".names-at-tables li").length)`); got != "24" {
				t.Errorf("%s at %d px: %s names listed, want 24", lang, size.w, got)
			}
			if got := c.eval(`getComputedStyle(document.querySelector("header.top")).display`); got != "none" {
				t.Errorf("%s at %d px: the site menu is shown", lang, size.w)
			}
			px := func(sel string) float64 {
				v, _ := strconv.ParseFloat(c.eval(`String(parseFloat(getComputedStyle(document.querySelector("`+sel+`")).fontSize))`), 64)
				return v
			}
			if h, n := px("main h1"), px(".names-at-tables .name"); h <= n {
				t.Errorf("%s at %d px: heading %.0f px, names %.0f px; want the heading larger", lang, size.w, h, n)
			}
			if size.w > 1000 && px(".names-at-tables .name") < 24 {
				t.Errorf("%s at %d px: names %.0f px, too small across a room", lang, size.w, px(".names-at-tables .name"))
			}
			if got := c.eval(`String(document.documentElement.scrollWidth <= window.innerWidth)`); got != "true" {
				t.Errorf("%s at %d px: the names scroll sideways", lang, size.w)
			}
			c.screenshot(fmt.Sprintf("big-screen-names-%s-%s", lang, size.name))
		}
	}
	// The clock counts down by itself...
	c := newChrome(t, 1366, 900)
	c.do("open the screen", chromedp.Navigate(s.URL+path))
	waitJS(t, c, "the clock shown", `/^\d+:\d\d$/.test(document.querySelector(".clock .clock-time").textContent)`, 10*time.Second)
	seconds := `(() => { const [m, s] = document.querySelector(".clock .clock-time").textContent.split(":"); return 60 * +m + +s; })()`
	first := c.eval(`String(` + seconds + `)`)
	waitJS(t, c, "the clock counting down", seconds+` < `+first, 5*time.Second)
	// ...and shows the pause the organizer makes, without a reload.
	c.do("mark the page", chromedp.Evaluate[chromedp.Void](`window.notReloaded = true`))
	if _, err := s.plays.SetRoundClock(ctx, org, f.ID, 1, play.ClockAction{Action: tournament.ClockPause}); err != nil {
		t.Fatal(err)
	}
	// The pause reaches the screen by its PostgreSQL event and the page's
	// stream: up to 15 s on a loaded machine.
	waitJS(t, c, "the pause shown", `window.notReloaded === true && document.querySelector(".clock").className.includes("clock-paused")`, 15*time.Second)
	c.screenshot("big-screen-names-clock-paused")
}
