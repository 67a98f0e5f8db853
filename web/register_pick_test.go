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
	"github.com/revisor-sm/revisor/tournament/registry"
)

// TestConsolePickFromRegister: the players page searches the register by
// name or club; picking an entry registers the player as that person (no
// new entry), adding someone new makes a new entry; a search that matches
// nobody says so. Membership numbers are not shown.
func TestConsolePickFromRegister(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	ctx := context.Background()
	anna, err := s.reg.AddPerson(ctx, admin, registry.NewPerson{Name: "Anna Lund", Club: "BK Ess", Membership: "SE-4711"})
	if err != nil {
		t.Fatal(err)
	}
	f := s.mustTournament(t, tournament.FormatSwiss, 0, false)
	page := "/t/" + f.ID + "/console/players"
	b := s.browser(t)
	b.login(f.Token)
	for q, want := range map[string]string{"anna": "Anna Lund", "ess": "Anna Lund", "nobody": "Nobody in the register matches"} {
		r := b.mustGet(page+"?find="+url.QueryEscape(q), http.StatusOK)
		if !strings.Contains(r.Body, want) || strings.Contains(r.Body, "SE-4711") {
			t.Errorf("search %q: page lacks %q or shows the membership number", q, want)
		}
	}
	b.lang = "sv"
	if r := b.mustGet(page+"?find=anna", http.StatusOK); !strings.Contains(r.Body, "Sök i registret") {
		t.Error("the Swedish players page lacks the register search")
	}
	r := b.post(page+"?find=anna", page, url.Values{"person": {anna.ID}, "name": {anna.Name}, "club": {anna.Club}})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("picking %s = %d, want 303\n%s", anna.ID, r.Status, r.Body)
	}
	if r := b.post(page, page, url.Values{"name": {"Bo Nilsson"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("adding someone new = %d, want 303", r.Status)
	}
	ps, err := s.svc.Players(ctx, f.ID)
	if err != nil || len(ps) != 2 || ps[0].PersonID != anna.ID || ps[1].PersonID == "" || ps[1].PersonID == anna.ID {
		t.Fatalf("players = %+v, %v; want Anna as %s and Bo as a new entry", ps, err, anna.ID)
	}
	r = b.post(page, page, url.Values{"person": {"P999999"}, "name": {"Nobody"}})
	if r.Status != http.StatusBadRequest || !strings.Contains(r.Body, `id="add-error"`) {
		t.Errorf("picking an unknown entry = %d, want 400 next to the form", r.Status)
	}
}

// TestBrowserPickFromRegister shows the register search with a match at a
// true 360 px and at desktop width, in Swedish and English.
func TestBrowserPickFromRegister(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	if _, err := s.reg.AddPerson(context.Background(), admin, registry.NewPerson{Name: "Anna-Karin Lindqvist-Bergström", Club: "Chicagoklubben i Västerås"}); err != nil {
		t.Fatal(err)
	}
	f := s.mustTournament(t, tournament.FormatSwiss, 0, false)
	page := "/t/" + f.ID + "/console/players?find=anna"
	for _, size := range viewports {
		c := newChrome(t, size.w, size.h)
		c.do("viewport", chromedp.EmulateViewport(int64(size.w), int64(size.h)))
		c.do("log in", chromedp.Navigate(s.URL+"/login?next="+url.QueryEscape(page)), chromedp.SendKeys(chromedp.ID("token"), f.Token),
			chromedp.Submit(chromedp.ID("token")), chromedp.WaitVisible(chromedp.ID("register-found")))
		for _, lang := range []string{"sv", "en"} {
			c.do("open", chromedp.Navigate(s.URL+"/lang/"+lang+"?next="+url.QueryEscape(page)), chromedp.WaitVisible(chromedp.ID("register-found")))
			if got := c.eval(`String(document.documentElement.scrollWidth <= window.innerWidth)`); got != "true" {
				t.Errorf("%s players page with a search at %d px scrolls sideways", lang, size.w)
			}
			c.screenshot(fmt.Sprintf("register-pick-%s-%s", lang, size.name))
		}
	}
}
