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
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSwiss, 8, true)
	page := fmt.Sprintf("/t/%s/console/rounds/1/tables/1", f.ID)
	for _, size := range []struct {
		name string
		w, h int
	}{{"phone", 360, 740}, {"desktop", 1366, 900}} {
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
