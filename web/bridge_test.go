package web_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	bridgesim "github.com/revisor-sm/revisor/engine/bridge/sim"
	"github.com/revisor-sm/revisor/tournament"
)

// TestBridgeTournamentPages: the public pages and the console of a
// bridge_chicago tournament (a table of four and a table of two, results
// in) answer in both languages.
func TestBridgeTournamentPages(t *testing.T) {
	t.Parallel()
	s, f, r := bridgeSite(t)
	tb := r.Tables[0]
	public := []string{"/t/" + f.ID + "/rounds/1/sheets", "/t/" + f.ID + "/rounds/1/sheets?table=2", "/t/" + f.ID,
		"/t/" + f.ID + "/standings", "/t/" + f.ID + "/seating", "/t/" + f.ID + "/seating?round=1",
		"/t/" + f.ID + "/players/" + tb.Players[0], "/t/" + f.ID + "/screen"}
	console := []string{"/t/" + f.ID + "/console", "/t/" + f.ID + "/console/players", "/t/" + f.ID + "/console/rounds/1/cards",
		"/t/" + f.ID + "/console/rounds/1/tables/1/games/1", "/t/" + f.ID + "/console/rounds/1/tables/2/games/1"}
	for _, lang := range []string{"en", "sv"} {
		b := s.browser(t)
		b.lang = lang
		for _, p := range public {
			checkPage(t, lang+" "+p, b.mustGet(p, http.StatusOK))
		}
		b.login(f.Token)
		for _, p := range console {
			checkPage(t, lang+" "+p, b.mustGet(p, http.StatusOK))
		}
	}
	sheet := s.browser(t).mustGet("/t/"+f.ID+"/rounds/1/sheets", http.StatusOK).Body
	for _, want := range []string{"Chicago bridge", "Draw bridge", "None", "Both", "E–W", "Vulnerable"} {
		if !strings.Contains(sheet, want) {
			t.Errorf("the bridge score sheets lack %q", want)
		}
	}
}

// TestBrowserBridgeSheets takes screenshots of a bridge round's score
// sheets at phone and desktop width in both languages, and checks that
// nothing scrolls sideways on the phone.
func TestBrowserBridgeSheets(t *testing.T) {
	t.Parallel()
	s, f, _ := bridgeSite(t)
	for _, w := range []int{360, 1280} {
		c := newChrome(t, w, 900)
		for _, lang := range []string{"en", "sv"} {
			c.do("open the sheets", chromedp.Navigate(s.URL+"/lang/"+lang+"?next=/t/"+f.ID+"/rounds/1/sheets"),
				chromedp.WaitVisible(chromedp.CSS("section.sheet.bridge")))
			if w == 360 {
				if got := c.eval(`String(document.documentElement.scrollWidth <= window.innerWidth)`); got != "true" {
					t.Errorf("%s at 360 px: the page scrolls sideways", lang)
				}
			}
			c.screenshot(fmt.Sprintf("bridge-sheets-%s-%d", lang, w))
		}
	}
}

// bridgeSite makes a bridge_chicago tournament of 7 players (a table of
// four, a table of two, a bye) with round 1 played.
func bridgeSite(t *testing.T) (*site, *fixture, *tournament.Round) {
	t.Helper()
	s := newSite(t)
	ctx := context.Background()
	rounds := 2
	c, err := s.svc.CreateTournament(ctx, admin, tournament.NewTournament{Name: "Bridgekväll", Format: tournament.FormatBridge, Rounds: &rounds})
	if err != nil {
		t.Fatal(err)
	}
	nps := make([]tournament.NewPlayer, 7)
	for i := range nps {
		nps[i] = tournament.NewPlayer{Name: playerName(i), Club: "BK Ess"}
	}
	if _, err := s.svc.AddPlayers(ctx, org, c.Tournament.ID, nps); err != nil {
		t.Fatal(err)
	}
	f := &fixture{ID: c.Tournament.ID, Token: c.OrganizerToken}
	seed := int64(4)
	r, err := s.plays.DrawRound(ctx, org, f.ID, &seed)
	if err != nil || len(r.Tables) != 2 || len(r.Tables[1].Players) != 2 {
		t.Fatalf("draw of 7: %+v, %v", r, err)
	}
	sim := bridgesim.New(2, bridgesim.Options{})
	for _, tb := range r.Tables {
		rec := sim.MatchAt(tb.Players, tb.FirstDealer)
		s.submit(t, f, 1, tb, 1, rec.AppendJSON(nil))
	}
	return s, f, r
}
