package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
)

// TestTableCorrection corrects a stored deal on the table page: the form
// comes prefilled, the reason is required, the running totals follow the
// correction and the deal is marked; once every player has confirmed the
// game, the page offers no correction and a posted one is refused in words.
func TestTableCorrection(t *testing.T) {
	t.Parallel()
	s, f, tb, b := tableAt(t, 8)
	k := tournament.GameKey{TournamentID: f.ID, Round: 1, Table: 1, Game: 1}
	deals := []url.Values{{"s1_hand1": {"2"}, "s2_last": {"5"}}, {"s3_hand1": {"8"}, "s3_hand2": {"8"}, "s4_last": {"5"}}, {"s3_last": {"C15"}}}
	for n, deal := range deals {
		if status, ans := b.postDeal(f, 1, n+1, "", deal); !ans.OK {
			t.Fatalf("deal %d = %d %+v", n+1, status, ans)
		}
	}
	page := "/t/" + f.ID + "/table"
	r := b.mustGet(page+"?game=1", http.StatusOK)
	if !strings.Contains(r.Body, `id="correct-pick"`) {
		t.Fatalf("a game with stored deals: no way to correct one\n%s", r.Body)
	}
	// The correction form holds the deal as it was stored.
	r = b.mustGet(page+"?game=1&correct=1", http.StatusOK)
	for _, want := range []string{`id="correct-form"`, `action="/t/` + f.ID + `/table/games/1/deals/1"`, `name="s1_hand1" id="s1_hand1" value="2"`,
		`<option value="5" selected>`, `name="reason"`, "Correct deal 1"} {
		if !strings.Contains(r.Body, want) {
			t.Errorf("correction form lacks %q", want)
		}
	}
	if strings.Contains(r.Body, `id="deal-form"`) {
		t.Errorf("correction form shown beside the entry form")
	}
	// A Chicago is prefilled as such.
	if r = b.mustGet(page+"?game=1&correct=3", http.StatusOK); !strings.Contains(r.Body, `<option value="C15" selected>`) {
		t.Errorf("correcting deal 3: the Chicago is not selected")
	}

	action := page + "/games/1/deals/1"
	from := page + "?game=1&correct=1"
	// Bad input: no reason; a deal the engine refuses; a deal not stored.
	r = b.post(from, action, url.Values{"s1_hand1": {"3"}, "s2_last": {"5"}})
	if r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.Body, "Write why the deal is corrected") || !strings.Contains(r.Body, `value="3"`) {
		t.Errorf("correction without a reason = %d, want 422 with the words beside the reason and the values kept\n%s", r.Status, r.Body)
	}
	r = b.post(from, action, url.Values{"s1_last": {"5"}, "s2_last": {"5"}, "reason": {"typo"}})
	if r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.Body, "another player already has these points") {
		t.Errorf("a refused correction = %d, want 422 with the engine's words\n%s", r.Status, r.Body)
	}
	r = b.post(from, page+"/games/1/deals/7", url.Values{"s1_last": {"5"}, "reason": {"typo"}})
	if r.Status != http.StatusNotFound || !strings.Contains(r.Body, "not stored yet") {
		t.Errorf("correcting a deal not stored = %d, want 404 in words", r.Status)
	}
	if r = b.post(from, page+"/games/1/deals/x", url.Values{"reason": {"typo"}}); r.Status != http.StatusBadRequest {
		t.Errorf("a deal number that is not a number = %d, want 400", r.Status)
	}
	if pr, _ := s.plays.Progress(context.Background(), k); pr.Scores[tb.Players[0]] != 2 {
		t.Fatalf("refused corrections changed the game: %+v", pr.Scores)
	}

	// Wrong role: no table session, the organizer's session.
	if r = s.browser(t).do(http.MethodPost, action, url.Values{"s1_hand1": {"3"}, "reason": {"x"}}); r.Status != http.StatusForbidden && r.Status != http.StatusSeeOther {
		t.Errorf("correction without a session = %d, want 403 (no CSRF) or the code form", r.Status)
	}
	o := s.browser(t)
	o.login(f.Token)
	if r = o.post(page, action, url.Values{"s1_hand1": {"3"}, "s2_last": {"5"}, "reason": {"x"}}); r.Status != http.StatusSeeOther || r.Header.Get("Location") != page {
		t.Errorf("correction with the organizer's session = %d to %q, want the table's code form", r.Status, r.Header.Get("Location"))
	}

	// The correction: 3 points in phase 1 instead of 2.
	r = b.post(from, action, url.Values{"s1_hand1": {"3"}, "s2_last": {"5"}, "reason": {"Anna had three, not two"}})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("correction = %d, want 303\n%s", r.Status, r.Body)
	}
	if pr, _ := s.plays.Progress(context.Background(), k); pr.Scores[tb.Players[0]] != 3 || len(pr.Deals) != 3 {
		t.Fatalf("after the correction: %d deals, %s has %d; want 3 deals and 3 points", len(pr.Deals), tb.Players[0], pr.Scores[tb.Players[0]])
	}
	r = b.mustGet(page+"?game=1", http.StatusOK)
	if !strings.Contains(r.Body, `<span class="corrected">corrected</span>`) || !strings.Contains(r.Body, `<td class="num sum">3</td>`) {
		t.Errorf("after the correction: want deal 1 marked corrected and the running total 3\n%s", r.Body)
	}

	// Time is called: deal 4 ends the game. Once every player has
	// confirmed it, no more corrections.
	setClock(t, s, f, `{"action": "start", "minutes": 90}`)
	setClock(t, s, f, `{"action": "call_time"}`)
	if status, ans := b.postDeal(f, 1, 4, "", url.Values{"s1_last": {"5"}}); !ans.GameOver {
		t.Fatalf("deal 4 after time was called = %d %+v, want the game over", status, ans)
	}
	r = b.mustGet(page+"?game=1&correct=4", http.StatusOK)
	if !strings.Contains(r.Body, `id="correct-form"`) {
		t.Errorf("a finished game not yet confirmed: no correction form")
	}
	for _, pid := range tb.Players {
		if r = b.post(page+"?game=1", page+"/games/1/confirmations", url.Values{"player": {pid}}); r.Status != http.StatusSeeOther {
			t.Fatalf("confirm = %d\n%s", r.Status, r.Body)
		}
	}
	r = b.mustGet(page+"?game=1&correct=1", http.StatusOK)
	if strings.Contains(r.Body, `id="correct-pick"`) || strings.Contains(r.Body, `id="correct-form"`) {
		t.Errorf("a confirmed game still offers a correction")
	}
	r = b.post(page+"?game=1", action, url.Values{"s1_hand1": {"4"}, "s2_last": {"5"}, "reason": {"late"}})
	if r.Status != http.StatusConflict || !strings.Contains(r.Body, "can no longer be corrected") {
		t.Errorf("correcting a confirmed game = %d, want 409 in words\n%s", r.Status, r.Body)
	}
}
