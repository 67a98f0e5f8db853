package web_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
	"github.com/revisor-sm/revisor/tournament/transfer"
)

var (
	tokenText  = regexp.MustCompile(`id="organizer-token">([^<]+)<`)
	idText     = regexp.MustCompile(`id="tournament-link">([^<]+)<`)
	invalidRow = regexp.MustCompile(`aria-invalid="true" aria-describedby="err-(\d+)"`)
)

// createByForm creates a tournament through the admin page and returns its
// ID and organizer token.
func createByForm(t *testing.T, b *browser, form url.Values) (string, string) {
	t.Helper()
	b.login(adminToken)
	r := b.post("/admin", "/admin/tournaments", form)
	if r.Status != http.StatusCreated {
		t.Fatalf("POST /admin/tournaments = %d, want 201\n%s", r.Status, r.Body)
	}
	tok, id := tokenText.FindStringSubmatch(r.Body), idText.FindStringSubmatch(r.Body)
	if tok == nil || id == nil {
		t.Fatalf("created page shows no token or ID:\n%s", r.Body)
	}
	if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("created page Cache-Control = %q, want no-store", cc)
	}
	return id[1], tok[1]
}

// sheetForm turns a sheet game record into the result form's fields.
func sheetForm(t *testing.T, rec []byte, players []string) url.Values {
	t.Helper()
	deals := sheetLines(t, rec)
	form := url.Values{"rows": {strconv.Itoa(max(12, len(deals)))}}
	for k, d := range deals {
		for i, p := range players {
			for src, v := range d[p] {
				field, val := sheetField(src, v)
				form.Set("d"+strconv.Itoa(k)+"_s"+strconv.Itoa(i)+"_"+field, val)
			}
		}
	}
	return form
}

// TestConsoleRunsATournament runs a small tournament through the pages
// alone: the admin creates it, the organizer imports players, draws a
// round, enters every game on the score-sheet form and closes the round.
func TestConsoleRunsATournament(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	b := s.browser(t)
	id, token := createByForm(t, b, url.Values{"name": {"Vårturneringen"}, "format": {"sm"}, "games": {"2"}, "advance": {"2"}})
	b.login(token)
	console := "/t/" + id + "/console"
	csv := "name,club\nAnna,BK Ess\nBo,BK Ess\nCia,Kortklubben\nDan,Kortklubben\nEva,\nFia,BK Ess\nGus,\nHed,Kortklubben\n"
	if r := b.post(console, console+"/players/import", url.Values{"csv": {csv}, "confirm": {"1"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("import = %d, want 303\n%s", r.Status, r.Body)
	}
	if r := b.post(console, console+"/players", url.Values{"name": {"Ivar"}, "club": {"BK Ess"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("add player = %d, want 303", r.Status)
	}
	ps, _ := s.svc.Players(context.Background(), id)
	if len(ps) != 9 {
		t.Fatalf("players after import and add = %d, want 9", len(ps))
	}
	// 9 players make tables of 3 and 3 and 3: fine; withdraw one to get 8.
	if r := b.post(console, console+"/players/"+ps[8].ID+"/status", url.Values{"status": {"withdrawn"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("withdraw = %d, want 303", r.Status)
	}
	if r := b.post(console, console+"/rounds", url.Values{"seed": {"42"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("draw = %d, want 303\n%s", r.Status, r.Body)
	}
	rv, err := s.plays.Round(context.Background(), id, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r := b.post(console, console+"/rounds/1/close", nil); r.Status != http.StatusConflict || !strings.Contains(r.Body, "have no result yet") {
		t.Fatalf("close with games missing = %d, want 409 naming the missing games\n%s", r.Status, r.Body)
	} else if strings.Contains(r.Body, "data-events=") {
		// A live page fetches its own URL again: the form's action is not a page.
		t.Errorf("the console's answer to a refused close follows the event stream")
	}
	if r := b.get(console); !strings.Contains(r.Body, "data-events=") {
		t.Errorf("the console does not follow the event stream")
	}
	rng := rand.New(rand.NewPCG(5, 5))
	for _, tb := range rv.Round.Tables {
		for g := 1; g <= 2; g++ {
			page := console + "/rounds/1/tables/" + strconv.Itoa(tb.Number) + "/games/" + strconv.Itoa(g)
			rec := tournamenttest.SheetGame(rng, tb.Players, tb.FirstDealerOf(g))
			r := b.post(page, page, sheetForm(t, rec, tb.Players))
			if r.Status != http.StatusSeeOther {
				t.Fatalf("POST %s = %d, want 303\n%s", page, r.Status, r.Body)
			}
			if got := b.mustGet(page, http.StatusOK); !strings.Contains(got.Body, `id="stored-result"`) {
				t.Fatalf("GET %s after submitting: no accepted result shown", page)
			}
		}
	}
	// The close form carries an Idempotency-Key: a refusal with ties is
	// not kept under it (the same form closes once they are resolved), a
	// close is (the form sent again is answered as the first time).
	closeForm := func() url.Values { return url.Values{"idempotency_key": {"close-1"}} }
	r := b.post(console, console+"/rounds/1/close", closeForm())
	for r.Status == http.StatusConflict && strings.Contains(r.Body, `class="tie"`) {
		// Resolve each tie shown, in the order offered.
		form := url.Values{"method": {"lot"}}
		for i, m := range regexp.MustCompile(`name="place(\d)"><option value="([^"]+)"`).FindAllStringSubmatch(r.Body, -1) {
			_ = i
			form.Set("place"+m[1], m[2])
		}
		b.post(console, console+"/rounds/1/ties", form)
		r = b.post(console, console+"/rounds/1/close", closeForm())
	}
	if r.Status != http.StatusSeeOther {
		t.Fatalf("close = %d, want 303\n%s", r.Status, r.Body)
	}
	if again := b.post(console, console+"/rounds/1/close", closeForm()); again.Status != http.StatusSeeOther {
		t.Errorf("the close form sent again = %d, want 303 as the first time\n%s", again.Status, again.Body)
	}
	rv, _ = s.plays.Round(context.Background(), id, 1)
	if rv.Round.Status != tournament.RoundClosed {
		t.Fatalf("round 1 status = %s, want closed", rv.Round.Status)
	}
	st := b.mustGet("/t/"+id+"/standings", http.StatusOK)
	if !strings.Contains(st.Body, "Eliminated in round 1") {
		t.Errorf("standings after closing an sm round mention no player eliminated in round 1")
	}
}

// TestResultFormShowsEngineErrors submits a sheet the engine rejects and
// checks that the error stands next to the deal it concerns, and that a
// field that is not a number is marked before anything is submitted.
func TestResultFormShowsEngineErrors(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 4, true)
	b := s.browser(t)
	b.login(f.Token)
	page := "/t/" + f.ID + "/console/rounds/1/tables/1/games/1"
	// Deal 2 gives phase 1 to two players: each source is scored by at most one.
	form := url.Values{"rows": {"12"}, "d0_s0_last": {"5"}, "d1_s0_hand1": {"2"}, "d1_s1_hand1": {"2"}, "d1_s2_last": {"5"}}
	r := b.post(page, page, form)
	if r.Status != http.StatusUnprocessableEntity {
		t.Fatalf("POST bad sheet = %d, want 422\n%s", r.Status, r.Body)
	}
	m := invalidRow.FindStringSubmatch(r.Body)
	if m == nil || m[1] != "2" {
		t.Errorf("bad sheet: marked row = %v, want deal 2 marked", m)
	}
	msg := regexp.MustCompile(`id="err-2" role="alert"><span>([^<]+)</span>`).FindStringSubmatch(r.Body)
	if msg == nil {
		t.Fatalf("bad sheet: no error message in the row of deal 2")
	}
	// In the organizer's words: the player's name and the sheet's column, no ids or field names.
	tb := f.Round.Tables[0]
	names := map[string]string{}
	for _, p := range f.Players {
		names[p.ID] = p.Name
	}
	if !strings.Contains(msg[1], names[tb.Players[1]]+", Phase 1: ") || regexp.MustCompile(`\bp\d+\b|hand1|_`).MatchString(msg[1]) {
		t.Errorf("bad sheet: deal 2's message = %q, want %s's Phase 1 in words, without ids or field names", msg[1], names[tb.Players[1]])
	}
	if !strings.Contains(r.Body, `value="2"`) {
		t.Errorf("bad sheet: the entered values are not kept")
	}
	r = b.post(page, page, url.Values{"rows": {"12"}, "d3_s1_hand2": {"två"}})
	if r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.Body, `id="err-4" role="alert"><span>`) {
		t.Errorf("field that is not a number = %d, want 422 with the error in deal 4's row", r.Status)
	}
	r = b.post(page, page, url.Values{"rows": {"12"}, "record": {`{"players": ["x"]`}})
	if r.Status != http.StatusBadRequest || !strings.Contains(r.Body, `id="record-errors"`) {
		t.Errorf("pasted record that is not JSON = %d, want 400 with errors under the record", r.Status)
	}
	r = b.post(page, page, url.Values{"rows": {"12"}, "more": {"1"}})
	if r.Status != http.StatusOK || !strings.Contains(r.Body, `name="d17_s0_hand1"`) {
		t.Errorf("more rows = %d, want 200 with 18 rows", r.Status)
	}
	if rv, _ := s.plays.Round(context.Background(), f.ID, 1); len(rv.Results) != 0 {
		t.Errorf("results after rejected forms = %d, want 0", len(rv.Results))
	}
}

// TestConsoleNeedsOrganizer checks the console's guards: login, the right
// tournament, CSRF, and the login form's rate limit.
func TestConsoleNeedsOrganizer(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 4, true)
	other := s.mustTournament(t, tournament.FormatSM, 4, false)
	console := "/t/" + f.ID + "/console"

	anon := s.browser(t)
	if r := anon.mustGet(console, http.StatusSeeOther); !strings.HasPrefix(r.Header.Get("Location"), "/login?next=") {
		t.Errorf("console without login: Location = %q, want /login?next=...", r.Header.Get("Location"))
	}
	anon.mustGet(console+"/rounds/1/cards", http.StatusSeeOther)
	anon.mustGet(console+"/export.json", http.StatusSeeOther)
	if r := anon.post("/login", console+"/players", url.Values{"name": {"X"}}); r.Status != http.StatusUnauthorized {
		t.Errorf("POST to console without login = %d, want 401", r.Status)
	}
	anon.mustGet("/admin", http.StatusSeeOther)

	wrong := s.browser(t)
	wrong.login(other.Token)
	wrong.mustGet(console, http.StatusSeeOther)
	if r := wrong.post("/t/"+other.ID+"/console", console+"/rounds/1/close", nil); r.Status != http.StatusUnauthorized {
		t.Errorf("another tournament's organizer closing a round = %d, want 401", r.Status)
	}
	wrong.mustGet("/admin", http.StatusSeeOther)

	org := s.browser(t)
	org.login(f.Token)
	if r := org.do(http.MethodPost, console+"/players", url.Values{"name": {"X"}}); r.Status != http.StatusForbidden {
		t.Errorf("POST without CSRF token = %d, want 403", r.Status)
	}
	if r := org.do(http.MethodPost, console+"/players", url.Values{"name": {"X"}, "_csrf": {"forged"}}); r.Status != http.StatusForbidden {
		t.Errorf("POST with a forged CSRF token = %d, want 403", r.Status)
	}
	if ps, _ := s.svc.Players(context.Background(), f.ID); len(ps) != 4 {
		t.Errorf("players after refused posts = %d, want 4", len(ps))
	}
	cards := org.mustGet(console+"/rounds/1/cards", http.StatusOK)
	codes, _ := s.plays.TableCodes(context.Background(), org2(), f.ID, 1)
	if !strings.Contains(cards.Body, codes[1]) {
		t.Errorf("table card does not show table 1's code")
	}
	if pub := anon.mustGet("/t/"+f.ID+"/seating", http.StatusOK); strings.Contains(pub.Body, codes[1]) {
		t.Errorf("public seating shows a table code")
	}

	guess := s.browser(t)
	var last response
	for range 12 {
		last = guess.post("/login", "/login", url.Values{"token": {"guess"}})
	}
	if last.Status != http.StatusTooManyRequests {
		t.Errorf("12th wrong token = %d, want 429", last.Status)
	}
	if r := org.post(console, "/logout", nil); r.Status != http.StatusSeeOther {
		t.Errorf("logout = %d, want 303", r.Status)
	}
	org.mustGet(console, http.StatusSeeOther)
}

func org2() tournament.Actor { return tournament.Actor{Role: tournament.RoleOrganizer} }

// TestSessionCookie checks the login cookie's attributes.
func TestSessionCookie(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 4, false)
	r := s.browser(t).login(f.Token)
	var ck string
	for _, c := range r.Header.Values("Set-Cookie") {
		if strings.HasPrefix(c, "revisor_session=") {
			ck = c
		}
	}
	for _, want := range []string{"HttpOnly", "SameSite=Strict", "Path=/"} {
		if !strings.Contains(ck, want) {
			t.Errorf("session cookie %q lacks %s", ck, want)
		}
	}
	if strings.Contains(ck, "Secure") {
		t.Errorf("session cookie over plain HTTP is Secure: %q", ck)
	}
	if r.Header.Get("Location") != "/t/"+f.ID+"/console" {
		t.Errorf("login Location = %q, want the console", r.Header.Get("Location"))
	}
}

// TestExportDownload downloads the whole tournament as JSON.
func TestExportDownload(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	s.playAll(t, f, f.Round, 3)
	b := s.browser(t)
	b.login(f.Token)
	r := b.mustGet("/t/"+f.ID+"/console/export.json", http.StatusOK)
	var ex transfer.Export
	if err := json.Unmarshal([]byte(r.Body), &ex); err != nil {
		t.Fatalf("export is not JSON: %v", err)
	}
	if ex.Format != transfer.ExportFormat || ex.Tournament.ID != f.ID || len(ex.Players) != 8 ||
		len(ex.Rounds) != 1 || len(ex.Rounds[0].Tables) != 2 || len(ex.Results) != 6 {
		t.Errorf("export = format %q, id %q, %d players, %d rounds, %d results; want %q, %q, 8, 1 (2 tables), 6",
			ex.Format, ex.Tournament.ID, len(ex.Players), len(ex.Rounds), len(ex.Results), transfer.ExportFormat, f.ID)
	}
	for _, res := range ex.Results {
		if len(res.Record) == 0 || len(res.Places) == 0 || res.SubmittedBy == "" {
			t.Fatalf("exported result %d/%d/%d lacks its record, places or submitter", res.Round, res.Table, res.Game)
		}
	}
	if strings.Contains(r.Body, f.Token) {
		t.Errorf("export holds the organizer token")
	}
	csv := b.mustGet("/t/"+f.ID+"/standings.csv", http.StatusOK)
	lines := strings.Split(strings.TrimSpace(csv.Body), "\n")
	if len(lines) != 9 || !strings.HasPrefix(lines[0], "rank,player,name,club,placement_points,game_points,games_played") {
		t.Errorf("standings CSV: %d lines, header %q; want 9 and the API's header", len(lines), lines[0])
	}
	excel := b.mustGet("/t/"+f.ID+"/standings.csv?variant=excel", http.StatusOK)
	if !strings.HasPrefix(excel.Body, "\ufeffrank;player;name;club;") || strings.Count(excel.Body, "\r\n") != 9 {
		t.Errorf("standings CSV for Excel = %q, want a byte-order mark, semicolons and 9 lines", excel.Body)
	}
}

// TestScoreSheetFilledFromResult checks that a played game's sheet shows
// its deals and running totals, and that the result page names who
// submitted it.
func TestScoreSheetFilledFromResult(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 4, true)
	tb := f.Round.Tables[0]
	p := tb.Players
	rec := tournamenttest.TimedGame(p, tb.FirstDealerOf(1),
		map[string]map[string]int{p[0]: {"hand1": 2, "last_trick": 5}, p[1]: {"hand2": 3, "hand3": 4}},
		map[string]map[string]int{p[2]: {"hand1": 1, "last_trick": 5}})
	s.submit(t, f, 1, tb, 1, rec)
	r := s.browser(t).mustGet("/t/"+f.ID+"/rounds/1/sheets?table=1&game=1", http.StatusOK)
	// Deal 1: p0 2 _ 5 _ =7, p1 _ 3 _ 4 =7, p2 =0, p3 =0; deal 2 adds p2's 1 and 5.
	row1 := `<td>2</td><td></td><td>5</td><td></td><td class="total">7</td><td></td><td>3</td><td></td><td>4</td><td class="total">7</td>`
	row2 := `<td>1</td><td></td><td>5</td><td></td><td class="total">6</td>`
	if !strings.Contains(r.Body, row1) || !strings.Contains(r.Body, row2) {
		t.Errorf("score sheet of a played game lacks its deals:\n%s", r.Body)
	}
	b := s.browser(t)
	b.login(f.Token)
	if g := b.mustGet("/t/"+f.ID+"/console/rounds/1/tables/1/games/1", http.StatusOK); !strings.Contains(g.Body, "submitted by the organizer") {
		t.Errorf("result page does not say who submitted the result")
	}
}

// TestLoginReturnsToThePageAsked checks that a login started from a
// console page goes back to it, and never to another tournament or site.
func TestLoginReturnsToThePageAsked(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 4, true)
	other := s.mustTournament(t, tournament.FormatSM, 4, false)
	cards := "/t/" + f.ID + "/console/rounds/1/cards"
	tests := []struct{ next, want string }{
		{cards, cards},
		{"/t/" + other.ID + "/console", "/t/" + f.ID + "/console"},
		{"//evil.example/t/" + f.ID + "/", "/t/" + f.ID + "/console"},
		{"", "/t/" + f.ID + "/console"},
	}
	for _, tt := range tests {
		b := s.browser(t)
		r := b.post("/login", "/login", url.Values{"token": {f.Token}, "next": {tt.next}})
		if got := r.Header.Get("Location"); r.Status != http.StatusSeeOther || got != tt.want {
			t.Errorf("login with next=%q = %d to %q, want 303 to %q", tt.next, r.Status, got, tt.want)
		}
	}
	// The admin may be sent to any page of the site, never to another host
	// (issue 13, item 4: browsers drop the tab and follow "//evil.example").
	for _, next := range []string{"/\t/evil.example", "/\n/evil.example", "/\\evil.example", "/ /evil.example"} {
		b := s.browser(t)
		r := b.post("/login", "/login", url.Values{"token": {adminToken}, "next": {next}})
		if got := r.Header.Get("Location"); r.Status != http.StatusSeeOther || got != "/admin" {
			t.Errorf("admin login with next=%q = %d to %q, want 303 to /admin", next, r.Status, got)
		}
	}
}

// TestConsoleResolvesATie closes a round whose tiebreaks leave a tie at
// the advancement line, resolves it on the console's form, and closes.
func TestConsoleResolvesATie(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	ctx := context.Background()
	one := 1
	c, err := s.svc.CreateTournament(ctx, admin, tournament.NewTournament{Name: "Tie", Format: tournament.FormatSM,
		GamesPerRound: &one, Tiebreaks: []string{tournament.TiebreakGamePoints}})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{ID: c.Tournament.ID, Token: c.OrganizerToken}
	if _, err := s.svc.AddPlayers(ctx, org, f.ID, []tournament.NewPlayer{{Name: "A"}, {Name: "B"}, {Name: "C"}, {Name: "D"}, {Name: "E"}, {Name: "F"}}); err != nil {
		t.Fatal(err)
	}
	seed := int64(5)
	r, err := s.plays.DrawRound(ctx, org, f.ID, &seed)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range r.Tables { // the first scores 5; the others tie at 0 for the second place going on
		s.submit(t, f, 1, tb, 1, tournamenttest.TimedGame(tb.Players, tb.FirstDealerOf(1),
			map[string]map[string]int{tb.Players[0]: {"last_trick": 5}}))
	}
	b := s.browser(t)
	b.login(f.Token)
	console := "/t/" + f.ID + "/console"
	res := b.post(console, console+"/rounds/1/close", nil)
	if res.Status != http.StatusConflict || strings.Count(res.Body, `<form method="post" action="`+console+`/rounds/1/ties" class="tie">`) != len(r.Tables) {
		t.Fatalf("close with ties = %d, want 409 with a tie form per table\n%s", res.Status, res.Body)
	}
	checkPage(t, "console with ties", res)
	for _, tb := range r.Tables {
		form := url.Values{"method": {"choice"}, "note": {"drawn by the youngest"}}
		for i, p := range tb.Players[1:] {
			form.Set("place"+strconv.Itoa(i+1), p)
		}
		if got := b.post(console, console+"/rounds/1/ties", form); got.Status != http.StatusSeeOther {
			t.Fatalf("resolve the tie at table %d = %d, want 303\n%s", tb.Number, got.Status, got.Body)
		}
	}
	if got := b.post(console, console+"/rounds/1/close", nil); got.Status != http.StatusSeeOther {
		t.Fatalf("close after resolving = %d, want 303\n%s", got.Status, got.Body)
	}
	for _, tb := range r.Tables {
		st, _ := s.svc.Snapshot(ctx, f.ID)
		for _, o := range st.Outcomes {
			if o.Table == tb.Number && o.Advanced != (o.Player == tb.Players[0] || o.Player == tb.Players[1]) {
				t.Errorf("table %d: %s advanced = %v; want the scorer and the one put first", tb.Number, o.Player, o.Advanced)
			}
		}
	}
}

// TestDisputeCorrectsAResult has a result corrected through the pages:
// the organizer opens a dispute from the result page, a referee logs in
// with a referee token, rules it upheld with a corrected record, and the
// standings follow.
func TestDisputeCorrectsAResult(t *testing.T) {
	t.Parallel()
	s, f, tb := timedGameSite(t)
	p := tb.Players
	o := s.browser(t)
	o.login(f.Token)
	issued := o.post("/t/"+f.ID+"/console", "/t/"+f.ID+"/console/referees", url.Values{"name": {"Domaren"}})
	m := regexp.MustCompile(`id="referee-token">([^<]+)<`).FindStringSubmatch(issued.Body)
	if issued.Status != http.StatusCreated || m == nil {
		t.Fatalf("issue a referee token = %d, want 201 showing the token", issued.Status)
	}
	ref := struct{ Token string }{m[1]}
	page := "/t/" + f.ID + "/console/rounds/1/tables/1/games/1"
	empty := o.post(page, page+"/dispute", url.Values{"description": {" "}})
	if empty.Status != http.StatusBadRequest || !strings.Contains(empty.Body, `id="description" name="description" required aria-invalid="true"`) {
		t.Errorf("dispute without a description = %d, want 400 with the field marked on the result page", empty.Status)
	}
	checkPage(t, "result page with a dispute error", empty)
	// The form asks in plain words (issue 14, item 7): which deal, chosen by
	// number with its dealer, and what is wrong; no JSON.
	sheet := o.mustGet(page, http.StatusOK).Body
	dealer := regexp.MustCompile(`id="game-dealer">[^<]*: ([^<]+)</p>`).FindStringSubmatch(sheet)
	if dealer == nil || !strings.Contains(sheet, `<option value="1">Deal 1, dealt by `+dealer[1]+`</option>`) ||
		!strings.Contains(sheet, `<label for="description">What is wrong (in your own words)</label>`) {
		t.Errorf("the dispute form does not offer the game's deals by number and dealer, or ask what is wrong")
	}
	if f := sheet[strings.Index(sheet, `id="dispute-form"`):]; strings.Contains(f[:strings.Index(f, "</form>")], "JSON") {
		t.Errorf("the dispute form still asks for JSON")
	}
	badDeal := o.post(page, page+"/dispute", url.Values{"description": {"wrong"}, "deal": {"-2"}})
	if badDeal.Status != http.StatusBadRequest || !strings.Contains(badDeal.Body, `name="deal" aria-invalid="true"`) {
		t.Errorf("dispute naming deal -2 = %d, want 400 with the deal marked", badDeal.Status)
	}
	r := o.post(page, page+"/dispute", url.Values{"description": {"the last trick was " + p[1] + "'s"}, "deal": {"1"}})
	if r.Status != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/t/"+f.ID+"/disputes/") {
		t.Fatalf("open a dispute = %d to %q, want 303 to the dispute\n%s", r.Status, r.Header.Get("Location"), r.Body)
	}
	dispute := r.Header.Get("Location")

	anon := s.browser(t)
	anon.mustGet("/t/"+f.ID+"/disputes", http.StatusSeeOther)
	referee := s.browser(t)
	if loc := referee.login(ref.Token).Header.Get("Location"); loc != "/t/"+f.ID+"/disputes" {
		t.Errorf("referee login goes to %q, want the disputes", loc)
	}
	list := referee.mustGet("/t/"+f.ID+"/disputes", http.StatusOK)
	checkPage(t, "disputes", list)
	if !strings.Contains(list.Body, `href="`+dispute+`"`) {
		t.Fatalf("the referee's list does not link the dispute %s", dispute)
	}
	if !strings.Contains(list.Body, `<td class="status-col">awaiting the referee&#39;s ruling</td>`) {
		t.Errorf("the list does not say in words that the dispute awaits a ruling")
	}
	shown := referee.mustGet(dispute, http.StatusOK)
	checkPage(t, "dispute", shown)
	if !strings.Contains(shown.Body, `<dd id="dispute-status">awaiting the referee&#39;s ruling</dd>`) ||
		!strings.Contains(shown.Body, `<dd id="dispute-opened">the organizer · `) {
		t.Errorf("the dispute page does not say its status and who opened it in words")
	}
	if !strings.Contains(shown.Body, `id="dispute-deal">Disputed deal: 1<`) {
		t.Errorf("the dispute page does not name the deal chosen in the form")
	}
	// The dispute page shows the disputed result in the score-sheet grid: p[0]'s last trick in deal 1.
	if !strings.Contains(shown.Body, `name="d0_s0_last" id="d0_s0_last" value="5"`) || !strings.Contains(shown.Body, `name="ended" value="time" checked`) {
		t.Errorf("the dispute page does not show the disputed result in the grid")
	}
	if strings.Contains(shown.Body, "JSON") {
		t.Errorf("the dispute page asks the referee for JSON")
	}
	noRemedy := referee.post(dispute, dispute+"/ruling", url.Values{"decision": {"upheld"}, "reason": {"the sheet was wrong"}})
	if noRemedy.Status != http.StatusUnprocessableEntity || !strings.Contains(noRemedy.Body, "An upheld dispute needs a remedy") ||
		!strings.Contains(noRemedy.Body, `id="correct" aria-invalid="true"`) {
		t.Errorf("upheld without a remedy = %d, want 422 saying a remedy is needed, the correction box marked", noRemedy.Status)
	}
	checkPage(t, "dispute upheld without a remedy", noRemedy)
	badSheet := referee.post(dispute, dispute+"/ruling", url.Values{"decision": {"upheld"}, "reason": {"the sheet was wrong"},
		"correct": {"1"}, "rows": {"12"}, "ended": {"time"}, "d0_s0_last": {"5"}, "d0_s1_last": {"5"}})
	if badSheet.Status != http.StatusUnprocessableEntity || !strings.Contains(badSheet.Body, `id="err-1" role="alert"`) {
		t.Errorf("upheld with a wrong sheet = %d, want 422 with the error at deal 1", badSheet.Status)
	}
	bad := referee.post(dispute, dispute+"/ruling", url.Values{"decision": {"upheld"}, "reason": {""}})
	if bad.Status != http.StatusBadRequest || !strings.Contains(bad.Body, `id="reason" name="reason" required aria-invalid="true"`) {
		t.Errorf("ruling without a reason = %d, want 400 with the reason field marked", bad.Status)
	}
	checkPage(t, "dispute with an error", bad)
	// The correction: the last trick was p[1]'s, entered in the grid.
	r = referee.post(dispute, dispute+"/ruling", url.Values{"decision": {"upheld"}, "reason": {"the sheet was wrong"},
		"correct": {"1"}, "rows": {"12"}, "ended": {"time"}, "d0_s1_last": {"5"}})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("ruling = %d, want 303\n%s", r.Status, r.Body)
	}
	if got := referee.mustGet(dispute, http.StatusOK); !strings.Contains(got.Body, `<p id="ruling">upheld: the sheet was wrong`) ||
		!strings.Contains(got.Body, `<dd id="dispute-status">ruled</dd>`) {
		t.Errorf("the dispute page does not show the ruling in words")
	}
	if got := referee.mustGet("/t/"+f.ID+"/disputes", http.StatusOK); !strings.Contains(got.Body, `<td class="status-col">ruled (upheld)</td>`) {
		t.Errorf("the list does not say in words that the dispute was ruled and upheld")
	}
	_, rows, _ := s.svc.Standings(context.Background(), f.ID)
	if rows[0].Player.ID != p[1] {
		t.Errorf("leader after the correction = %s, want %s", rows[0].Player.ID, p[1])
	}
	st := anon.mustGet("/t/"+f.ID+"/standings", http.StatusOK)
	if i, j := strings.Index(st.Body, `data-player="`+p[1]+`"`), strings.Index(st.Body, `data-player="`+p[0]+`"`); i < 0 || j < 0 || i > j {
		t.Errorf("public standings do not put %s first after the correction", p[1])
	}
}

// TestAdminSetsTournamentLanguage: the admin form offers the default
// language (the admin's own preselected), stores it, and refuses one the
// pages do not have.
func TestAdminSetsTournamentLanguage(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	b := s.browser(t)
	b.lang = "da"
	b.login(adminToken)
	if r := b.mustGet("/admin", http.StatusOK); !strings.Contains(r.Body, `<option value="da" lang="da" selected>Dansk</option>`) {
		t.Errorf("admin page in Danish does not preselect Danish:\n%s", r.Body)
	}
	id, _ := createByForm(t, b, url.Values{"name": {"Klubaften"}, "format": {"sm"}, "language": {"da"}})
	v := s.browser(t)
	v.lang = "de"
	if r := v.mustGet("/t/"+id, http.StatusOK); !strings.Contains(r.Body, `<html lang="da">`) {
		t.Errorf("a visitor asking for German does not get the tournament's Danish")
	}
	r := b.post("/admin", "/admin/tournaments", url.Values{"name": {"X"}, "format": {"sm"}, "language": {"de"}})
	if r.Status != http.StatusBadRequest || !strings.Contains(r.Body, `<select id="language" name="language" aria-describedby="language-hint" aria-invalid="true">`) {
		t.Errorf("language de: %d, want 400 with the language field marked\n%s", r.Status, r.Body)
	}
}
