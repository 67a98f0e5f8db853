package web_test

import (
	"fmt"
	"net/url"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/revisor-sm/revisor/tournament"
)

// shownLinks counts the header's links a person can see.
const shownLinks = `String([...document.querySelectorAll("header.top nav a")].filter(a => a.checkVisibility({visibilityProperty: true})).length)`

// TestBrowserPhoneMenu (issue 30): at 360 px the header takes at most
// 56 px of every page, in every language (it took about 155: the
// tournament's links and the languages on three lines), its links behind a
// disclosure that the keyboard opens (Tab to it, Enter) and whose links
// Tab then reaches; on a desktop the links stand in the header, open.
func TestBrowserPhoneMenu(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	tp := "/t/" + f.ID
	pages := []string{"/", "/login", tp, tp + "/standings", tp + "/seating", tp + "/players/" + f.Players[0].ID, tp + "/rules",
		tp + "/table", "/ratings", "/admin", tp + "/console", tp + "/console/players", tp + "/console/settings",
		tp + "/console/rounds/1/tables/1/games/1", tp + "/disputes"}
	for _, vp := range viewports {
		c := newChrome(t, vp.w, vp.h)
		c.do("viewport", chromedp.EmulateViewport(int64(vp.w), int64(vp.h)))
		c.adminLogin(s.URL)
		for _, lang := range []string{"sv", "nb", "da", "fi", "en"} {
			for _, p := range pages {
				what := fmt.Sprintf("%s %s %s", lang, vp.name, p)
				c.do("open "+p, chromedp.Navigate(s.URL+"/lang/"+lang+"?next="+url.QueryEscape(p)), chromedp.WaitReady("main"))
				h, _ := strconv.ParseFloat(c.eval(`String(document.querySelector("header.top").getBoundingClientRect().height)`), 64)
				if vp.w == 360 && h > 56 {
					t.Errorf("%s: the header is %.0f px high, want at most 56", what, h)
				}
				links := c.eval(shownLinks)
				if vp.w == 360 && links != "0" {
					t.Errorf("%s: %s of the menu's links are shown before it is opened", what, links)
				}
				if vp.w > 360 && links == "0" {
					t.Errorf("%s: no link in the desktop's header", what)
				}
				c.notSideways(what)
			}
		}
		if vp.w != 360 {
			c.screenshot("menu-desktop")
			continue
		}
		// The keyboard: Tab past the brand to the menu, Enter opens it, and
		// the next Tab is on the tournament's first link.
		c.do("open the standings", chromedp.Navigate(s.URL+"/lang/sv?next="+url.QueryEscape(tp+"/standings")), chromedp.WaitReady("main"))
		c.screenshot("menu-phone-closed")
		c.do("tab to the menu", chromedp.KeyEvent(kb.Tab), chromedp.KeyEvent(kb.Tab))
		if got := c.eval(`document.activeElement.tagName + " " + document.activeElement.textContent.trim()`); got != "SUMMARY ☰ Meny" {
			t.Fatalf("after two Tabs the focus is on %q, want the menu", got)
		}
		c.do("open it", chromedp.KeyEvent(kb.Enter))
		if got := c.eval(shownLinks); got != "9" { // 5 pages and the 4 other languages (the current one is no link)
			t.Errorf("the opened menu shows %s links, want 9", got)
		}
		c.do("tab into it", chromedp.KeyEvent(kb.Tab))
		if got := c.eval(`document.activeElement.getAttribute("href")`); got != tp {
			t.Errorf("the first Tab into the open menu is on %q, want the tournament's page %s", got, tp)
		}
		c.notSideways("the open menu")
		c.screenshot("menu-phone-open")
		c.do("close it", chromedp.Evaluate[chromedp.Void](`document.querySelector("header summary").focus()`), chromedp.KeyEvent(kb.Enter))
		if got := c.eval(shownLinks); got != "0" {
			t.Errorf("Enter again leaves %s links shown, want the menu closed", got)
		}
	}
}
