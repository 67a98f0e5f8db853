// Browser tests of the console's bridge result form and the referee's
// correction of a bridge result (issue 30).
package web_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/referee"
)

// bridgeChoice is one deal of the bridge result form as a test fills it.
type bridgeChoice struct{ level, strain, declarer, tricks string }

// fillBridgeRow sets row k (0-based) of the bridge result form.
func fillBridgeRow(c *chrome, k int, d bridgeChoice) {
	c.do(fmt.Sprintf("fill deal %d", k+1),
		chromedp.SetValue(chromedp.ID(fmt.Sprintf("b%d_level", k)), d.level),
		chromedp.SetValue(chromedp.ID(fmt.Sprintf("b%d_strain", k)), d.strain),
		chromedp.SetValue(chromedp.ID(fmt.Sprintf("b%d_declarer", k)), d.declarer),
		chromedp.SetValue(chromedp.ID(fmt.Sprintf("b%d_tricks", k)), d.tricks))
}

// TestBrowserBridgeResultForm opens the console's result form of a bridge
// table at phone and desktop width in Swedish and English: it asks for the
// contract, declarer and tricks of each deal (not the card game's score
// sheet), refuses a deal without a declarer beside that deal in words, and
// does not scroll sideways. A whole Chicago entered there is stored as the
// table's result.
func TestBrowserBridgeResultForm(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f, tb, page := bridgeResultPage(t, s)
	want := map[string]string{"sv": "Välj spelföraren", "en": "Choose the declarer"}
	last := len(viewports)*2 - 1
	n := 0
	loggedInPages(t, s, f.Token, page, "#result-form", func(c *chrome, lang string, size viewport) {
		defer func() { n++ }()
		if got := c.eval(`String(!!document.getElementById("bridge-rows") && !document.getElementById("d0_s0_hand1"))`); got != "true" {
			t.Fatalf("%s %d px: the bridge table's result form is not the bridge form", lang, size.w)
		}
		c.do("a contract without a declarer", chromedp.SetValue(chromedp.ID("b0_level"), "4"),
			chromedp.SetValue(chromedp.ID("b0_strain"), "S"), chromedp.SetValue(chromedp.ID("b0_tricks"), "10"),
			chromedp.Click(chromedp.ID("submit-result")), chromedp.WaitVisible(chromedp.ID("berr-1")))
		if got := c.eval(`document.getElementById("berr-1").textContent`); !strings.Contains(got, want[lang][:8]) || strings.Contains(got, "declarer\"") {
			t.Errorf("%s %d px: deal 1's message = %q, want it to ask for the declarer in words", lang, size.w, got)
		}
		if got := c.eval(`document.getElementById("b0_declarer").getAttribute("aria-invalid")`); got != "true" {
			t.Errorf("%s %d px: the declarer of deal 1 is not marked", lang, size.w)
		}
		if got := c.eval(`document.getElementById("b0_level").value + document.getElementById("b0_strain").value`); got != "4S" {
			t.Errorf("%s %d px: the refused form kept %q, want 4S", lang, size.w, got)
		}
		if got := c.eval(`String(document.documentElement.scrollWidth <= window.innerWidth)`); got != "true" {
			t.Errorf("%s %d px: the bridge result form scrolls sideways", lang, size.w)
		}
		c.screenshot(fmt.Sprintf("result-bridge-%s-%s", lang, size.name))
		if n != last {
			return
		}
		// The last pass enters the whole Chicago: a deal passed out, then
		// 1NT made four times.
		fillBridgeRow(c, 0, bridgeChoice{"pass", "", "", ""})
		for k := range 4 {
			fillBridgeRow(c, k+1, bridgeChoice{"1", "NT", tb.Players[k%4], "7"})
		}
		c.do("submit the match", chromedp.Click(chromedp.ID("submit-result")), chromedp.WaitVisible(chromedp.ID("round")))
		res, err := s.svc.TableResults(context.Background(), f.ID, 1, tb.Number)
		if err != nil || len(res) != 1 || len(res[0].Places) != 4 {
			t.Fatalf("the table's results after the form = %+v, %v, want the match stored", res, err)
		}
		// The stored match's page offers its five deals to dispute, the
		// deal passed out dealt again by the same dealer.
		c.do("open the stored match", chromedp.Navigate(s.URL+page), chromedp.WaitVisible(chromedp.ID("dispute-form")))
		if got := c.eval(`String(document.querySelectorAll("#dispute-deal option").length)`); got != "6" {
			t.Errorf("the stored match's dispute form offers %s choices, want none and its 5 deals", got)
		}
		dealer := func(i int) string {
			return c.eval(fmt.Sprintf(`document.querySelectorAll("#dispute-deal option")[%d].textContent.split(", ").pop()`, i))
		}
		if dealer(1) != dealer(2) || dealer(2) == dealer(3) {
			t.Errorf("the dispute form's deals are dealt by %q, %q, %q; want the deal passed out dealt again by the same dealer", dealer(1), dealer(2), dealer(3))
		}
		if got := c.eval(`String(document.querySelectorAll("#stored-result thead th").length)`); got != "3" {
			t.Errorf("the stored match shows %s columns, want name, place and score (no placement points of the card game)", got)
		}
		c.screenshot(fmt.Sprintf("result-bridge-stored-%s-%s", lang, size.name))
	})
}

// TestBrowserBridgeCorrection has a referee correct a disputed bridge
// result at phone and desktop width: the dispute shows the match's deals
// in the bridge form, and a corrected deal becomes the result, recorded as
// the ruling's correction.
func TestBrowserBridgeCorrection(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	for _, size := range viewports {
		f, r := bridgeRound(t, s, 4, 1)
		tb := r.Tables[0]
		p := tb.Players
		rec := fmt.Sprintf(`{"game":"bridge_chicago","players":["%s","%s","%s","%s"],"first_dealer":%q,"deals":[%s]}`,
			p[0], p[1], p[2], p[3], tb.FirstDealer, chicagoDeals())
		s.submit(t, f, 1, tb, 1, []byte(rec))
		before := sidePoints(t, s, f, tb)
		disp, err := s.refs.OpenDispute(context.Background(), org, f.ID, referee.NewDispute{Round: 1, Table: tb.Number, Game: 1,
			Description: "deal 1 took one trick more"})
		if err != nil {
			t.Fatal(err)
		}
		page := fmt.Sprintf("/t/%s/disputes/%d", f.ID, disp.ID)
		c := newChrome(t, size.w, size.h)
		c.do("viewport", chromedp.EmulateViewport(int64(size.w), int64(size.h)))
		c.do("log in", chromedp.Navigate(s.URL+"/login?next="+page), chromedp.SendKeys(chromedp.ID("token"), f.Token),
			chromedp.Submit(chromedp.ID("token")), chromedp.WaitVisible(chromedp.ID("correction")))
		if got := c.eval(`["level","strain","declarer","tricks"].map(n => document.getElementById("b0_" + n).value).join(" ")`); got != "1 NT "+tb.FirstDealer+" 7" {
			t.Errorf("%d px: deal 1 in the dispute's form = %q, want the stored 1 NT by the dealer, 7 tricks", size.w, got)
		}
		if got := c.eval(`String(document.documentElement.scrollWidth <= window.innerWidth)`); got != "true" {
			t.Errorf("%d px: the dispute page scrolls sideways", size.w)
		}
		c.screenshot("dispute-bridge-en-" + size.name)
		c.do("correct deal 1", chromedp.SetValue(chromedp.ID("b0_tricks"), "8"), chromedp.Click(chromedp.ID("correct")),
			chromedp.Click(chromedp.CSS(`input[name="decision"][value="upheld"]`)), chromedp.SendKeys(chromedp.ID("reason"), "ett stick till"),
			chromedp.Click(chromedp.ID("rule")), chromedp.WaitVisible(chromedp.ID("ruling")))
		if got := c.eval(`document.getElementById("ruling").textContent`); !strings.Contains(got, "·") {
			t.Errorf("%d px: the ruling = %q, want it to say the result was corrected", size.w, got)
		}
		got, err := s.refs.Dispute(context.Background(), org, f.ID, disp.ID)
		if err != nil || got.Ruling == nil || got.Ruling.CorrectionID == nil {
			t.Fatalf("%d px: the dispute after the ruling = %+v, %v, want a correction recorded", size.w, got, err)
		}
		if after := sidePoints(t, s, f, tb); after == before {
			t.Errorf("%d px: the table's scores after the correction = %v, unchanged", size.w, after)
		}
		c.screenshot("dispute-bridge-ruled-en-" + size.name)
	}
}

// chicagoDeals are four deals of 1NT made exactly, each bid by the
// dealer and passed out by the others, as a record's deals.
func chicagoDeals() string {
	return strings.TrimSuffix(strings.Repeat(`{"auction":["1NT","P","P","P"],"tricks":7},`, 4), ",")
}

// sidePoints is the table's first player's score in its stored result.
func sidePoints(t *testing.T, s *site, f *fixture, tb tournament.Table) string {
	t.Helper()
	res, err := s.svc.TableResults(context.Background(), f.ID, 1, tb.Number)
	if err != nil || len(res) != 1 {
		t.Fatalf("TableResults = %+v, %v", res, err)
	}
	var out []string
	for _, pl := range res[0].Places {
		out = append(out, strconv.Itoa(pl.Score))
	}
	return strings.Join(out, " ")
}
