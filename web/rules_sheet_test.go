package web_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
)

// TestTablePageNamesItsRules: the table page says the tournament's rules
// in one line with a link to the rules sheet, which answers.
func TestTablePageNamesItsRules(t *testing.T) {
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	b := s.browser(t)
	b.lang = "sv"
	b.tableLogin(f, tableCode(t, s, f, 1))
	r := b.mustGet("/t/"+f.ID+"/table", http.StatusOK)
	want := `<p class="rules-line" id="rules-line">Regler: Chicago-SM (SM-reglerna) · <a href="/t/` + f.ID + `/rules">Reglerna</a></p>`
	if !strings.Contains(r.Body, want) {
		t.Errorf("the table page lacks %s", want)
	}
	sheet := b.mustGet("/t/"+f.ID+"/rules", http.StatusOK)
	if !strings.Contains(sheet.Body, "Den som har 46 poäng eller mer byter inga fler kort.") {
		t.Errorf("the rules sheet lacks the exchange stop:\n%s", sheet.Body)
	}
	b.mustGet("/t/nosuchtournament/rules", http.StatusNotFound)
}

// TestFinishedTournamentCountsPlayers: a finished tournament's page says
// how many played ("13"), not "13 (4 in play)"; a running one says both.
func TestFinishedTournamentCountsPlayers(t *testing.T) {
	s := newSite(t)
	ctx := context.Background()
	one := 1
	c, err := s.svc.CreateTournament(ctx, admin, tournament.NewTournament{Name: "Kväll", Format: tournament.FormatSwiss, Rounds: &one})
	if err != nil {
		t.Fatal(err)
	}
	id := c.Tournament.ID
	ps, err := s.svc.AddPlayers(ctx, org, id, []tournament.NewPlayer{{Name: "Anna"}, {Name: "Bo"}, {Name: "Cecilia"}, {Name: "David"}})
	if err != nil {
		t.Fatal(err)
	}
	seed := int64(1)
	r, err := s.plays.DrawRound(ctx, org, id, &seed)
	if err != nil {
		t.Fatal(err)
	}
	b := s.browser(t)
	b.lang = "sv"
	if got := b.mustGet("/t/"+id, http.StatusOK); !strings.Contains(got.Body, `<dd id="players-count">4 (4 spelar vidare)</dd>`) {
		t.Errorf("a running tournament's count:\n%s", got.Body)
	}
	s.playAll(t, &fixture{ID: id, Players: ps}, r, 3)
	if _, err := s.plays.CloseRound(ctx, org, id, 1); err != nil {
		t.Fatal(err)
	}
	// The close is the service's: the page shows it once its event
	// reaches the pages' cache (getUntil).
	finished := func(body string) bool { return strings.Contains(body, `<dd id="players-count">4</dd>`) }
	if got := b.getUntil("/t/"+id, http.StatusOK, finished); !finished(got.Body) {
		t.Errorf("a finished tournament's count:\n%s", got.Body)
	}
}
