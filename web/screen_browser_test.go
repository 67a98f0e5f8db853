package web_test

import (
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/revisor-sm/revisor/tournament"
)

// TestBrowserBigScreenHidesTheMenu (issue 14, item 8): the big screen shows
// no site menu, and its headings are larger than the names under them, in
// the standings and in the seating.
func TestBrowserBigScreenHidesTheMenu(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	c := newChrome(t, 1366, 900)
	for _, path := range []string{"/t/" + f.ID + "/screen", "/t/" + f.ID + "/screen?view=seating"} {
		c.do("open "+path, chromedp.Navigate(s.URL+path), chromedp.WaitVisible(chromedp.CSS("h1")))
		if got := c.eval(`getComputedStyle(document.querySelector("header.top")).display`); got != "none" {
			t.Errorf("%s: the site menu is shown (display %s)", path, got)
		}
		sizes := `(() => { const px = s => parseFloat(getComputedStyle(document.querySelector(s)).fontSize);
			const name = document.querySelector("main td, main li li");
			const heading = document.querySelector("main th, main h2");
			return String(px("h1") > parseFloat(getComputedStyle(name).fontSize) &&
				parseFloat(getComputedStyle(heading).fontSize) > parseFloat(getComputedStyle(name).fontSize)); })()`
		if got := c.eval(sizes); got != "true" {
			t.Errorf("%s: headings are not larger than the names", path)
		}
		c.screenshot("big-screen-" + map[bool]string{true: "seating", false: "standings"}[len(path) > len("/t/"+f.ID+"/screen")])
	}
}
