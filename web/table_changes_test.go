package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/revisor-sm/revisor/tournament"
)

// TestConsoleWithdrawDuringGame: the organizer withdraws a player during a
// game from the table's page: a missing choice or reason is shown next to
// the form, the first submission only asks for confirmation (nothing is
// stored), the second withdraws; the page then lists who left. Others are
// sent to log in; a post without the organizer's session is refused.
func TestConsoleWithdrawDuringGame(t *testing.T) {
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSwiss, 8, true)
	tb := f.Round.Tables[0]
	page := fmt.Sprintf("/t/%s/console/rounds/1/tables/%d", f.ID, tb.Number)
	action := page + "/withdraw"
	anon := s.browser(t)
	if r := anon.get(page); r.Status != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
		t.Errorf("GET %s without a session = %d %q, want a redirect to log in", page, r.Status, r.Header.Get("Location"))
	}
	if r := anon.post("/login", action, url.Values{"player": {tb.Players[0]}, "handling": {"finish"}, "reason": {"ill"}}); r.Status != http.StatusUnauthorized {
		t.Errorf("POST %s without a session = %d, want 401", action, r.Status)
	}
	b := s.browser(t)
	b.login(f.Token)
	leaving := tb.Players[1]
	name := f.Players[0].Name
	for _, p := range f.Players {
		if p.ID == leaving {
			name = p.Name
		}
	}
	for _, lang := range []string{"sv", "en"} {
		b.lang = lang
		r := b.mustGet(page, http.StatusOK)
		want := map[string]string{"sv": "En spelare lämnar under ett parti", "en": "A player leaves during a game"}[lang]
		if !strings.Contains(r.Body, want) || !strings.Contains(r.Body, name) {
			t.Errorf("%s table page lacks %q or %s", lang, want, name)
		}
	}
	b.lang = "en"
	for _, c := range []struct {
		what  string
		form  url.Values
		field string
	}{
		{"no choice", url.Values{"player": {leaving}, "reason": {"ill"}}, "Choose how the game counts."},
		{"no reason", url.Values{"player": {leaving}, "handling": {"forfeit"}, "reason": {"  "}}, "Give a reason."},
		{"a player of nobody", url.Values{"player": {"p999"}, "handling": {"forfeit"}, "reason": {"ill"}}, "Choose a player of this table."},
	} {
		r := b.post(page, action, c.form)
		if r.Status != http.StatusBadRequest || !strings.Contains(r.Body, c.field) || !strings.Contains(r.Body, `id="withdraw-error"`) {
			t.Errorf("%s: %d, want 400 with %q next to the form", c.what, r.Status, c.field)
		}
	}
	form := url.Values{"player": {leaving}, "handling": {"finish"}, "reason": {"taken ill"}}
	r := b.post(page, action, form)
	if r.Status != http.StatusOK || !strings.Contains(r.Body, `id="withdraw-confirm"`) || !strings.Contains(r.Body, "Withdraw "+name+" from table") {
		t.Fatalf("first submission = %d, want the confirmation step\n%s", r.Status, r.Body)
	}
	if ps, _ := s.svc.Players(context.Background(), f.ID); ps[0].Status != tournament.PlayerActive || !allActive(ps) {
		t.Fatal("a player was withdrawn before the organizer confirmed")
	}
	form.Set("confirm", "1")
	if r := b.post(page, action, form); r.Status != http.StatusSeeOther {
		t.Fatalf("confirmation = %d, want 303\n%s", r.Status, r.Body)
	}
	ps, _ := s.svc.Players(context.Background(), f.ID)
	if allActive(ps) {
		t.Error("the player is still active after the confirmation")
	}
	r = b.mustGet(page, http.StatusOK)
	if !strings.Contains(r.Body, name+" left during game 1") || strings.Contains(r.Body, `<option value="`+leaving+`"`) {
		t.Errorf("table page after the withdrawal does not list %s as gone:\n%s", name, r.Body)
	}
	if r := b.post(page, action, url.Values{"player": {leaving}, "handling": {"finish"}, "reason": {"x"}, "confirm": {"1"}}); r.Status != http.StatusConflict {
		t.Errorf("withdrawing the same player again = %d, want 409", r.Status)
	}
	if r := b.get(fmt.Sprintf("/t/%s/console/rounds/1/tables/99", f.ID)); r.Status != http.StatusNotFound {
		t.Errorf("an unknown table = %d, want 404", r.Status)
	}
}

func allActive(ps []tournament.Player) bool {
	for _, p := range ps {
		if p.Status != tournament.PlayerActive {
			return false
		}
	}
	return true
}

// TestBrowserTableChanges opens a table's page in Chromium at a true 360 px
// and at desktop width, in Swedish and English, goes to the confirmation
// step of a withdrawal, and checks that nothing scrolls sideways.
func TestBrowserTableChanges(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSwiss, 8, true)
	page := fmt.Sprintf("/t/%s/console/rounds/1/tables/1", f.ID)
	for _, size := range viewports {
		c := newChrome(t, size.w, size.h)
		c.do("viewport", chromedp.EmulateViewport(int64(size.w), int64(size.h)))
		c.do("log in", chromedp.Navigate(s.URL+"/login?next="+url.QueryEscape(page)), chromedp.SendKeys(chromedp.ID("token"), f.Token),
			chromedp.Submit(chromedp.ID("token")), chromedp.WaitVisible(chromedp.ID("withdraw-form")))
		for _, lang := range []string{"sv", "en"} {
			c.do("open the table", chromedp.Navigate(s.URL+"/lang/"+lang+"?next="+page), chromedp.WaitVisible(chromedp.ID("withdraw-form")))
			c.screenshot(fmt.Sprintf("table-changes-%s-%s", lang, size.name))
			c.do("choose", chromedp.Click(chromedp.ID("handling-forfeit")), chromedp.SendKeys(chromedp.ID("withdraw-reason"), "sjuk"),
				chromedp.Click(chromedp.ID("withdraw-continue")), chromedp.WaitVisible(chromedp.ID("withdraw-confirm")))
			if got := c.eval(`String(document.documentElement.scrollWidth <= window.innerWidth)`); got != "true" {
				t.Errorf("%s confirmation at %d px scrolls sideways", lang, size.w)
			}
			c.screenshot(fmt.Sprintf("table-changes-confirm-%s-%s", lang, size.name))
		}
	}
}

// TestConsoleReseat: the organizer swaps two players from the table's
// page; the seating page shows the new tables; once the table has a result
// its page says it can no longer change and a swap is refused next to the
// form with the reason.
func TestConsoleReseat(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSwiss, 8, true)
	t1, t2 := f.Round.Tables[0], f.Round.Tables[1]
	page := fmt.Sprintf("/t/%s/console/rounds/1/tables/1", f.ID)
	b := s.browser(t)
	b.login(f.Token)
	names := map[string]string{}
	for _, p := range f.Players {
		names[p.ID] = p.Name
	}
	if r := b.mustGet(page, http.StatusOK); !strings.Contains(r.Body, `id="swap-form"`) || !strings.Contains(r.Body, "Table 2: "+names[t2.Players[0]]) {
		t.Fatalf("table page lacks the swap form with table 2's players")
	}
	if r := b.post(page, page+"/reseat", url.Values{"player": {t1.Players[0]}, "with": {t2.Players[0]}, "reason": {"wrong table"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("swap = %d, want 303\n%s", r.Status, r.Body)
	}
	rv, err := s.plays.Round(context.Background(), f.ID, 1)
	if err != nil || rv.Round.Tables[0].Players[0] != t2.Players[0] || rv.Round.Tables[1].Players[0] != t1.Players[0] {
		t.Fatalf("round after the swap = %+v, %v", rv.Round.Tables, err)
	}
	seating := b.mustGet(fmt.Sprintf("/t/%s/seating?round=1", f.ID), http.StatusOK).Body
	if i := strings.Index(seating, names[t2.Players[0]]); i < 0 || i > strings.Index(seating, names[t1.Players[0]]) {
		t.Errorf("the seating page does not show %s at table 1 before %s", names[t2.Players[0]], names[t1.Players[0]])
	}
	r := b.post(page, page+"/reseat", url.Values{"player": {t2.Players[0]}, "table": {"2"}, "reason": {"x"}})
	if r.Status != http.StatusConflict || !strings.Contains(r.Body, `id="reseat-error"`) {
		t.Errorf("a move to a full table = %d, want 409 next to the form", r.Status)
	}
	tb, _ := rv.Round.Table(1)
	s.playAll(t, f, &tournament.Round{Number: 1, Tables: []tournament.Table{tb}}, 3)
	started := func(body string) bool { return strings.Contains(body, `id="reseat-started"`) }
	if r := b.getUntil(page, http.StatusOK, started); !started(r.Body) {
		t.Error("the page of a table with a result still offers to re-seat it (10 s after the result)")
	}
	// A form of the page as it was before the result: the CSRF token of the console.
	r = b.post(fmt.Sprintf("/t/%s/console", f.ID), page+"/reseat", url.Values{"player": {t2.Players[1]}, "with": {t1.Players[1]}, "reason": {"x"}})
	if r.Status != http.StatusConflict || !strings.Contains(r.Body, "it can no longer be re-seated") {
		t.Errorf("a swap with a table that has a result = %d, want 409 saying why", r.Status)
	}
}
