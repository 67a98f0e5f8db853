package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// tiedRound plays round n so that at every table the first player wins
// every game and the others score nothing: the others are equal in every
// tiebreak, so only the lot (or the organizer) decides who goes on with
// the winner.
func (s *site) tiedRound(t *testing.T, f *fixture, r *tournament.Round, games int) {
	t.Helper()
	for _, tb := range r.Tables {
		for g := 1; g <= games; g++ {
			s.submit(t, f, r.Number, tb, g, tournamenttest.TimedGame(tb.Players, tb.FirstDealerOf(g),
				map[string]map[string]int{tb.Players[0]: {"last_trick": 5}}))
		}
	}
}

// smAfterALot is an sm tournament of eight whose round 1 was closed with
// a lot at each table, and round 2 drawn: the start of round 2, when all
// still in have no points in it yet.
func smAfterALot(t *testing.T, s *site) *fixture {
	t.Helper()
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	s.tiedRound(t, f, f.Round, 3)
	s.nextRound(t, f, 1)
	return f
}

// nextRound closes round n of f, its games accepted unconfirmed, and
// draws round n+1 (seed 2).
func (s *site) nextRound(t *testing.T, f *fixture, n int) {
	t.Helper()
	ctx := context.Background()
	if _, err := s.plays.CloseRound(ctx, org, f.ID, n, play.AcceptUnconfirmed()); err != nil {
		t.Fatalf("CloseRound %d: %v", n, err)
	}
	seed := int64(2)
	if _, err := s.plays.DrawRound(ctx, org, f.ID, &seed); err != nil {
		t.Fatalf("DrawRound %d: %v", n+1, err)
	}
}

// TestStandingsExplainThemselves checks the standings of an sm tournament
// at the start of round 2: ranked by what decides them (not all "1="),
// each row saying how far the player came, and the ties that the lot broke
// shown with the lot's seed, on the standings page, the player's page and
// in the CSV.
func TestStandingsExplainThemselves(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := smAfterALot(t, s)
	st, err := s.svc.Snapshot(context.Background(), f.ID)
	if err != nil {
		t.Fatal(err)
	}
	rows := tournament.Standings(st)
	firsts := 0
	for _, r := range rows {
		if r.Rank == 1 {
			firsts++
		}
	}
	// The two table winners (60 points in round 1) share first; the two who
	// went on by lot come next, not also first.
	if firsts != 2 || rows[2].Rank != 3 || rows[2].DecidedBy != tournament.DecidedTotal {
		t.Errorf("ranks at the start of round 2: %d share first, third row rank %d decided by %q; want 2, 3, %q",
			firsts, rows[2].Rank, rows[2].DecidedBy, tournament.DecidedTotal)
	}
	b := s.browser(t)
	page := b.mustGet("/t/"+f.ID+"/standings", http.StatusOK).Body
	for _, want := range []string{"Playing round 2", "Eliminated in round 1", "Ranked by the round reached",
		"placed by points over all rounds", "Round 1, table 1: equal in every tiebreak, ordered by the lot of the round&#39;s seed 1: "} {
		if !strings.Contains(page, want) {
			t.Errorf("standings page lacks %q", want)
		}
	}
	// A player who lost the lot: their page says so.
	loser := lotLoser(t, s, f)
	pp := b.mustGet("/t/"+f.ID+"/players/"+loser, http.StatusOK).Body
	for _, want := range []string{"Eliminated in round 1", `id="rank-tie"`, "seed 1", `id="player-rank"`} {
		if !strings.Contains(pp, want) {
			t.Errorf("player page of %s lacks %q", loser, want)
		}
	}
	csv := b.mustGet("/t/"+f.ID+"/standings.csv", http.StatusOK).Body
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	if !strings.Contains(lines[0], "progress,decided_by,tie") {
		t.Errorf("CSV header = %q, want progress,decided_by,tie", lines[0])
	}
	if !strings.Contains(csv, "eliminated in round 1") || !strings.Contains(csv, "lot seed 1") || !strings.Contains(csv, "total_points") {
		t.Errorf("CSV does not explain the ranks:\n%s", csv)
	}
}

// TestBrowserStandingsExplained takes the screenshots of the explained
// standings and a player's page at phone and desktop width in both
// languages: no word broken in the middle, and on a phone the tie's
// explanation on lines as wide as the row.
func TestBrowserStandingsExplained(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := smAfterALot(t, s)
	pages := map[string]string{"standings": "/t/" + f.ID + "/standings", "player": "/t/" + f.ID + "/players/" + lotLoser(t, s, f)}
	wide := noSidewaysScroll(t)
	shootPages(t, s, "explained", pages, func(c *chrome, lang, path string, width int) {
		wide(c, lang, path, width)
		if got := c.eval(`String(document.querySelectorAll(".tie").length > 0)`); got != "true" {
			t.Errorf("%s %s: no tie explained", lang, path)
		}
		if got := c.eval(midWordBreaks); got != "" {
			t.Errorf("%s %s at %d px breaks words in the middle: %s", lang, path, width, got)
		}
		// On a phone an explanation has the row's width under the name,
		// not a narrow column beside the numbers.
		if width < 500 && strings.Contains(path, "/standings") {
			got := c.eval(`String(Math.round(document.querySelector("#standings .tie").getBoundingClientRect().width))`)
			if w, _ := strconv.Atoi(got); w < 250 {
				t.Errorf("%s %s at %d px: the tie's explanation is %s px wide, want the row's width", lang, path, width, got)
			}
		}
	})
}

// lotLoser returns a player whom the lot of round 1 eliminated.
func lotLoser(t *testing.T, s *site, f *fixture) string {
	t.Helper()
	st, err := s.svc.Snapshot(context.Background(), f.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range tournament.Standings(st) {
		if r.Tie != nil && r.Player.Status == tournament.PlayerEliminated {
			return r.Player.ID
		}
	}
	t.Fatal("no player eliminated by the lot")
	return ""
}

// TestConsoleAsksForTheLot closes an sm round from the console where only
// the lot separates players at the advancement line: the console refuses,
// shows the ties and asks the organizer; the order recorded (a play-off)
// closes the round and the standings publish it with the note.
func TestConsoleAsksForTheLot(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	s.tiedRound(t, f, f.Round, 3)
	b := s.browser(t)
	b.login(f.Token)
	console := "/t/" + f.ID + "/console"
	r := b.post(console, console+"/rounds/1/close", url.Values{"accept_unconfirmed": {"1"}})
	if r.Status != http.StatusConflict || !strings.Contains(r.Body, `id="ties-help"`) || strings.Count(r.Body, `class="tie"`) != 2 {
		t.Fatalf("close with ties only a lot breaks = %d, want 409 showing two ties to resolve\n%s", r.Status, r.Body)
	}
	for _, tb := range f.Round.Tables {
		// The three tied at the table: all but the winner, the last first after a play-off.
		form := url.Values{"method": {"choice"}, "note": {"play-off"}, "place1": {tb.Players[3]}, "place2": {tb.Players[1]}, "place3": {tb.Players[2]}}
		if r := b.post(console, console+"/rounds/1/ties", form); r.Status != http.StatusSeeOther {
			t.Fatalf("resolve table %d = %d, want 303\n%s", tb.Number, r.Status, r.Body)
		}
	}
	if r := b.post(console, console+"/rounds/1/close", url.Values{"accept_unconfirmed": {"1"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("close after resolving = %d, want 303\n%s", r.Status, r.Body)
	}
	st := b.mustGet("/t/"+f.ID+"/standings", http.StatusOK).Body
	if n := strings.Count(st, "ordered by the organizer (play-off)"); n != 6 || !strings.Contains(st, "(play-off)") {
		t.Errorf("standings explain %d ties by the organizer's play-off, want 6 (three a table)", n)
	}
	for _, tb := range f.Round.Tables {
		if !strings.Contains(st, `data-player="`+tb.Players[3]+`"`) {
			t.Fatalf("no row of %s", tb.Players[3])
		}
	}
	snap, err := s.svc.Snapshot(context.Background(), f.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range snap.Outcomes {
		tb := f.Round.Tables[o.Table-1]
		if want := o.Player == tb.Players[0] || o.Player == tb.Players[3]; o.Advanced != want {
			t.Errorf("%s advanced = %v, want %v (the play-off's winner goes on)", o.Player, o.Advanced, want)
		}
	}
}

// TestBrowserConsoleTies shows the console's ties at phone and desktop
// width in both languages.
func TestBrowserConsoleTies(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	s.tiedRound(t, f, f.Round, 3)
	console := "/t/" + f.ID + "/console"
	loggedInPages(t, s, f.Token, console, "#close-round", func(c *chrome, lang string, size viewport) {
		c.allow("status of 409")
		c.do("close", chromedp.Click(chromedp.ID("close-round")), chromedp.WaitVisible(chromedp.ID("confirm-dialog")))
		c.clickAndWait("confirm the close", "#confirm-ok", `!!document.getElementById("ties")`)
		// The tie forms fit the screen (the round's table above is the phone layout's own work).
		fits := `String([...document.querySelectorAll("form.tie")].every(f => f.getBoundingClientRect().right <= window.innerWidth))`
		if got := c.eval(fits); got != "true" {
			t.Errorf("%s %d px: the tie forms are wider than the screen", lang, size.w)
		}
		// In the organizer's words, not the API's ids and paths.
		if got := c.eval(`String(document.body.innerText.includes("POST") || document.body.innerText.includes("(p1)"))`); got != "false" {
			t.Errorf("%s %d px: the console shows the API's message about the ties", lang, size.w)
		}
		c.screenshot(fmt.Sprintf("console-ties-%s-%s", lang, size.name))
	})
}

// TestAdminSetsPointsAndTiebreaks creates tournaments through the admin's
// form with its own placement points and tiebreaks without the lot, and
// refuses points that are not whole numbers or that rise.
func TestAdminSetsPointsAndTiebreaks(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	b := s.browser(t)
	b.login(adminToken)
	id, _ := createByForm(t, b, url.Values{"name": {"Klubbkväll"}, "format": {"sm"}, "points": {"10; 6 4 2"}, "tiebreaks": {"no_lot"}})
	tt, err := s.svc.Tournament(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(tt.Settings.PlacementPoints, tt.Settings.Tiebreaks); got != "[10 6 4 2] [game_points games_won best_game]" {
		t.Errorf("settings from the form = %s, want [10 6 4 2] and the tiebreaks without the lot", got)
	}
	for _, pts := range []string{"20, tolv", "5, 10, 20"} {
		r := b.post("/admin", "/admin/tournaments", url.Values{"name": {"X"}, "format": {"sm"}, "points": {pts}})
		if r.Status != http.StatusBadRequest || !strings.Contains(r.Body, `id="points" name="points"`) ||
			!strings.Contains(r.Body, `aria-invalid="true">`+"\n"+`<small id="points-hint">`) {
			t.Errorf("points %q: %d, want 400 with the points field marked", pts, r.Status)
		}
	}
}

// TestBrowserAdminForm shows the admin's form with the settings at phone
// and desktop width in both languages.
func TestBrowserAdminForm(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	loggedInPages(t, s, adminToken, "/admin", "#points", func(c *chrome, lang string, size viewport) {
		if got := c.eval(`String(document.documentElement.scrollWidth <= window.innerWidth)`); got != "true" {
			t.Errorf("%s %d px: the admin's form scrolls sideways", lang, size.w)
		}
		c.screenshot(fmt.Sprintf("admin-form-%s-%s", lang, size.name))
	})
}

// TestBrowserBigScreenStandingsExplained (issue 14, item 1 on the big
// screen): the big screen's sm standings show what decides the rank as the
// standings page does -- the round reached, this round's points, advances
// or eliminated, and how ties were broken -- not game points and games,
// without scrolling sideways at phone and desktop width in both languages.
func TestBrowserBigScreenStandingsExplained(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := smAfterALot(t, s)
	words := map[string][]string{"sv": {"Omg PP", "Utslagen i omgång 1", "Spelar omgång 2"}, "en": {"Rd PP", "Eliminated in round 1", "Playing round 2"}}
	wide := noSidewaysScroll(t)
	shootPages(t, s, "big-screen-explained", map[string]string{"standings": "/t/" + f.ID + "/screen"}, func(c *chrome, lang, path string, width int) {
		wide(c, lang, path, width)
		text := c.eval(`document.querySelector("#standings").innerText + "|" + document.querySelector("#rank-order").innerText`)
		for _, want := range words[lang] {
			if !strings.Contains(text, want) {
				t.Errorf("%s big screen at %d px lacks %q:\n%s", lang, width, want, text)
			}
		}
		if got := c.eval(`String(document.querySelectorAll("#standings .tie").length > 0)`); got != "true" {
			t.Errorf("%s big screen at %d px: no tie explained", lang, width)
		}
		if got := c.eval(midWordBreaks); got != "" {
			t.Errorf("%s big screen at %d px breaks words in the middle: %s", lang, width, got)
		}
		// Readable across the room: the names larger than on the standings page.
		if width > 500 {
			if got := c.eval(`String(parseFloat(getComputedStyle(document.querySelector("#standings td.name")).fontSize) >= 24)`); got != "true" {
				t.Errorf("%s big screen at %d px: names smaller than 24 px", lang, width)
			}
		}
	})
}
