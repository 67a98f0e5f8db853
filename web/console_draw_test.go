package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/referee"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// drawKey is the draw form's Idempotency-Key field.
var drawKey = regexp.MustCompile(`name="idempotency_key" value="([0-9a-f]+)"`)

// mustLen returns the length of a list read, failing t on an error.
func mustLen[T any](t *testing.T) func([]T, error) int {
	return func(xs []T, err error) int {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return len(xs)
	}
}

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
	rounds := func() int { return mustLen[tournament.Round](t)(s.plays.Rounds(context.Background(), f.ID)) }

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

// TestConsoleFormsOnce: the forms that would do twice what they do when
// sent twice carry an Idempotency-Key, as the draw's: a player added, a
// player list imported, a player deleted, a swap of two players, five
// minutes added to the clock, a dispute opened, its ruling and a
// withdrawal, each sent
// twice under the page's key, are done once and both answered as saved;
// and a referee token and a tournament, sent twice, are made once and
// shown both times (refereeTokenOnce, adminCreateOnce).
func TestConsoleFormsOnce(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	ctx := context.Background()
	f := s.mustTournament(t, tournament.FormatSM, 8, false)
	console := "/t/" + f.ID + "/console"
	b := s.browser(t)
	b.login(f.Token)
	players := func() int { return mustLen[tournament.Player](t)(s.svc.Players(ctx, f.ID)) }
	keyOf := func(page string) string {
		t.Helper()
		m := drawKey.FindStringSubmatch(b.mustGet(page, http.StatusOK).Body)
		if m == nil {
			t.Fatalf("%s has no form with an Idempotency-Key", page)
		}
		return m[1]
	}
	twice := func(what, page, action string, form url.Values) {
		t.Helper()
		form.Set("idempotency_key", keyOf(page))
		// The same form's bytes twice, as a double click sends them.
		for try, send := range []func() response{
			func() response { return b.post(page, action, form) },
			func() response { return b.do(http.MethodPost, action, form) },
		} {
			if r := send(); r.Status != http.StatusSeeOther {
				t.Fatalf("%s, try %d = %d, want 303\n%s", what, try+1, r.Status, r.Body)
			}
		}
	}

	refereeTokenOnce(t, s, f, b)
	adminCreateOnce(t, s)
	twice("a player added", console+"/players", console+"/players", url.Values{"name": {"Ann Ek"}, "club": {"BK"}})
	if n := players(); n != 9 {
		t.Errorf("%d players after 8 and one added twice under one key, want 9", n)
	}
	twice("a list imported", console+"/players", console+"/players/import",
		url.Values{"confirm": {"1"}, "csv": {"Bo Ek,BK\nCy Ek,BK\nDo Ek,BK\n"}})
	if n := players(); n != 12 {
		t.Errorf("%d players after 9 and a list of 3 imported twice under one key, want 12", n)
	}
	gone := f.Players[0].ID
	twice("a player deleted", console+"/players/"+gone, console+"/players/"+gone+"/delete", url.Values{})
	if n := players(); n != 11 {
		t.Errorf("%d players after 12 and one deleted twice under one key, want 11", n)
	}

	if r := b.post(console, console+"/rounds", url.Values{"seed": {"1"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("draw = %d\n%s", r.Status, r.Body)
	}
	seated := func() [][]string {
		t.Helper()
		rs, err := s.plays.Rounds(ctx, f.ID)
		if err != nil || len(rs) != 1 {
			t.Fatalf("rounds = %v, %v", rs, err)
		}
		var out [][]string
		for _, tb := range rs[0].Tables {
			out = append(out, tb.Players)
		}
		return out
	}
	before := seated()
	a, z := before[0][0], before[1][0]
	twice("a swap", console+"/rounds/1/tables/1", console+"/rounds/1/tables/1/reseat", url.Values{"player": {a}, "with": {z}, "reason": {"late"}})
	if after := seated(); !slices.Contains(after[1], a) || !slices.Contains(after[0], z) {
		t.Errorf("tables after a swap of tables 1 and 2's first players sent twice under one key: %v (before %v); want them swapped once", after, before)
	}

	for _, act := range []url.Values{{"action": {"start"}, "minutes": {"75"}}, {"action": {"pause"}}} {
		if r := b.post(console, console+"/rounds/1/clock", act); r.Status != http.StatusSeeOther {
			t.Fatalf("clock %v = %d\n%s", act, r.Status, r.Body)
		}
	}
	twice("five minutes added", console, console+"/rounds/1/clock", url.Values{"action": {"add"}, "minutes": {"5"}})
	clk, err := s.plays.RoundClock(ctx, f.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if clk.State != tournament.ClockPaused || clk.Remaining <= 79*time.Minute || clk.Remaining > 80*time.Minute {
		t.Errorf("the paused clock of 75 minutes, 5 added twice under one key: %s with %v left; want paused with 80 minutes (less the moment it ran)",
			clk.State, clk.Remaining)
	}
	// The page after is another form: its key adds five minutes more.
	twice("five minutes more", console, console+"/rounds/1/clock", url.Values{"action": {"add"}, "minutes": {"5"}})
	if clk, err = s.plays.RoundClock(ctx, f.ID, 1); err != nil || clk.Remaining <= 84*time.Minute {
		t.Errorf("five minutes more from the page after: %v left, %v; want 85 minutes", clk.Remaining, err)
	}

	rs, err := s.plays.Rounds(ctx, f.ID)
	if err != nil {
		t.Fatal(err)
	}
	tb := rs[0].Tables[2]
	s.submit(t, f, 1, tb, 1, tournamenttest.TimedGame(tb.Players, tb.FirstDealerOf(1), map[string]map[string]int{tb.Players[0]: {"last_trick": 5}}))
	game := fmt.Sprintf("%s/rounds/1/tables/%d/games/1", console, tb.Number)
	twice("a dispute opened", game, game+"/dispute", url.Values{"description": {"the last trick was not hers"}})
	page, err := s.refs.Disputes(ctx, org, f.ID, referee.DisputeFilter{})
	if err != nil || len(page.Disputes) != 1 {
		t.Fatalf("disputes after one opened twice under one key: %d, %v; want 1", len(page.Disputes), err)
	}
	dispute := fmt.Sprintf("/t/%s/disputes/%d", f.ID, page.Disputes[0].ID)
	twice("a ruling", dispute, dispute+"/ruling", url.Values{"decision": {"rejected"}, "reason": {"the sheet is right"}})
	if d, err := s.refs.Dispute(ctx, org, f.ID, page.Disputes[0].ID); err != nil || d.Ruling == nil || d.Ruling.Decision != "rejected" {
		t.Errorf("the dispute after a ruling sent twice under one key: %+v, %v; want rejected", d, err)
	}

	other := rs[0].Tables[0]
	table := fmt.Sprintf("%s/rounds/1/tables/%d", console, other.Number)
	twice("a withdrawal", table, table+"/withdraw", url.Values{"player": {other.Players[1]}, "handling": {"forfeit"}, "reason": {"ill"}, "confirm": {"1"}})
	if rs, err = s.plays.Rounds(ctx, f.ID); err != nil || len(rs[0].Tables[0].Withdrawals) != 1 {
		t.Errorf("withdrawals at table %d after one sent twice under one key: %v, %v; want 1", other.Number, rs[0].Tables[0].Withdrawals, err)
	}
}

// TestConsolePlayerEditOnce: the form that renames a player carries an
// Idempotency-Key (app.UpdatePlayer): sent again late, after the player
// was renamed again from a later form, it is answered as the first time
// and does not set the old name back.
func TestConsolePlayerEditOnce(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, false)
	page := "/t/" + f.ID + "/console/players/" + f.Players[0].ID
	b := s.browser(t)
	b.login(f.Token)
	form := func(name string) url.Values {
		t.Helper()
		m := drawKey.FindStringSubmatch(b.mustGet(page, http.StatusOK).Body)
		if m == nil {
			t.Fatalf("%s has no form with an Idempotency-Key", page)
		}
		return url.Values{"name": {name}, "club": {"BK"}, "idempotency_key": {m[1]}}
	}
	first, later := form("Anna Ek"), form("Anna Berg")
	for _, v := range []url.Values{first, later, first} {
		if r := b.post(page, page, v); r.Status != http.StatusSeeOther {
			t.Fatalf("rename to %s = %d, want 303\n%s", v.Get("name"), r.Status, r.Body)
		}
	}
	ps, err := s.svc.Players(context.Background(), f.ID)
	i := slices.IndexFunc(ps, func(p tournament.Player) bool { return p.ID == f.Players[0].ID })
	if err != nil || i < 0 {
		t.Fatalf("the player is gone: %v", err)
	}
	if ps[i].Name != "Anna Berg" {
		t.Errorf("after the first form sent again late, the player is %q; want the later name, Anna Berg", ps[i].Name)
	}
}

// refereeTokenOnce (TestConsoleFormsOnce): the referee-token form sent
// twice (a double click without the page's script) makes one token and
// shows the same token both times; its kept answer in the database does
// not hold the token in the clear (it is sealed under the session's
// token).
func refereeTokenOnce(t *testing.T, s *site, f *fixture, b *browser) {
	t.Helper()
	ctx := context.Background()
	console := "/t/" + f.ID + "/console"
	m := drawKey.FindStringSubmatch(b.mustGet(console, http.StatusOK).Body)
	if m == nil {
		t.Fatal("the console has no Idempotency-Key")
	}
	form := url.Values{"name": {"Domaren"}, "idempotency_key": {m[1]}}
	shown := regexp.MustCompile(`id="referee-token">([^<]+)<`)
	var tokens []string
	for try, send := range []func() response{
		func() response { return b.post(console, console+"/referees", form) },
		func() response { return b.do(http.MethodPost, console+"/referees", form) },
	} {
		r := send()
		tok := shown.FindStringSubmatch(r.Body)
		if r.Status != http.StatusCreated || tok == nil {
			t.Fatalf("issue a referee token, try %d = %d, want 201 showing the token\n%s", try+1, r.Status, r.Body)
		}
		tokens = append(tokens, tok[1])
	}
	if tokens[0] != tokens[1] {
		t.Errorf("the form sent twice showed two tokens, %q and %q; want the one made", tokens[0], tokens[1])
	}
	org := tournament.Actor{Role: tournament.RoleOrganizer}
	if list, err := s.refs.Tokens(ctx, org, f.ID); err != nil || len(list) != 1 {
		t.Errorf("referee tokens after the form sent twice: %d, %v; want 1", len(list), err)
	}
	var kept []byte
	if err := s.pool.QueryRow(ctx, `SELECT response FROM idempotency_keys WHERE key = $1 AND scope LIKE '%/referees %'`, m[1]).Scan(&kept); err != nil {
		t.Fatalf("the form's kept answer: %v", err)
	}
	if strings.Contains(string(kept), tokens[0]) || strings.Contains(string(kept), "Domaren") {
		t.Errorf("the kept answer holds the token in the clear: %q", kept)
	}
	// The page after the token is another form: its key makes another.
	next := drawKey.FindStringSubmatch(b.post(console, console+"/referees", form).Body)
	if next == nil || next[1] == m[1] {
		t.Fatalf("the page showing the token has no fresh form key")
	}
	if r := b.post(console, console+"/referees", url.Values{"name": {"Domare 2"}, "idempotency_key": {next[1]}}); r.Status != http.StatusCreated {
		t.Errorf("a second referee from the page after = %d, want 201", r.Status)
	}
	if list, err := s.refs.Tokens(ctx, org, f.ID); err != nil || len(list) != 2 {
		t.Errorf("referee tokens after a second form: %d, %v; want 2", len(list), err)
	}
}

// adminCreateOnce (TestConsoleFormsOnce): the admin's new tournament, its
// form sent twice without the page's script, is created once and its
// organizer's token shown both times; the kept answer does not hold the
// token in the clear.
func adminCreateOnce(t *testing.T, s *site) {
	t.Helper()
	ctx := context.Background()
	a := s.browser(t)
	a.login(adminToken)
	m := drawKey.FindStringSubmatch(a.mustGet("/admin", http.StatusOK).Body)
	if m == nil {
		t.Fatal("the admin's create form has no Idempotency-Key")
	}
	form := url.Values{"name": {"Dubbelpost"}, "format": {"sm"}, "idempotency_key": {m[1]}}
	var shown []string
	for try := range 2 {
		r := a.post("/admin", "/admin/tournaments", form)
		tok := tokenText.FindStringSubmatch(r.Body)
		if r.Status != http.StatusCreated || tok == nil {
			t.Fatalf("create, try %d = %d, want 201 showing the token\n%s", try+1, r.Status, r.Body)
		}
		shown = append(shown, tok[1])
	}
	if shown[0] != shown[1] {
		t.Errorf("the form sent twice showed two organizer tokens; want the one made")
	}
	list, err := s.svc.ListTournaments(ctx, tournament.Actor{Role: tournament.RoleAdmin}, 1)
	if err != nil {
		t.Fatal(err)
	}
	made := 0
	for _, tt := range list.Tournaments {
		if tt.Name == "Dubbelpost" {
			made++
		}
	}
	if made != 1 {
		t.Errorf("%d tournaments made by the form sent twice under one key, want 1", made)
	}
	var kept []byte
	if err := s.pool.QueryRow(ctx, `SELECT response FROM idempotency_keys WHERE key = $1 AND scope LIKE '%/admin/tournaments %'`, m[1]).Scan(&kept); err != nil {
		t.Fatalf("the form's kept answer: %v", err)
	}
	if strings.Contains(string(kept), shown[0]) || strings.Contains(string(kept), "Dubbelpost") {
		t.Errorf("the kept answer holds the token in the clear: %q", kept)
	}
}
