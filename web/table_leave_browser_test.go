package web_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/referee"
)

// wide is true when nothing on the tab's page scrolls sideways.
const wide = `document.documentElement.scrollWidth <= window.innerWidth`

// TestBrowserTableLeaveWithQueue: phone A holds a deal that needs a
// decision (phone B stored other points under its number) and leaves the
// table: the page asks first, naming the deal and saying it stays on this
// phone; "cancel" keeps A at the table; leaving shows the code form with
// what the phone still holds; entering the code again brings the deal
// back at the top, where the table decides it. The server holds B's deal
// once throughout, and phone B shows it.
func TestBrowserTableLeaveWithQueue(t *testing.T) {
	t.Parallel()
	s, f, a, b := twoPhones(t)
	theirs, mine := map[string]string{"s1_hand1": "2", "s2_last": "5"}, map[string]string{"s1_hand1": "4", "s2_last": "5"}
	conflictOn(t, a, b, "phone A", 1, mine, theirs)
	tb, _ := f.Round.Table(1)
	anna := nameOf(f, tb.Players[0])
	if err := a.click("leave the table", "form.logout button"); err != nil {
		t.Fatal(err)
	}
	if err := a.until("the question before leaving", `document.getElementById("confirm-dialog").open`, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	ask, _ := a.eval(`document.getElementById("confirm-text").textContent + " | " + document.getElementById("confirm-ok").textContent`)
	if !strings.Contains(ask, "deal 1 ("+anna+" 4") || !strings.Contains(ask, "stays on this phone") || !strings.Contains(ask, "Leave, keep it on this phone") {
		t.Errorf("leaving asks %q, want deal 1 with %s's 4 named and kept on this phone", ask, anna)
	}
	a.screenshot(t, "table-leave-ask-360-en")
	if err := a.click("cancel", "#confirm-cancel"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if n, _ := a.eval(`String(!!document.getElementById("table-app")) + " " + document.getElementById("table-app").dataset.conflicts`); n != "true 1" {
		t.Errorf("after cancel: table page and conflicts = %q, want still at the table with 1", n)
	}
	if err := a.click("leave the table", "form.logout button"); err != nil {
		t.Fatal(err)
	}
	if err := a.until("the question again", `document.getElementById("confirm-dialog").open`, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := a.click("leave, keep it", "#confirm-ok"); err != nil {
		t.Fatal(err)
	}
	if err := a.untilAcrossLoads("the code form saying what the phone holds", `!!document.getElementById("table-login") && !document.getElementById("held").hidden`, 20*time.Second); err != nil {
		t.Fatal(err)
	}
	if held, _ := a.eval(`document.getElementById("held").textContent`); !strings.Contains(held, "1 entry of table 1, round 1") {
		t.Errorf("the code form says %q, want the entry of table 1, round 1 it holds", held)
	}
	if ok, _ := a.eval(`String(` + wide + `)`); ok != "true" {
		t.Errorf("the code form scrolls sideways at 360 px")
	}
	a.screenshot(t, "table-left-held-360-en")
	wantStored(t, "after phone A left", storedDeals(t, s, f, 1), theirs)
	if n, _ := b.eval(`document.getElementById("table-app").dataset.pending + " " + document.querySelectorAll('#deals tbody tr[data-deal]').length`); n != "0 1" {
		t.Errorf("phone B: pending and deals = %q, want 0 and deal 1", n)
	}

	// Back at the table: the deal needs its decision again.
	openTable(t, s, f, 1, a)
	if err := a.until("the conflict back at the top", `document.querySelector('#decide li[data-deal="1"][data-state="conflict"]') !== null`, 20*time.Second); err != nil {
		t.Fatal(err)
	}
	// The list is drawn again as the page reads its game: click what is there.
	if _, err := a.eval(`document.querySelector('#decide li[data-deal="1"] .keep-stored').click(), ""`); err != nil {
		t.Fatal(err)
	}
	if err := a.until("the decision made", `document.getElementById("decide").hidden && !document.querySelector("form.logout").hasAttribute("data-confirm")`, 20*time.Second); err != nil {
		t.Fatal(err)
	}
	wantStored(t, "deal 1 kept as stored", storedDeals(t, s, f, 1), theirs)
	// With nothing held, leaving asks nothing and the code form says nothing.
	if err := a.click("leave the table", "form.logout button"); err != nil {
		t.Fatal(err)
	}
	if err := a.untilAcrossLoads("the code form", `!!document.getElementById("table-login")`, 20*time.Second); err != nil {
		t.Fatal(err)
	}
	if h, _ := a.eval(`String(document.getElementById("held").hidden)`); h != "true" {
		t.Errorf("the code form says the phone holds something after the decision")
	}
}

// TestBrowserTableDisputeFeedback: phone A sends a dispute about a
// finished game; both phones at the table show it as sent, then, live
// (without loading the page again), seen once a referee opens it, then
// ruled with the ruling's reason; the server holds each step.
func TestBrowserTableDisputeFeedback(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	tb, _ := f.Round.Table(1)
	h := s.browser(t)
	h.tableLogin(f, tableCode(t, s, f, 1))
	h.playGame(f, tb, 1, 4)
	tabs := newTabs(t, 2, 360, 800)
	a, b := tabs[0], tabs[1]
	code := tableCode(t, s, f, 1)
	for _, p := range tabs {
		if err := p.do("open game 1", chromedp.Navigate(s.URL+"/lang/en?next=/"), chromedp.Navigate(s.URL+"/t/"+f.ID+"/table#code="+code),
			chromedp.WaitVisible(chromedp.ID("table-app")), chromedp.Navigate(s.URL+"/t/"+f.ID+"/table?game=1"),
			chromedp.WaitVisible(chromedp.ID("dispute"))); err != nil {
			t.Fatal(err)
		}
		if err := p.until("the event stream open", `document.body.dataset.live === "on"`, 20*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.eval(`window.stayed = "yes", ""`); err != nil {
		t.Fatal(err)
	}
	if err := a.do("send a dispute", chromedp.Click(chromedp.CSS("#dispute summary")),
		chromedp.SetValue(chromedp.ID("dispute-deal"), "2"),
		chromedp.SendKeys(chromedp.ID("dispute-text"), "The final hand was a flush."),
		chromedp.Click(chromedp.ID("open-dispute"))); err != nil {
		t.Fatal(err)
	}
	state := func(p *tab, want string) string {
		return `(function () { var li = document.querySelector('#disputes li[data-game="1"][data-deal="2"]'); return !!li && li.dataset.state === "` + want + `"; })()`
	}
	if err := a.untilAcrossLoads("sent, on phone A", state(a, "sent"), 20*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := b.until("sent, on phone B", state(b, "sent"), 20*time.Second); err != nil {
		t.Fatal(err)
	}
	if w, _ := a.eval(`document.getElementById("disputes").textContent`); !strings.Contains(w, "Game 1, deal 2") || !strings.Contains(w, "waiting for a referee") {
		t.Errorf("phone A says %q, want game 1, deal 2 waiting for a referee", w)
	}
	a.screenshot(t, "table-dispute-sent-360-en")
	ds, err := s.refs.Disputes(context.Background(), org, f.ID, referee.DisputeFilter{})
	if err != nil || len(ds.Disputes) != 1 || ds.Disputes[0].SeenAt != nil {
		t.Fatalf("the server's disputes = %+v, %v; want one, unseen", ds, err)
	}
	id := strconv.FormatInt(ds.Disputes[0].ID, 10)
	// The organizer's room view and console show the open dispute.
	for _, w := range []int{360, 1280} {
		org := newTabs(t, 1, w, 900)[0]
		if err := org.do("log in", chromedp.Navigate(s.URL+"/lang/en?next=/login"),
			chromedp.SendKeys(chromedp.ID("token"), f.Token), chromedp.Submit(chromedp.ID("token")),
			chromedp.WaitVisible(chromedp.ID("console-disputes"))); err != nil {
			t.Fatal(err)
		}
		org.screenshot(t, fmt.Sprintf("console-dispute-%d-en", w))
		if err := org.do("the room view", chromedp.Navigate(s.URL+"/t/"+f.ID+"/console/rounds/1/room"),
			chromedp.WaitVisible(chromedp.CSS(".dispute-flag"))); err != nil {
			t.Fatal(err)
		}
		if ok, _ := org.eval(`String(` + wide + `)`); ok != "true" {
			t.Errorf("the room view scrolls sideways at %d px", w)
		}
		org.screenshot(t, fmt.Sprintf("room-dispute-%d-en", w))
	}
	o := s.browser(t)
	o.login(f.Token)
	o.mustGet("/t/"+f.ID+"/disputes/"+id, http.StatusOK)
	for _, p := range tabs {
		if err := p.until("seen, live", state(p, "seen"), 20*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if d, err := s.refs.Dispute(context.Background(), org, f.ID, ds.Disputes[0].ID); err != nil || d.SeenAt == nil {
		t.Fatalf("the server's dispute = %+v, %v; want it seen", d, err)
	}
	b.screenshot(t, "table-dispute-seen-360-en")
	if _, err := s.refs.Rule(context.Background(), tournament.Actor{Role: tournament.RoleReferee, TokenID: "referee:r1"}, f.ID, ds.Disputes[0].ID,
		referee.NewRuling{Decision: referee.DecisionRejected, Reason: "The sheet adds up."}); err != nil {
		t.Fatal(err)
	}
	for _, p := range tabs {
		if err := p.until("ruled, live", state(p, "ruled"), 20*time.Second); err != nil {
			t.Fatal(err)
		}
		if w, _ := p.eval(`document.getElementById("disputes").textContent`); !strings.Contains(w, "the dispute was rejected, the result stands") || !strings.Contains(w, "The sheet adds up.") {
			t.Errorf("%s says %q, want the ruling and its reason", p.name, w)
		}
		if ok, _ := p.eval(`String(` + wide + `)`); ok != "true" {
			t.Errorf("%s scrolls sideways at 360 px", p.name)
		}
	}
	if stayed, _ := b.eval(`String(window.stayed)`); stayed != "yes" {
		t.Errorf("phone B loaded its page again; want the dispute's steps live")
	}
	b.screenshot(t, "table-dispute-ruled-360-en")
	desk := newTabs(t, 1, 1280, 900)[0]
	if err := desk.do("open game 1 at 1280 px", chromedp.Navigate(s.URL+"/lang/en?next=/"), chromedp.Navigate(s.URL+"/t/"+f.ID+"/table#code="+code),
		chromedp.WaitVisible(chromedp.ID("table-app")), chromedp.Navigate(s.URL+"/t/"+f.ID+"/table?game=1"), chromedp.WaitVisible(chromedp.ID("disputes"))); err != nil {
		t.Fatal(err)
	}
	desk.screenshot(t, "table-dispute-ruled-1280-en")
}
