package web_test

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/revisor-sm/revisor/tournament"
)

// TestBrowserFormSentOnce: a form on its way is not sent again from its
// page (static/app.js). The admin's new tournament, clicked and then sent
// again before its answer, is sent once: the second submit is dropped
// (this check fails without the guard). A double click then creates one
// tournament: a check of the whole, which Chromium alone passed too (it
// let the second navigation replace the first before the first left). A
// form that asks first (the deletion's dialog) is not taken as sent while
// it asks: "Cancel", then asking again and "yes", deletes the player.
func TestBrowserFormSentOnce(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	c := newChrome(t, 360, 740)
	c.do("viewport", chromedp.EmulateViewport(360, 740))
	c.adminLogin(s.URL)
	create := `document.querySelector('form[action="/admin/tournaments"] button[type="submit"]')`
	c.do("name it", chromedp.SendKeys(chromedp.ID("name"), "Dubbelklick"))
	// The second submit in the same task as the click: the page is asked
	// for, not yet answered.
	if again := c.eval(`(function () {
		var b = ` + create + `;
		b.click();
		return String(b.form.dispatchEvent(new SubmitEvent("submit", {bubbles: true, cancelable: true, submitter: b})));
	})()`); again != "false" {
		t.Errorf("the form sent again while its page is on its way: the submit was not dropped (dispatchEvent = %s)", again)
	}
	c.do("the tournament made", chromedp.WaitVisible(chromedp.ID("organizer-token")))

	c.do("open the form again", chromedp.Navigate(s.URL+"/admin"), chromedp.WaitVisible(chromedp.ID("name")),
		chromedp.SendKeys(chromedp.ID("name"), "Dubbelklick 2"))
	c.eval(`(function () { var b = ` + create + `; b.click(); setTimeout(function () { b.click(); }, 0); return ""; })()`)
	c.do("the second made", chromedp.WaitVisible(chromedp.ID("organizer-token")))
	list, err := s.svc.ListTournaments(context.Background(), tournament.Actor{Role: tournament.RoleAdmin}, 1)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]int{}
	for _, tt := range list.Tournaments {
		names[tt.Name]++
	}
	if names["Dubbelklick"] != 1 || names["Dubbelklick 2"] != 1 {
		t.Errorf("tournaments made by a form sent twice: %v; want one of each", names)
	}

	// A form that asks first is sent once the organizer says yes.
	f := s.mustTournament(t, tournament.FormatSM, 2, false)
	c.do("log in", chromedp.Navigate(s.URL+"/login"), chromedp.SendKeys(chromedp.ID("token"), f.Token),
		chromedp.Submit(chromedp.ID("token")), chromedp.WaitVisible(chromedp.ID("players-link")))
	c.do("open a player", chromedp.Navigate(s.URL+"/t/"+f.ID+"/console/players/p2"), chromedp.WaitVisible(chromedp.ID("delete-player")))
	c.do("ask, then cancel", chromedp.Click(chromedp.ID("delete-player")), chromedp.WaitVisible(chromedp.ID("confirm-dialog")),
		chromedp.Click(chromedp.ID("confirm-cancel")), chromedp.WaitNotVisible(chromedp.ID("confirm-dialog")))
	c.do("ask again", chromedp.Click(chromedp.ID("delete-player")), chromedp.WaitVisible(chromedp.ID("confirm-dialog")))
	c.clickAndWait("say yes", "#confirm-ok", `document.getElementById("player-list") !== null`)
	if ps, _ := s.svc.Players(context.Background(), f.ID); len(ps) != 1 {
		t.Errorf("%d players after one of 2 deleted, want 1", len(ps))
	}
}
