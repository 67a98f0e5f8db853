package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/referee"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// loggedInPages runs each, for every viewport and language, in a browser
// logged in with token, on page opened in that language once its element
// sel is shown. Refusals of 422 that the test provokes are allowed.
func loggedInPages(t *testing.T, s *site, token, page, sel string, each func(c *chrome, lang string, size viewport)) {
	t.Helper()
	for _, size := range viewports {
		c := newChrome(t, size.w, size.h)
		c.do("viewport", chromedp.EmulateViewport(int64(size.w), int64(size.h)))
		c.allow("status of 422")
		c.do("log in", chromedp.Navigate(s.URL+"/login?next="+page), chromedp.SendKeys(chromedp.ID("token"), token),
			chromedp.Submit(chromedp.ID("token")), chromedp.WaitVisible(chromedp.CSS(sel)))
		for _, lang := range []string{"sv", "en"} {
			c.do("open "+page, chromedp.Navigate(s.URL+"/lang/"+lang+"?next="+page), chromedp.WaitVisible(chromedp.CSS(sel)))
			each(c, lang, size)
		}
	}
}

// TestBrowserResultGridErrors submits a score sheet the engine rejects at
// phone and desktop width, in Swedish and English: the error names the
// player and the sheet's column in words, stands in view on the screen
// (not in a column clipped at the right), and the deal and dealer columns
// stay in view while the players' columns scroll.
func TestBrowserResultGridErrors(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	tb := f.Round.Tables[0]
	second := ""
	for _, p := range f.Players {
		if p.ID == tb.Players[1] {
			second = p.Name
		}
	}
	page := fmt.Sprintf("/t/%s/console/rounds/1/tables/%d/games/1", f.ID, tb.Number)
	loggedInPages(t, s, f.Token, page, "#result-form", func(c *chrome, lang string, size viewport) {
		// Deal 2 gives phase 1 to two players: each source is scored by at most one.
		c.do("enter a bad sheet", chromedp.SetValue(chromedp.ID("d0_s0_last"), "5"), chromedp.SetValue(chromedp.ID("d1_s0_hand1"), "2"),
			chromedp.SetValue(chromedp.ID("d1_s1_hand1"), "2"), chromedp.SetValue(chromedp.ID("d1_s2_last"), "5"),
			chromedp.Click(chromedp.ID("submit-result")), chromedp.WaitVisible(chromedp.ID("err-2")))
		msg := c.eval(`document.getElementById("err-2").textContent`)
		if !strings.Contains(msg, second+", ") || strings.Contains(msg, "hand1") || strings.Contains(msg, tb.Players[1]+" ") {
			t.Errorf("%s %d px: deal 2's error = %q, want %s's column in words", lang, size.w, msg, second)
		}
		// The message is on the screen, whole, beside the deal's row.
		inView := `(() => { const r = document.getElementById("err-2").getBoundingClientRect();
				return String(r.left >= 0 && r.right <= window.innerWidth && r.width > 100); })()`
		if got := c.eval(inView); got != "true" {
			t.Errorf("%s %d px: deal 2's error is not within the screen", lang, size.w)
		}
		// Scroll the grid to its far right: the deal and dealer stay in view.
		c.do("scroll the grid", chromedp.Evaluate[chromedp.Void](`document.querySelector(".grid-wrap").scrollLeft = 10000`))
		sticky := `(() => { const w = document.querySelector(".grid-wrap").getBoundingClientRect();
				const d = document.querySelector("#err-2").closest("tr").previousElementSibling;
				const deal = d.querySelector(".stick-deal").getBoundingClientRect(), dealer = d.querySelector(".stick-dealer").getBoundingClientRect();
				return String(deal.left >= w.left - 1 && dealer.left >= deal.right - 1 && dealer.right <= w.right); })()`
		if got := c.eval(inView); got != "true" {
			t.Errorf("%s %d px: deal 2's error leaves the screen when the grid scrolls", lang, size.w)
		}
		if got := c.eval(sticky); got != "true" {
			t.Errorf("%s %d px: the deal and dealer columns leave the screen when the grid scrolls", lang, size.w)
		}
		if got := c.eval(`String(document.documentElement.scrollWidth <= window.innerWidth)`); got != "true" {
			t.Errorf("%s %d px: the page scrolls sideways", lang, size.w)
		}
		c.screenshot(fmt.Sprintf("result-errors-%s-%s", lang, size.name))
		c.do("scroll back", chromedp.Evaluate[chromedp.Void](`document.querySelector(".grid-wrap").scrollLeft = 0`))
		c.screenshot(fmt.Sprintf("result-errors-left-%s-%s", lang, size.name))
	})
}

// TestBrowserDisputeGrid opens a dispute at phone and desktop width in
// Swedish and English: the disputed result stands in the score-sheet grid
// (no JSON to paste), the page does not scroll sideways, and upholding it
// without a remedy says what is missing.
func TestBrowserDisputeGrid(t *testing.T) {
	t.Parallel()
	s, f, tb := timedGameSite(t)
	disp, err := s.refs.OpenDispute(context.Background(), org, f.ID, referee.NewDispute{Round: 1, Table: tb.Number, Game: 1,
		Description: "the last trick was taken by the next player"})
	if err != nil {
		t.Fatal(err)
	}
	page := fmt.Sprintf("/t/%s/disputes/%d", f.ID, disp.ID)
	loggedInPages(t, s, f.Token, page, "#correction", func(c *chrome, lang string, size viewport) {
		if got := c.eval(`document.getElementById("d0_s0_last").value`); got != "5" {
			t.Errorf("%s %d px: deal 1's last trick in the grid = %q, want the disputed 5", lang, size.w, got)
		}
		// The grid scrolls inside its own box; the page itself does not.
		if got := c.eval(`String(document.documentElement.scrollWidth <= window.innerWidth)`); got != "true" {
			t.Errorf("%s %d px: the dispute page scrolls sideways", lang, size.w)
		}
		c.screenshot(fmt.Sprintf("dispute-grid-%s-%s", lang, size.name))
		c.do("uphold without a remedy", chromedp.Click(chromedp.CSS(`input[name="decision"][value="upheld"]`)),
			chromedp.SendKeys(chromedp.ID("reason"), "the sheet was wrong"),
			chromedp.Click(chromedp.ID("rule")), chromedp.WaitVisible(chromedp.ID("ruling-error")))
		if got := c.eval(`document.getElementById("correct").getAttribute("aria-invalid")`); got != "true" {
			t.Errorf("%s %d px: the correction box is not marked after upholding without a remedy", lang, size.w)
		}
		c.screenshot(fmt.Sprintf("dispute-remedy-%s-%s", lang, size.name))
	})
}

// TestBrowserDisputeFormInWords (issue 14, item 7): the result page's
// dispute form asks which deal, chosen from the game's deals by number with
// the dealer's name, and what is wrong in words -- no JSON -- and fits the
// screen at phone and desktop width in Swedish and English.
func TestBrowserDisputeFormInWords(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	tb := f.Round.Tables[0]
	s.submit(t, f, 1, tb, 1, tournamenttest.TimedGame(tb.Players, tb.FirstDealerOf(1),
		map[string]map[string]int{tb.Players[0]: {"last_trick": 5}}))
	page := fmt.Sprintf("/t/%s/console/rounds/1/tables/%d/games/1", f.ID, tb.Number)
	first := map[string]string{"sv": "Giv 1, given av ", "en": "Deal 1, dealt by "}
	loggedInPages(t, s, f.Token, page, "#dispute-form", func(c *chrome, lang string, size viewport) {
		dealer := c.eval(`document.querySelector("#game-dealer").textContent.split(": ").pop()`)
		if got := c.eval(`document.querySelector("#dispute-deal").options[1].textContent`); got != first[lang]+dealer {
			t.Errorf("%s %d px: the first deal is offered as %q, want %q", lang, size.w, got, first[lang]+dealer)
		}
		if got := c.eval(`document.querySelector("#dispute-form").innerText`); strings.Contains(got, "JSON") {
			t.Errorf("%s %d px: the dispute form asks for JSON:\n%s", lang, size.w, got)
		}
		if got := c.eval(`String(document.documentElement.scrollWidth <= window.innerWidth)`); got != "true" {
			t.Errorf("%s %d px: the result page scrolls sideways", lang, size.w)
		}
		c.screenshot(fmt.Sprintf("dispute-form-%s-%s", lang, size.name))
	})
}
