package web_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/tournament/referee"
)

// disputeState reads the state of the table page's first dispute
// (data-state in #disputes) and its words, "" without one.
func disputeState(body string) (state, words string) {
	m := regexp.MustCompile(`(?s)<section id="disputes".*?<li data-state="(\w+)"[^>]*>(.*?)</li>`).FindStringSubmatch(body)
	if m == nil {
		return "", ""
	}
	return m[1], m[2]
}

// TestTableDisputeState: a dispute sent from the table shows on the table
// page as sent, then seen once a referee opened it on the referees' page
// (not when somebody else tries), then ruled with the ruling's reason; the
// room view and the console's front page count it while it is open.
func TestTableDisputeState(t *testing.T) {
	t.Parallel()
	s, f, tb, b := tableAt(t, 8)
	b.playGame(f, tb, 1, 4)
	page := "/t/" + f.ID + "/table?game=1"
	if state, _ := disputeState(b.mustGet(page, http.StatusOK).Body); state != "" {
		t.Fatalf("before any dispute the table page shows one in state %q", state)
	}
	r := b.post(page, "/t/"+f.ID+"/table/games/1/dispute", url.Values{"player": {tb.Players[1]}, "deal": {"2"},
		"description": {"The final hand was a flush."}})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("dispute = %d, want 303\n%s", r.Status, r.Body)
	}
	state, words := disputeState(b.mustGet(page, http.StatusOK).Body)
	if state != "sent" || !strings.Contains(words, "Game 1, deal 2") || !strings.Contains(words, "waiting for a referee") {
		t.Errorf("after sending, the table page says %q: %q; want sent, naming game 1, deal 2", state, words)
	}
	listed, err := s.refs.Disputes(context.Background(), org, f.ID, referee.DisputeFilter{})
	if err != nil || len(listed.Disputes) != 1 {
		t.Fatalf("disputes = %v, %v; want one", listed, err)
	}
	id := strconv.FormatInt(listed.Disputes[0].ID, 10)

	o := s.browser(t)
	o.login(f.Token)
	room := o.mustGet("/t/"+f.ID+"/console/rounds/1/room", http.StatusOK).Body
	if !strings.Contains(room, `id="room-disputes">1 table with an open dispute`) || !strings.Contains(room, "1 open dispute at this table") {
		t.Errorf("the room view does not mark table 1's open dispute")
	}
	console := o.mustGet("/t/"+f.ID+"/console", http.StatusOK).Body
	if !strings.Contains(console, `id="console-disputes"`) || !strings.Contains(console, "1 table with an open dispute") {
		t.Errorf("the console does not count the open dispute")
	}
	if !strings.Contains(console, `data-events="/t/`+f.ID+`/events`) {
		t.Errorf("the console's front page does not follow the tournament's events")
	}

	// The table's own cookie does not open the referees' page, and does
	// not make the dispute seen; neither does a number that is no dispute.
	if r := b.get("/t/" + f.ID + "/disputes/" + id); r.Status != http.StatusSeeOther {
		t.Errorf("the table opening the referees' page = %d, want 303 to the login", r.Status)
	}
	o.mustGet("/t/"+f.ID+"/disputes/nine", http.StatusNotFound)
	o.mustGet("/t/"+f.ID+"/disputes/99999999", http.StatusNotFound)
	if state, _ := disputeState(b.mustGet(page, http.StatusOK).Body); state != "sent" {
		t.Errorf("after the wrong visitors, the table page says %q, want sent", state)
	}

	o.mustGet("/t/"+f.ID+"/disputes/"+id, http.StatusOK)
	state, words = disputeState(b.mustGet(page, http.StatusOK).Body)
	if state != "seen" || !strings.Contains(words, "seen by a referee at") {
		t.Errorf("after a referee opened it, the table page says %q: %q; want seen", state, words)
	}
	if list := o.mustGet("/t/"+f.ID+"/disputes", http.StatusOK).Body; !strings.Contains(list, "seen by a referee, awaiting the ruling") {
		t.Errorf("the referees' list does not say the dispute was seen")
	}
	r = o.post("/t/"+f.ID+"/disputes/"+id, "/t/"+f.ID+"/disputes/"+id+"/ruling",
		url.Values{"decision": {referee.DecisionRejected}, "reason": {"The sheet adds up."}})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("ruling = %d, want 303\n%s", r.Status, r.Body)
	}
	state, words = disputeState(b.mustGet(page, http.StatusOK).Body)
	if state != "ruled" || !strings.Contains(words, "the dispute was rejected, the result stands") || !strings.Contains(words, "The sheet adds up.") {
		t.Errorf("after the ruling, the table page says %q: %q; want ruled, rejected, with the reason", state, words)
	}
	if room := o.mustGet("/t/"+f.ID+"/console/rounds/1/room", http.StatusOK).Body; strings.Contains(room, "open dispute") {
		t.Errorf("the room view still marks a dispute after its ruling")
	}
}

// TestConsoleCountsSilentTables: the console's front page counts the
// tables that started, are not done and entered nothing for ten minutes,
// as the room view marks them; a table entering now is not silent.
func TestConsoleCountsSilentTables(t *testing.T) {
	t.Parallel()
	r := newRoomFixture(t)
	o := r.s.browser(t)
	o.login(r.Token)
	if c := o.mustGet("/t/"+r.ID+"/console", http.StatusOK).Body; strings.Contains(c, `id="console-stale"`) {
		t.Fatalf("the console counts a silent table while table 1 is entering")
	}
	// Twenty minutes pass at table 1 (the audit log names the test).
	ctx := context.Background()
	tx, err := r.s.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // committed below
	for _, q := range []string{
		`SELECT set_config('revisor.actor_role', 'admin', true), $1::text`,
		`UPDATE game_deals SET created_at = created_at - interval '20 minutes' WHERE tournament_id = $1`,
		`UPDATE game_results SET created_at = created_at - interval '20 minutes' WHERE tournament_id = $1`,
	} {
		if _, err := tx.Exec(ctx, q, r.ID); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	// Silence makes no change: the console's page, kept at most a second
	// (snapshotTTL), is rendered again.
	time.Sleep(1100 * time.Millisecond)
	c := o.mustGet("/t/"+r.ID+"/console", http.StatusOK).Body
	if !strings.Contains(c, `id="console-stale"`) || !strings.Contains(c, "1 table with nothing entered for 10 minutes") {
		t.Errorf("the console does not count table 1, silent for 20 minutes")
	}
	if room := o.mustGet("/t/"+r.ID+"/console/rounds/1/room", http.StatusOK).Body; !strings.Contains(room, `class="room-table stale" id="room-table-1"`) {
		t.Errorf("the room view does not mark table 1 silent")
	}
}
