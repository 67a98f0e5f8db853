package web_test

import (
	"net/url"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/revisor-sm/revisor/tournament"
)

// shownLinks counts the header's links a person can see.
const shownLinks = `String([...document.querySelectorAll("header.top nav a")].filter(a => a.checkVisibility({visibilityProperty: true})).length)`

// TestBrowserPhoneMenu (issue 30): on a 360 px phone the header's links
// stand behind a disclosure that the keyboard opens (Tab to it, Enter) and
// whose links Tab then reaches; Enter closes it again. (That the header
// takes at most 56 px of every page, in every language, with the links
// hidden on a phone and open on a desktop, TestBrowserEveryPage checks on
// its walk: before, the header took about 155 px, the tournament's links
// and the languages on three lines.)
func TestBrowserPhoneMenu(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	tp := "/t/" + f.ID
	c := newChrome(t, 360, 740)
	c.do("viewport", chromedp.EmulateViewport(360, 740))
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
