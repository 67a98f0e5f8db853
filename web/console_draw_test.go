package web_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
)

// drawKey is the draw form's Idempotency-Key field.
var drawKey = regexp.MustCompile(`name="idempotency_key" value="([0-9a-f]+)"`)

// TestConsoleDrawOnce: the console's draw form carries an Idempotency-Key,
// so that the form sent twice (a double click, a reload that posts again)
// draws one round and answers both as the first; the key with another
// seed is refused; a seed that is not a number is refused in words and
// draws nothing; a table's session cannot draw.
func TestConsoleDrawOnce(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, false)
	console := "/t/" + f.ID + "/console"
	b := s.browser(t)
	b.login(f.Token)
	rounds := func() int {
		t.Helper()
		rs, err := s.plays.Rounds(context.Background(), f.ID)
		if err != nil {
			t.Fatal(err)
		}
		return len(rs)
	}

	if r := b.post(console, console+"/rounds", url.Values{"seed": {"x"}}); r.Status != http.StatusBadRequest || !strings.Contains(r.Body, "seed") {
		t.Errorf("a seed that is not a number = %d, want 400 in words\n%s", r.Status, r.Body)
	}
	m := drawKey.FindStringSubmatch(b.mustGet(console, http.StatusOK).Body)
	if m == nil {
		t.Fatal("the draw form has no Idempotency-Key")
	}
	for try := range 2 {
		if r := b.post(console, console+"/rounds", url.Values{"seed": {"42"}, "idempotency_key": {m[1]}}); r.Status != http.StatusSeeOther {
			t.Fatalf("draw, try %d = %d, want 303\n%s", try+1, r.Status, r.Body)
		}
	}
	if n := rounds(); n != 1 {
		t.Fatalf("%d rounds after one draw form sent twice, want 1", n)
	}
	if r := b.post(console, console+"/rounds", url.Values{"seed": {"7"}, "idempotency_key": {m[1]}}); r.Status != http.StatusUnprocessableEntity {
		t.Errorf("the draw's key with another seed = %d, want 422\n%s", r.Status, r.Body)
	}
	if n := rounds(); n != 1 {
		t.Errorf("%d rounds after the key was sent with another seed, want 1", n)
	}
	// Another form (a new key) is another draw: refused while round 1 is
	// open.
	if r := b.post(console, console+"/rounds", url.Values{"seed": {"42"}, "idempotency_key": {"another"}}); r.Status != http.StatusConflict {
		t.Errorf("a second draw while round 1 is open = %d, want 409\n%s", r.Status, r.Body)
	}

	// A table's session is not the organizer's: it cannot draw.
	tb := s.browser(t)
	tb.tableLogin(f, tableCode(t, s, f, 1))
	if r := tb.do(http.MethodPost, console+"/rounds", url.Values{"seed": {"42"}, "idempotency_key": {"table"}}); r.Status < 400 {
		t.Errorf("a table's draw = %d, want a refusal", r.Status)
	}
	if n := rounds(); n != 1 {
		t.Errorf("%d rounds after a table's draw, want 1", n)
	}
}
