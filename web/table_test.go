package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/referee"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// tableCode returns the code of table n of round 1.
func tableCode(t testing.TB, s *site, f *fixture, n int) string {
	t.Helper()
	codes, err := s.plays.TableCodes(context.Background(), org, f.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	return codes[n]
}

// tableLogin enters table n with its code, as the code form does.
func (b *browser) tableLogin(f *fixture, code string) response {
	b.t.Helper()
	page := "/t/" + f.ID + "/table"
	return b.post(page, page+"/login", url.Values{"code": {code}})
}

func TestTableLogin(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 13, true)
	b := s.browser(t)
	page := "/t/" + f.ID + "/table"
	r := b.mustGet(page, http.StatusOK)
	if !strings.Contains(r.Body, `name="code"`) || !strings.Contains(r.Body, `src="/static/table.js"`) {
		t.Fatalf("GET %s without a session: want the code form and its script\n%s", page, r.Body)
	}
	if r = b.tableLogin(f, "WRONGCOD"); r.Status != http.StatusUnauthorized || !strings.Contains(r.Body, "not a table") {
		t.Fatalf("wrong code = %d, want 401 with the message\n%s", r.Status, r.Body)
	}
	if r = b.tableLogin(f, f.Token); r.Status != http.StatusUnauthorized {
		t.Fatalf("the organizer's token as a table code = %d, want 401", r.Status)
	}
	code := tableCode(t, s, f, 2)
	r = b.tableLogin(f, strings.ToLower(code))
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != page {
		t.Fatalf("right code = %d to %q, want 303 to %s", r.Status, r.Header.Get("Location"), page)
	}
	ck := strings.Join(r.Header.Values("Set-Cookie"), "\n")
	for _, want := range []string{"revisor_table=" + code + "; Path=" + page, "HttpOnly", "SameSite=Strict"} {
		if !strings.Contains(ck, want) {
			t.Errorf("Set-Cookie %q lacks %q", ck, want)
		}
	}
	r = b.mustGet(page, http.StatusOK)
	tb, _ := f.Round.Table(2)
	last := fmt.Sprintf(`name="s%d_last"`, len(tb.Players))
	for _, want := range []string{"Table 2 · round 1", `id="deal-form"`, `name="s1_hand1"`, last} {
		if !strings.Contains(r.Body, want) {
			t.Errorf("table page lacks %q", want)
		}
	}
	for _, pid := range tb.Players {
		if !strings.Contains(r.Body, nameOf(f, pid)) {
			t.Errorf("table page lacks player %s", nameOf(f, pid))
		}
	}
	if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control = %q, want no-store", cc)
	}
	// Another tournament's page does not take this session.
	g := s.mustTournament(t, tournament.FormatSM, 8, true)
	if r = b.mustGet("/t/"+g.ID+"/table", http.StatusOK); !strings.Contains(r.Body, `name="code"`) {
		t.Errorf("another tournament's table page: want its code form")
	}
	// Leaving ends the session.
	if r = b.post(page, page+"/logout", nil); r.Status != http.StatusSeeOther {
		t.Fatalf("logout = %d, want 303", r.Status)
	}
	if r = b.mustGet(page, http.StatusOK); !strings.Contains(r.Body, `name="code"`) {
		t.Errorf("after logout: want the code form")
	}
}

// TestTableLoginAfterGuesses: once wrong codes from an address have spent
// its budget, the tables of the round whose codes the server verified
// still enter (a club's tables share one address), while a guess is
// refused with 429.
func TestTableLoginAfterGuesses(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 16, true)
	b := s.browser(t)
	if r := b.tableLogin(f, tableCode(t, s, f, 1)); r.Status != http.StatusSeeOther {
		t.Fatalf("table 1's code = %d, want 303", r.Status)
	}
	for i := 0; ; i++ {
		r := b.tableLogin(f, "WRONGCOD")
		if r.Status == http.StatusTooManyRequests {
			break
		}
		if i > 100 {
			t.Fatal("100 wrong codes and no 429")
		}
	}
	for n := 2; n <= 4; n++ {
		if r := b.tableLogin(f, tableCode(t, s, f, n)); r.Status != http.StatusSeeOther {
			t.Errorf("table %d's code after the budget was spent = %d, want 303", n, r.Status)
		}
	}
	if r := b.tableLogin(f, "WRONGCOD"); r.Status != http.StatusTooManyRequests {
		t.Errorf("another wrong code = %d, want 429", r.Status)
	}
}

func nameOf(f *fixture, pid string) string {
	for _, p := range f.Players {
		if p.ID == pid {
			return p.Name
		}
	}
	return ""
}

// postDeal posts deal n of game g from the table page as its script does.
func (b *browser) postDeal(f *fixture, g, n int, key string, fields url.Values) (int, tableAnswer) {
	b.t.Helper()
	page := b.mustGet("/t/"+f.ID+"/table", http.StatusOK)
	m := csrfInput.FindStringSubmatch(page.Body)
	if m == nil {
		b.t.Fatal("no CSRF field on the table page")
	}
	fields.Set("_csrf", m[1])
	fields.Set("deal", strconv.Itoa(n))
	req, _ := http.NewRequest(http.MethodPost, b.base+"/t/"+f.ID+"/table/games/"+strconv.Itoa(g)+"/deals", strings.NewReader(fields.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Accept-Language", b.lang)
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	var ans tableAnswer
	if err := json.NewDecoder(resp.Body).Decode(&ans); err != nil {
		b.t.Fatalf("answer is not JSON: %v", err)
	}
	return resp.StatusCode, ans
}

type tableAnswer struct {
	OK       bool   `json:"ok"`
	Deal     int    `json:"deal"`
	GameOver bool   `json:"game_over"`
	Code     string `json:"code"`
	Retry    bool   `json:"retry"`
	Messages []struct {
		Field, Text string
	} `json:"messages"`
	Stored map[string]string `json:"stored"`
}

func TestTableDeals(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 13, true)
	b := s.browser(t)
	b.tableLogin(f, tableCode(t, s, f, 1))
	tb, _ := f.Round.Table(1)
	k := tournament.GameKey{TournamentID: f.ID, Round: 1, Table: 1, Game: 1}

	// Deal 1, sent twice with the same key (a lost answer): stored once.
	deal1 := url.Values{"s1_hand1": {"2"}, "s2_last": {"5"}}
	for i := range 2 {
		status, ans := b.postDeal(f, 1, 1, "key-deal-1", deal1)
		if status/100 != 2 || !ans.OK || ans.Deal != 1 {
			t.Fatalf("deal 1, try %d = %d %+v, want 2xx ok deal 1", i+1, status, ans)
		}
	}
	// The same deal under its number with a new key (a reload lost the key): still once.
	if status, ans := b.postDeal(f, 1, 1, "key-deal-1-again", deal1); status != http.StatusOK || !ans.OK {
		t.Fatalf("deal 1 again under a new key = %d %+v, want 200 ok", status, ans)
	}
	pr, err := s.plays.Progress(context.Background(), k)
	if err != nil || len(pr.Deals) != 1 || pr.Scores[tb.Players[0]] != 2 || pr.Scores[tb.Players[1]] != 5 {
		t.Fatalf("Progress = %+v, %v; want one deal, 2 and 5 points", pr, err)
	}

	// A deal the engine refuses: two players with the last trick.
	status, ans := b.postDeal(f, 1, 2, "key-deal-2", url.Values{"s1_last": {"5"}, "s3_last": {"5"}})
	if status != http.StatusUnprocessableEntity || ans.OK || ans.Retry || len(ans.Messages) == 0 {
		t.Fatalf("bad deal = %d %+v, want 422 with messages", status, ans)
	}
	m := ans.Messages[0]
	if m.Field != "s3_last" || !strings.Contains(m.Text, nameOf(f, tb.Players[2])) || !strings.Contains(m.Text, "Last trick") {
		t.Errorf("message = %+v, want field s3_last, %s's name and \"Last trick\"", m, nameOf(f, tb.Players[2]))
	}
	noIDs(t, f, ans)
	// Swedish words for a Swedish phone.
	b.lang = "sv"
	_, ans = b.postDeal(f, 1, 2, "key-deal-2-sv", url.Values{"s1_hand1": {"9"}, "s2_last": {"5"}})
	if len(ans.Messages) == 0 || ans.Messages[0].Field != "s1_hand1" || !strings.Contains(ans.Messages[0].Text, "Fas 1") {
		t.Errorf("Swedish answer = %+v, want s1_hand1 with \"Fas 1\"", ans)
	}
	noIDs(t, f, ans)
	b.lang = "en"
	// Not a number: answered before the engine.
	if status, ans = b.postDeal(f, 1, 2, "", url.Values{"s2_hand2": {"två"}}); status != http.StatusUnprocessableEntity || ans.Messages[0].Field != "s2_hand2" {
		t.Errorf("a word for a number = %d %+v, want 422 on s2_hand2", status, ans)
	}
	// Another deal 1 is a conflict, in words.
	// Another deal 1 is a conflict, in words, with the stored deal as the
	// form's fields (docs/table-protocol.md): the phone shows both.
	if status, ans = b.postDeal(f, 1, 1, "", url.Values{"s4_last": {"5"}}); status != http.StatusConflict || !strings.Contains(ans.Messages[0].Text, "other points") ||
		len(ans.Stored) != 2 || ans.Stored["s1_hand1"] != "2" || ans.Stored["s2_last"] != "5" {
		t.Errorf("another deal 1 = %d %+v, want 409 \"other points\" with the stored s1_hand1 2, s2_last 5", status, ans)
	}
	// A pasted sheet line is taken as it is.
	rec := `{"sheet": {"` + tb.Players[3] + `": {"last_trick": 5, "hand1": 3}}}`
	if status, ans = b.postDeal(f, 1, 2, "key-deal-2-paste", url.Values{"record": {rec}}); !ans.OK || ans.Deal != 2 {
		t.Fatalf("pasted deal 2 = %d %+v, want ok deal 2", status, ans)
	}
	if status, ans = b.postDeal(f, 1, 3, "", url.Values{"record": {"[1, 2"}}); status != http.StatusUnprocessableEntity || ans.Messages[0].Field != "record" {
		t.Errorf("a broken paste = %d %+v, want 422 on record", status, ans)
	}
	// Bad numbers in the path or form: 400, never a 500.
	for _, g := range []int{0, 101} {
		if status, _ = b.postDeal(f, g, 3, "", url.Values{"s1_last": {"5"}}); status != http.StatusBadRequest {
			t.Errorf("game %d = %d, want 400", g, status)
		}
	}
	page := b.mustGet("/t/"+f.ID+"/table", http.StatusOK)
	if !regexp.MustCompile(`data-next="3"`).MatchString(page.Body) || !strings.Contains(page.Body, `<span class="total">8</span>`) {
		t.Errorf("table page after two deals: want next deal 3 and %s's total 8\n%s", nameOf(f, tb.Players[3]), page.Body)
	}
}

// noIDs fails when an answer shows a player's ID or an engine field name.
func noIDs(t *testing.T, f *fixture, ans tableAnswer) {
	t.Helper()
	for _, m := range ans.Messages {
		for _, p := range f.Players {
			if regexp.MustCompile(`\b` + regexp.QuoteMeta(p.ID) + `\b`).MatchString(m.Text) {
				t.Errorf("message %q shows the player ID %s", m.Text, p.ID)
			}
		}
		for _, field := range []string{"last_trick", "hand1", "hand2", "hand3", "/deals", "sheet"} {
			if strings.Contains(m.Text, field) {
				t.Errorf("message %q shows the field name %s", m.Text, field)
			}
		}
	}
}

// TestTableDealsNeedTheTable checks the doors: no session, the organizer's
// session, another table's code, a form without its CSRF token.
func TestTableDealsNeedTheTable(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 13, true)
	b := s.browser(t)
	if status, ans := b.postDeal(f, 1, 1, "", url.Values{"s1_last": {"5"}}); status != http.StatusUnauthorized || ans.Code != "login_required" {
		t.Errorf("no session = %d %+v, want 401 login_required", status, ans)
	}
	o := s.browser(t)
	o.login(f.Token)
	if status, _ := o.postDeal(f, 1, 1, "", url.Values{"s1_last": {"5"}}); status != http.StatusUnauthorized {
		t.Errorf("organizer's session = %d, want 401 (the table page needs a table code)", status)
	}
	b.tableLogin(f, tableCode(t, s, f, 1))
	r := b.do(http.MethodPost, "/t/"+f.ID+"/table/games/1/deals", url.Values{"deal": {"1"}, "s1_last": {"5"}})
	if r.Status != http.StatusForbidden {
		t.Errorf("no CSRF token = %d, want 403", r.Status)
	}
	pr, _ := s.plays.Progress(context.Background(), tournament.GameKey{TournamentID: f.ID, Round: 1, Table: 1, Game: 1})
	if len(pr.Deals) != 0 {
		t.Errorf("refused posts stored %d deals", len(pr.Deals))
	}
}

// TestTableFormWithoutScript posts the entry form as a browser without
// JavaScript: a redirect on success, the page with the words beside the
// fields otherwise.
func TestTableFormWithoutScript(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 13, true)
	b := s.browser(t)
	b.tableLogin(f, tableCode(t, s, f, 3))
	page := "/t/" + f.ID + "/table"
	r := b.post(page, page+"/games/1/deals", url.Values{"deal": {"1"}, "s1_last": {"5"}, "s2_last": {"5"}})
	if r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.Body, `aria-invalid="true"`) || !strings.Contains(r.Body, "another player already has these points") {
		t.Fatalf("bad form = %d, want 422 with the field marked and the message\n%s", r.Status, r.Body)
	}
	r = b.post(page, page+"/games/1/deals", url.Values{"deal": {"1"}, "s1_last": {"5"}})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("good form = %d, want 303\n%s", r.Status, r.Body)
	}
}

// TestQRCodes checks that the table cards and the console's score sheets
// carry QR codes, and the public score sheets none.
func TestQRCodes(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 13, true)
	o := s.browser(t)
	o.login(f.Token)
	cards := o.mustGet("/t/"+f.ID+"/console/rounds/1/cards", http.StatusOK)
	if n := strings.Count(cards.Body, `<svg xmlns="http://www.w3.org/2000/svg" class="qr"`); n != len(f.Round.Tables) {
		t.Errorf("cards carry %d QR codes, want %d", n, len(f.Round.Tables))
	}
	sheets := o.mustGet("/t/"+f.ID+"/console/rounds/1/sheets?table=2", http.StatusOK)
	if n := strings.Count(sheets.Body, `class="qr"`); n != 3 {
		t.Errorf("console sheets of table 2 carry %d QR codes, want 3 (one per game)", n)
	}
	public := s.browser(t).mustGet("/t/"+f.ID+"/rounds/1/sheets?table=2", http.StatusOK)
	if strings.Contains(public.Body, `class="qr"`) || strings.Contains(public.Body, tableCode(t, s, f, 2)) {
		t.Errorf("the public score sheets show a QR code or a table code")
	}
	if s.browser(t).get("/t/"+f.ID+"/console/rounds/1/sheets").Status != http.StatusSeeOther {
		t.Errorf("console sheets without a login: want the redirect to the login")
	}
}

// TestTableCodesAreRateLimited checks that wrong table codes count against
// the per-address budget shared with the login and the API.
func TestTableCodesAreRateLimited(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	b := s.browser(t)
	limited := false
	for range 15 {
		if r := b.tableLogin(f, "WRONGCOD"); r.Status == http.StatusTooManyRequests {
			limited = true
			break
		}
	}
	if !limited {
		t.Fatal("15 wrong table codes: no 429")
	}
	if r := b.tableLogin(f, tableCode(t, s, f, 1)); r.Status != http.StatusTooManyRequests {
		t.Errorf("the right code while limited = %d, want 429", r.Status)
	}
	// The same budget as the login page's.
	if r := b.post("/login", "/login", url.Values{"token": {f.Token}}); r.Status != http.StatusTooManyRequests {
		t.Errorf("login while limited = %d, want 429", r.Status)
	}
}

// playGame enters a whole score-sheet game at the table through the page,
// deal by deal, and returns its deals.
func (b *browser) playGame(f *fixture, tb tournament.Table, g int, seed uint64) []map[string]map[string]int {
	b.t.Helper()
	rec := tournamenttest.SheetGame(rand.New(rand.NewPCG(seed, 1)), tb.Players, tb.FirstDealerOf(g))
	deals := sheetLines(b.t, rec)
	for k, d := range deals {
		form := url.Values{}
		for i, pid := range tb.Players {
			for src, v := range d[pid] {
				field, val := sheetField(src, v)
				form.Set(fmt.Sprintf("s%d_%s", i+1, field), val)
			}
		}
		if status, ans := b.postDeal(f, g, k+1, fmt.Sprintf("g%d-d%d", g, k+1), form); !ans.OK {
			b.t.Fatalf("game %d deal %d = %d %+v", g, k+1, status, ans)
		}
	}
	return deals
}

// TestTableConfirmations plays a game on the table page, has every player
// confirm it there, and opens a dispute about one of its deals.
func TestTableConfirmations(t *testing.T) {
	t.Parallel()
	s, f, tb, b := tableAt(t, 8)
	b.playGame(f, tb, 1, 4)
	page := "/t/" + f.ID + "/table?game=1"
	r := b.mustGet(page, http.StatusOK)
	// The game's end is said once, above its confirmations, not on every
	// deal's row ("Sent · game over" nine times, issue 30).
	if n := strings.Count(r.Body, "game over"); n != 0 {
		t.Errorf("finished game: %d deal rows say the game is over; its end is said once, as \"Game over\"", n)
	}
	for _, pid := range tb.Players {
		if !strings.Contains(r.Body, "I, "+nameOf(f, pid)+", confirm") {
			t.Fatalf("finished game: no confirm button for %s\n%s", nameOf(f, pid), r.Body)
		}
	}
	// Someone from another table cannot confirm here.
	other := f.Round.Tables[1].Players[0]
	if r = b.post(page, "/t/"+f.ID+"/table/games/1/confirmations", url.Values{"player": {other}}); r.Status/100 != 4 || strings.Contains(r.Body, other+" ") {
		t.Errorf("a player of another table confirms = %d, want a 4xx without IDs", r.Status)
	}
	for i, pid := range tb.Players {
		r = b.post(page, "/t/"+f.ID+"/table/games/1/confirmations", url.Values{"player": {pid}})
		if r.Status != http.StatusSeeOther {
			t.Fatalf("confirm %s = %d, want 303\n%s", nameOf(f, pid), r.Status, r.Body)
		}
		r = b.mustGet(page, http.StatusOK)
		if want := nameOf(f, pid) + " confirmed at"; !strings.Contains(r.Body, want) {
			t.Errorf("after confirmation %d: page lacks %q", i+1, want)
		}
	}
	if !strings.Contains(r.Body, "Confirmed by every player") || !strings.Contains(r.Body, `data-status="confirmed"`) {
		t.Errorf("every player confirmed: want the game and its deals shown confirmed")
	}
	// The dispute form names each deal by number and dealer, in words.
	if want := `<option value="2">Deal 2, dealt by `; !strings.Contains(r.Body, want) {
		t.Errorf("the table's dispute form lacks %q", want)
	}
	// A dispute about deal 2, opened by the second player.
	r = b.post(page, "/t/"+f.ID+"/table/games/1/dispute", url.Values{"player": {tb.Players[1]}, "deal": {"2"},
		"description": {"The final hand was a flush, not a straight."}})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("dispute = %d, want 303\n%s", r.Status, r.Body)
	}
	listed, err := s.refs.Disputes(context.Background(), org, f.ID, referee.DisputeFilter{})
	if err != nil || len(listed.Disputes) != 1 {
		t.Fatalf("disputes = %v, %v; want one", listed, err)
	}
	ds := listed.Disputes
	if d := ds[0]; d.Deal == nil || *d.Deal != 2 || !strings.Contains(d.Description, nameOf(f, tb.Players[1])+": The final hand") {
		t.Errorf("dispute = deal %v, %q; want deal 2 and the player's name", d.Deal, d.Description)
	}
}

// TestTableDisputeOnce: a dispute the table page sends again under its
// Idempotency-Key (the dispute form's own field: a lost answer, a tap
// twice) is opened
// once and answered as the first time; the key with another dispute is
// refused; a new key opens another.
func TestTableDisputeOnce(t *testing.T) {
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 4, true)
	tb := f.Round.Tables[0]
	b := s.browser(t)
	b.tableLogin(f, tableCode(t, s, f, 1))
	page := "/t/" + f.ID + "/table?game=1"
	dispute := func(key, text string) response {
		t.Helper()
		return b.post(page, "/t/"+f.ID+"/table/games/1/dispute", url.Values{"player": {tb.Players[0]}, "deal": {"0"},
			"description": {text}, "idempotency_key": {key}})
	}
	count := func() int {
		t.Helper()
		listed, err := s.refs.Disputes(context.Background(), org, f.ID, referee.DisputeFilter{})
		if err != nil {
			t.Fatal(err)
		}
		return len(listed.Disputes)
	}
	// The key the page's own dispute form carries (without the script the
	// form is sent as it is), shown once the game has its result.
	s.submit(t, f, 1, tb, 1, tournamenttest.TimedGame(tb.Players, tb.FirstDealerOf(1), map[string]map[string]int{tb.Players[0]: {"last_trick": 5}}))
	m := regexp.MustCompile(`(?s)id="dispute-form">.*?name="idempotency_key" value="([0-9a-f]+)"`).FindStringSubmatch(b.mustGet(page, http.StatusOK).Body)
	if m == nil {
		t.Fatal("the table page's dispute form has no Idempotency-Key")
	}
	first := m[1]
	for try := range 2 {
		if r := dispute(first, "The score was added wrongly."); r.Status != http.StatusSeeOther {
			t.Fatalf("dispute, try %d = %d, want 303\n%s", try+1, r.Status, r.Body)
		}
	}
	if n := count(); n != 1 {
		t.Fatalf("%d disputes after one sent twice under its key, want 1", n)
	}
	if r := dispute(first, "Another matter."); r.Status != http.StatusUnprocessableEntity {
		t.Errorf("the key with another dispute = %d, want 422\n%s", r.Status, r.Body)
	}
	if r := dispute("dispute-2", "Another matter."); r.Status != http.StatusSeeOther || count() != 2 {
		t.Errorf("a new key = %d with %d disputes, want 303 and 2", r.Status, count())
	}
}

// setClock changes the round clock through the API as the organizer.
func setClock(t *testing.T, s *site, f *fixture, body string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, s.URL+"/api/v1/tournaments/"+f.ID+"/rounds/1/clock", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+f.Token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		t.Fatalf("clock %s = %d", body, resp.StatusCode)
	}
}

// TestTableClock reads the round clock from the table page and checks
// that, once time is called, the next deal a table enters ends its game.
func TestTableClock(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	b := s.browser(t)
	b.tableLogin(f, tableCode(t, s, f, 1))
	clock := func() map[string]any {
		r := b.mustGet("/t/"+f.ID+"/table/clock", http.StatusOK)
		var c map[string]any
		if err := json.Unmarshal([]byte(r.Body), &c); err != nil {
			t.Fatalf("clock: %v\n%s", err, r.Body)
		}
		return c
	}
	if c := clock(); c["state"] != "idle" {
		t.Errorf("clock before the start = %v, want idle", c)
	}
	setClock(t, s, f, `{"action": "start", "minutes": 90}`)
	if c := clock(); c["state"] != "running" || c["remaining_seconds"].(float64) < 89*60 {
		t.Errorf("clock after the start = %v, want running with about 90 minutes", c)
	}
	if status, ans := b.postDeal(f, 1, 1, "", url.Values{"s1_hand1": {"2"}, "s2_last": {"5"}}); !ans.OK || ans.GameOver {
		t.Fatalf("deal 1 = %d %+v, want ok, game on", status, ans)
	}
	setClock(t, s, f, `{"action": "call_time"}`)
	if c := clock(); c["state"] != "time_called" {
		t.Errorf("clock after time is called = %v, want time_called", c)
	}
	// The deal being played is the last: it ends the game by time.
	if status, ans := b.postDeal(f, 1, 2, "", url.Values{"s3_last": {"5"}}); !ans.OK || !ans.GameOver {
		t.Fatalf("deal 2 after time was called = %d %+v, want ok and the game over", status, ans)
	}
	if r := b.mustGet("/t/"+f.ID+"/table?game=1", http.StatusOK); !strings.Contains(r.Body, "Game over") || strings.Contains(r.Body, `id="deal-form"`) {
		t.Errorf("game 1 after its last deal: want it over, without the entry form")
	}
	// Without a session the clock is not shown.
	if r := s.browser(t).mustGet("/t/"+f.ID+"/table/clock", http.StatusOK); !strings.Contains(r.Body, `"idle"`) {
		t.Errorf("clock without a session = %s, want idle", r.Body)
	}
}
