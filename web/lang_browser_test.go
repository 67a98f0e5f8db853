package web_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// playedTable makes the tournament the language and accessibility tests
// look at: a Chicago-SM of 8 players, round 1 drawn, table 1's three
// games played; it returns it with the round's table codes.
func playedTable(t *testing.T, s *site) (*fixture, map[int]string) {
	t.Helper()
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	rng := rand.New(rand.NewPCG(3, 5))
	tb := f.Round.Tables[0]
	for g := 1; g <= 3; g++ {
		s.submit(t, f, 1, tb, g, tournamenttest.SheetGame(rng, tb.Players, tb.FirstDealerOf(g)))
	}
	codes, err := s.plays.TableCodes(context.Background(), org, f.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	return f, codes
}

// TestBrowserFourLanguages opens the public pages and the table page (its
// code form and the entry page) on a 360 px phone in each of the five
// languages: the page is in the language chosen, no text is a format
// error or a bare key, nothing scrolls sideways, and a screenshot of each
// goes to the artifacts (lang-<page>-<language>-phone.png).
func TestBrowserFourLanguages(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f, codes := playedTable(t, s)
	tb := f.Round.Tables[0]
	tid := "/t/" + f.ID
	pages := []struct{ name, path string }{
		{"home", "/"}, {"tournament", tid}, {"standings", tid + "/standings"}, {"seating", tid + "/seating"},
		{"player", tid + "/players/" + tb.Players[0]}, {"screen", tid + "/screen"},
		{"screen-seating", tid + "/screen?view=seating"}, {"table-code", tid + "/table"},
	}
	// Text a page must not show: fmt's complaints and keys without a text.
	const broken = `(() => { const t = document.body.innerText;
		return /%!|\b(?:tbl|seat|sheet|bsheet|nav|err|c|s|p|t|d|r|a|rt|ser|room|clock|card)\.[a-z_.]+[a-z]\b/.test(t) ? t : ""; })()`
	for _, lang := range []string{"sv", "nb", "da", "fi", "en"} {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			c := newChrome(t, 360, 740)
			c.do("viewport", chromedp.EmulateViewport(360, 740))
			check := noSidewaysScroll(t)
			look := func(name, path string) {
				if got := c.eval(`document.documentElement.lang`); got != lang {
					t.Errorf("%s %s: <html lang=%q>", lang, path, got)
				}
				if text := c.eval(broken); text != "" {
					t.Errorf("%s %s shows a format error or a bare key:\n%s", lang, path, text)
				}
				check(c, lang, path, 360)
				c.screenshot(fmt.Sprintf("lang-%s-%s-phone", name, lang))
			}
			for _, p := range pages {
				c.do("open "+p.path, chromedp.Navigate(s.URL+"/lang/"+lang+"?next="+url.QueryEscape(p.path)),
					chromedp.WaitReady("body"))
				look(p.name, p.path)
			}
			// The table page: the QR code's link logs the phone in. Table 1 has
			// played its games (places, confirmations); table 2 enters its first.
			// (From another page: a change of the fragment alone loads nothing.)
			c.do("open table 1", chromedp.Navigate(s.URL+"/"), chromedp.Navigate(s.URL+tid+"/table#code="+codes[tb.Number]),
				chromedp.WaitVisible(chromedp.ID("table-app")))
			look("table-played", tid+"/table")
			if _, err := chromedp.Call(c.ctx, network.ClearBrowserCookies, cdp.Empty{}); err != nil {
				t.Fatalf("leave table 1: %v", err)
			}
			c.do("the language again", chromedp.Navigate(s.URL+"/lang/"+lang+"?next=/"), chromedp.WaitReady("body"))
			c.do("open table 2", chromedp.Navigate(s.URL+tid+"/table#code="+codes[f.Round.Tables[1].Number]),
				chromedp.WaitVisible(chromedp.ID("deal-form")))
			look("table-entry", tid+"/table")
		})
	}
}
