package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/revisor-sm/revisor/tournament"
)

// TestConsoleUndoCallTime (issue 30): after calling time the console
// offers to take the call back, with a reason; without one the console
// says so next to the clock; a visitor and a table cannot; with one the
// clock runs again and the audit log keeps who, when and why.
func TestConsoleUndoCallTime(t *testing.T) {
	t.Parallel()
	r := newRoomFixture(t)
	console := "/t/" + r.ID + "/console"
	clock := console + "/rounds/1/clock"
	b := r.s.browser(t)
	b.login(r.Token)
	for _, act := range []url.Values{{"action": {"start"}, "minutes": {"45"}}, {"action": {"call_time"}}} {
		if got := b.post(console, clock, act); got.Status != http.StatusSeeOther {
			t.Fatalf("%v = %d\n%s", act, got.Status, got.Body)
		}
	}
	page := b.mustGet(console, http.StatusOK)
	if !strings.Contains(page.Body, `id="clock-undo"`) || !strings.Contains(page.Body, "Called by mistake? Until ") {
		t.Fatalf("the console after calling time offers no undo:\n%s", page.Body)
	}
	got := b.post(console, clock, url.Values{"action": {"undo_call_time"}, "reason": {"  "}})
	if got.Status != http.StatusBadRequest || !strings.Contains(got.Body, `id="clock-error"`) || !strings.Contains(got.Body, "Write the reason (a sentence).") ||
		!strings.Contains(got.Body, `id="undo-reason"`) {
		t.Errorf("undo without a reason = %d, want 400 with the words next to the clock\n%s", got.Status, got.Body)
	}
	anon := r.s.browser(t)
	if got := anon.post("/login", clock, url.Values{"action": {"undo_call_time"}, "reason": {"x"}}); !refused(got) {
		t.Errorf("undo by a visitor = %d to %q, want a refusal", got.Status, got.Header.Get("Location"))
	}
	table := r.s.browser(t)
	table.tableLogin(&fixture{ID: r.ID}, tableCode(t, r.s, &fixture{ID: r.ID}, 1))
	if got := table.post("/t/"+r.ID+"/table", clock, url.Values{"action": {"undo_call_time"}, "reason": {"x"}}); !refused(got) {
		t.Errorf("undo by a table = %d to %q, want a refusal", got.Status, got.Header.Get("Location"))
	}
	if clk, _ := r.s.svc.RoundClock(context.Background(), r.ID, 1); clk.State != tournament.ClockTimeCalled {
		t.Fatalf("after the refusals the clock is %s, want time called", clk.State)
	}
	if got := b.post(console, clock, url.Values{"action": {"undo_call_time"}, "reason": {"called the wrong round"}}); got.Status != http.StatusSeeOther {
		t.Fatalf("undo with a reason = %d\n%s", got.Status, got.Body)
	}
	if clk, _ := r.s.svc.RoundClock(context.Background(), r.ID, 1); clk.State != tournament.ClockRunning {
		t.Errorf("after the undo the clock is %s, want running", clk.State)
	}
	page = b.mustGet(console, http.StatusOK)
	if !strings.Contains(page.Body, `id="clock-pause"`) || strings.Contains(page.Body, `id="clock-undo"`) {
		t.Errorf("the console after the undo does not show a running clock")
	}
	au, err := r.s.refs.Audit(context.Background(), org, r.ID, tournament.AuditFilter{Kind: "round_clocks"})
	if err != nil || len(au.Entries) == 0 {
		t.Fatalf("audit: %+v, %v", au, err)
	}
	if last := au.Entries[len(au.Entries)-1]; last.Reason != "called the wrong round" || last.Role != "organizer" || last.At.IsZero() {
		t.Errorf("the undo's audit entry = %s by %s at %v, want the reason by the organizer", last.Reason, last.Role, last.At)
	}
}

// refused reports whether a console's answer turns the caller away: 401,
// 403, or a redirect to the login.
func refused(r response) bool {
	return r.Status == http.StatusUnauthorized || r.Status == http.StatusForbidden ||
		r.Status == http.StatusSeeOther && strings.HasPrefix(r.Header.Get("Location"), "/login")
}

// TestBrowserUndoCallTime: on the console at 360 px and desktop, calling
// time (after its question) shows "Undo calling time" with a reason field;
// the reason typed and the button pressed, the clock counts down again.
func TestBrowserUndoCallTime(t *testing.T) {
	t.Parallel()
	for _, vp := range viewports {
		r := newRoomFixture(t)
		c := newChrome(t, vp.w, vp.h)
		c.do("viewport", chromedp.EmulateViewport(int64(vp.w), int64(vp.h)))
		c.do("log in", chromedp.Navigate(r.s.URL+"/lang/en?next=/login"),
			chromedp.SendKeys(chromedp.ID("token"), r.Token), chromedp.Submit(chromedp.ID("token")),
			chromedp.WaitVisible(chromedp.ID("clock-start")))
		c.clickAndWait("start the clock", "#clock-start", `document.getElementById("clock-pause") !== null`)
		c.do("call time", chromedp.Click(chromedp.ID("clock-call")), chromedp.WaitVisible(chromedp.ID("confirm-dialog")))
		c.clickAndWait("yes", "#confirm-ok", `document.getElementById("clock-undo") !== null`)
		if got := c.eval(`document.querySelector("[data-clock] .clock-state").textContent`); !strings.HasPrefix(got, "Time is called") {
			t.Errorf("%s: the clock reads %q after calling time", vp.name, got)
		}
		c.notSideways(vp.name + ": the console with the undo")
		c.screenshot("undo-call-" + vp.name)
		c.do("give the reason", chromedp.SendKeys(chromedp.ID("undo-reason"), "pressed by mistake"))
		c.clickAndWait("undo", "#clock-undo", `document.getElementById("clock-pause") !== null`)
		first := c.eval(`document.querySelector("[data-clock] .clock-time").textContent`)
		waitJS(t, c, "the clock counting down again", `document.querySelector("[data-clock] .clock-time").textContent !== `+fmt.Sprintf("%q", first), 5*time.Second)
		if clk, _ := r.s.svc.RoundClock(context.Background(), r.ID, 1); clk.State != tournament.ClockRunning || clk.Action != tournament.ClockUndoCall {
			t.Errorf("%s: the stored clock is %s after %s, want running after the undo", vp.name, clk.State, clk.Action)
		}
	}
}
