package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/revisor-sm/revisor/tournament"
)

// bridgeRound makes a bridge_chicago tournament of n players with round 1
// drawn and nothing played.
func bridgeRound(t *testing.T, s *site, n, rounds int) (*fixture, *tournament.Round) {
	t.Helper()
	ctx := context.Background()
	c, err := s.svc.CreateTournament(ctx, admin, tournament.NewTournament{Name: "Bridgekväll", Format: tournament.FormatBridge, Rounds: &rounds})
	if err != nil {
		t.Fatal(err)
	}
	nps := make([]tournament.NewPlayer, n)
	for i := range nps {
		nps[i] = tournament.NewPlayer{Name: playerName(i), Club: "BK Ess"}
	}
	f := &fixture{ID: c.Tournament.ID, Token: c.OrganizerToken}
	if f.Players, err = s.svc.AddPlayers(ctx, org, f.ID, nps); err != nil {
		t.Fatal(err)
	}
	seed := int64(3)
	r, err := s.plays.DrawRound(ctx, org, f.ID, &seed)
	if err != nil {
		t.Fatal(err)
	}
	f.Round = r
	return f, r
}

// bridgeDeal is the table page's form of a played contract.
func bridgeDeal(contract string, declarer string, tricks string) url.Values {
	level, rest := contract[:1], contract[1:]
	dbl := ""
	for strings.HasSuffix(rest, "X") {
		dbl, rest = dbl+"X", strings.TrimSuffix(rest, "X")
	}
	return url.Values{"level": {level}, "strain": {rest}, "double": {dbl}, "declarer": {declarer}, "tricks": {tricks}}
}

// TestTableBridge enters a Chicago at a bridge table through the table
// page: each deal's dealer and vulnerability shown, refusals in words
// beside the choices, a passed-out deal dealt again, the running score per
// side, and the match confirmed by its players. The table of two is shown
// draw bridge.
func TestTableBridge(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f, r := bridgeRound(t, s, 6, 2)
	four := slices.IndexFunc(r.Tables, func(tb tournament.Table) bool { return len(tb.Players) == 4 })
	two := slices.IndexFunc(r.Tables, func(tb tournament.Table) bool { return len(tb.Players) == 2 })
	if four < 0 || two < 0 {
		t.Fatalf("6 players: tables %+v, want one of four and one of two", r.Tables)
	}
	tb := r.Tables[four]
	b := s.browser(t)
	b.tableLogin(f, tableCode(t, s, f, tb.Number))
	page := "/t/" + f.ID + "/table"
	p := b.mustGet(page, http.StatusOK)
	first := slices.Index(tb.Players, tb.FirstDealer)
	for _, want := range []string{"Chicago bridge", `name="level"`, `name="strain"`, `name="declarer"`, `name="tricks"`, "Vulnerable: None",
		"Deal 1 · " + strings.Fields(nameOf(f, tb.FirstDealer))[0] + " deals", "N–S: " + nameOf(f, tb.Players[0]) + " &amp; " + nameOf(f, tb.Players[2])} {
		if !strings.Contains(p.Body, want) {
			t.Errorf("bridge table page lacks %q", want)
		}
	}
	if strings.Contains(p.Body, `name="s1_hand1"`) {
		t.Errorf("bridge table page shows the card game's fields")
	}

	// Bad input: no level, a declarer from elsewhere, 14 tricks.
	status, ans := b.postDeal(f, 1, 1, "", url.Values{"strain": {"H"}, "declarer": {r.Tables[two].Players[0]}, "tricks": {"14"}})
	if status != http.StatusUnprocessableEntity || len(ans.Messages) != 3 {
		t.Fatalf("a bad bridge entry = %d %+v, want 422 with three messages", status, ans)
	}
	for i, field := range []string{"level", "declarer", "tricks"} {
		if ans.Messages[i].Field != field {
			t.Errorf("message %d on %q, want %q", i, ans.Messages[i].Field, field)
		}
	}
	noIDs(t, f, ans)
	b.lang = "sv"
	if _, ans = b.postDeal(f, 1, 1, "", url.Values{"level": {"3"}, "strain": {"NT"}, "tricks": {"9"}}); len(ans.Messages) != 1 || ans.Messages[0].Text != "Välj spelföraren." {
		t.Errorf("a Swedish phone without a declarer = %+v, want \"Välj spelföraren.\"", ans)
	}
	b.lang = "en"
	// Without script: the choices kept, the words beside them.
	if p = b.post(page, page+"/games/1/deals", url.Values{"deal": {"1"}, "level": {"4"}, "strain": {"S"}, "tricks": {"10"}}); p.Status != http.StatusUnprocessableEntity ||
		!strings.Contains(p.Body, "Choose the declarer.") || !strings.Contains(p.Body, `<option value="S" selected>`) {
		t.Errorf("a form without a declarer = %d, want 422 with the message and the suit kept\n%s", p.Status, p.Body)
	}

	// The match: 4♠= by N–S, passed out, 3NT−1 by E–W, 2♥= by N–S, 1NT=
	// by E–W on the fourth deal.
	ns, ew := tb.Players[0], tb.Players[1]
	deals := []url.Values{bridgeDeal("4S", ns, "10"), {"level": {"pass"}}, bridgeDeal("3NT", ew, "8"), bridgeDeal("2H", ns, "8"), bridgeDeal("1NT", ew, "7")}
	for k, d := range deals {
		status, ans := b.postDeal(f, 1, k+1, "", d)
		if !ans.OK || ans.GameOver != (k == len(deals)-1) {
			t.Fatalf("deal %d = %d %+v, want ok (over only after the last)", k+1, status, ans)
		}
	}
	res, err := s.plays.Game(context.Background(), tournament.GameKey{TournamentID: f.ID, Round: 1, Table: tb.Number, Game: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Independently, from the Laws and the Chicago's schedule: deal 1
	// nobody vulnerable, 4♠= is 120 and 300 for the game at once. The
	// pass-out is dealt again by the same dealer (seat first+1), and on
	// counted deals 2 and 3 the dealer's side is vulnerable: 3NT−1 gives
	// N–S 100 if E–W are vulnerable, else 50. 2♥= is a partscore of 60.
	// On deal 4 1NT= is 40 and 100 for a fourth-deal partscore.
	nsPts, ewPts := 120+300, 0
	if (first+1)%4%2 == 1 {
		nsPts += 100
	} else {
		nsPts += 50
	}
	nsPts += 60
	ewPts += 40 + 100
	want := map[string]int{ns: nsPts - ewPts, ew: ewPts - nsPts}
	seen := 0
	for _, pl := range res.Places {
		if w, ok := want[pl.Player]; ok {
			seen++
			if pl.Score != w {
				t.Errorf("%s scored %d, want %d", nameOf(f, pl.Player), pl.Score, w)
			}
		}
	}
	if seen != 2 {
		t.Errorf("the result places %d of the two declarers", seen)
	}
	p = b.mustGet(page, http.StatusOK)
	for _, want := range []string{"Passed out", "4♠", "Game over", "I, " + nameOf(f, tb.Players[3]) + ", confirm"} {
		if !strings.Contains(p.Body, want) {
			t.Errorf("finished bridge table page lacks %q", want)
		}
	}
	if strings.Contains(p.Body, `id="deal-form"`) || strings.Contains(p.Body, `id="correct-pick"`) {
		t.Errorf("finished bridge match: still an entry form or a correction")
	}
	for _, pid := range tb.Players {
		if r := b.post(page, page+"/games/1/confirmations", url.Values{"player": {pid}}); r.Status != http.StatusSeeOther {
			t.Fatalf("confirm %s = %d\n%s", nameOf(f, pid), r.Status, r.Body)
		}
	}
	if p = b.mustGet(page, http.StatusOK); !strings.Contains(p.Body, "Confirmed by every player") {
		t.Errorf("every player confirmed: the page does not say so")
	}

	// The table of two plays draw bridge.
	d := s.browser(t)
	d.tableLogin(f, tableCode(t, s, f, r.Tables[two].Number))
	if p = d.mustGet(page, http.StatusOK); !strings.Contains(p.Body, "Draw bridge") || !strings.Contains(p.Body, "Vulnerable: None") {
		t.Errorf("the table of two: want draw bridge, nobody vulnerable yet\n%s", p.Body)
	}
}

// TestBrowserTableBridge enters a Chicago and a rubber of draw bridge on
// the table page at 360 px, in English and Swedish, through the page's
// script (each deal kept on the phone, then sent): a refusal beside its
// choice, the deals and the running score, the confirmations; nothing
// scrolls sideways. Screenshots go to the artifacts.
func TestBrowserTableBridge(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f, r := bridgeRound(t, s, 6, 2)
	tabs := newTabs(t, 2, 360, 800)
	for i, tb := range r.Tables {
		b, lang := tabs[i], []string{"en", "sv"}[i]
		b.name = "bridge table " + lang
		if err := b.do("open the QR link", chromedp.Navigate(s.URL+"/lang/"+lang+"?next=/"),
			chromedp.Navigate(s.URL+"/t/"+f.ID+"/table#code="+tableCode(t, s, f, tb.Number)),
			chromedp.WaitVisible(chromedp.ID("deal-form"))); err != nil {
			t.Fatal(err)
		}
		if err := b.enterDeal(map[string]string{"level": "4", "strain": "S", "tricks": "10"}); err != nil {
			t.Fatal(err)
		}
		if err := b.until("the refusal beside the declarer", `document.querySelector("#declarer[aria-invalid=true]") !== null && document.querySelector("fieldset .field-error p") !== null`, 20*time.Second); err != nil {
			t.Fatal(err)
		}
		b.screenshot(t, "table-bridge-error-360-"+lang)
		deals := []map[string]string{{"level": "4", "strain": "S", "tricks": "10", "declarer": tb.Players[0]}, {"level": "pass"},
			{"level": "3", "strain": "NT", "tricks": "8", "declarer": tb.Players[1]}, {"level": "2", "strain": "H", "double": "X", "tricks": "8", "declarer": tb.Players[0]},
			{"level": "1", "strain": "NT", "tricks": "7", "declarer": tb.Players[1]}}
		if len(tb.Players) == 2 { // a rubber: two games for the first player
			deals = []map[string]string{{"level": "4", "strain": "S", "tricks": "10", "declarer": tb.Players[0]}, {"level": "pass"},
				{"level": "3", "strain": "NT", "tricks": "9", "declarer": tb.Players[0]}}
		}
		for k, d := range deals {
			if err := b.enterDeal(d); err != nil {
				t.Fatal(err)
			}
			last := k == len(deals)-1
			if err := b.untilAcrossLoads(fmt.Sprintf("deal %d stored", k+1), serverHas(k+1, last), 30*time.Second); err != nil {
				t.Fatal(err)
			}
			if k == 2 && !last {
				b.screenshot(t, "table-bridge-entry-360-"+lang)
			}
		}
		if err := b.untilAcrossLoads("the confirmations", `document.querySelector(".confirm-button") !== null`, 30*time.Second); err != nil {
			t.Fatal(err)
		}
		if w, _ := b.eval(`String(document.documentElement.scrollWidth <= window.innerWidth)`); w != "true" {
			t.Errorf("%s at 360 px: the page scrolls sideways", b.name)
		}
		b.screenshot(t, "table-bridge-over-360-"+lang)
	}
}
