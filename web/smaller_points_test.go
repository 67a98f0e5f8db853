package web_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/tournament"
)

// TestFindMyTableIgnoresAccents: "bjorn" finds Björn Ångström on the
// seating page, and the live filter's names are folded the same way.
func TestFindMyTableIgnoresAccents(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, false)
	name := "Björn Ångström"
	if _, err := s.svc.UpdatePlayer(context.Background(), org, f.ID, "p3", tournament.PlayerUpdate{Name: &name}); err != nil {
		t.Fatal(err)
	}
	seed := int64(1)
	if _, err := s.plays.DrawRound(context.Background(), org, f.ID, &seed); err != nil {
		t.Fatal(err)
	}
	b := s.browser(t)
	deadline := time.Now().Add(5 * time.Second)
	for {
		r := b.mustGet("/t/"+f.ID+"/seating?q=BJORN+ang", http.StatusOK)
		if strings.Contains(r.Body, `class="match-name"><a href="/t/`+f.ID+`/players/p3">Björn Ångström</a>`) &&
			strings.Contains(r.Body, "bjorn angstrom") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("seating?q=BJORN ang does not mark Björn Ångström:\n%s", r.Body)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestResultPageNamesTheGamesDealer: the result page of game 2 names the
// first dealer of game 2 as such (not "game 1"), and a stored result
// names its submitter in words.
func TestResultPageNamesTheGamesDealer(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	s.playAll(t, f, f.Round, 1)
	b := s.browser(t)
	b.lang = "sv"
	b.login(f.Token)
	tb := f.Round.Tables[0]
	r := b.mustGet("/t/"+f.ID+"/console/rounds/1/tables/1/games/2", http.StatusOK)
	dealer := f.Players[0]
	for _, p := range f.Players {
		if p.ID == tb.FirstDealerOf(2) {
			dealer = p
		}
	}
	if want := `id="game-dealer">Ger först i parti 2: ` + dealer.Name; !strings.Contains(r.Body, want) {
		t.Errorf("result page of game 2 lacks %q", want)
	}
	if !strings.Contains(r.Body, "inskickat av arrangören") {
		t.Errorf("result page does not name the submitter in words")
	}
}

// TestTimesInTheTournamentsZone: a tournament played in Tokyo shows the
// time of a stored result in Tokyo's time, not UTC's or Stockholm's.
func TestTimesInTheTournamentsZone(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	ctx := context.Background()
	c, err := s.svc.CreateTournament(ctx, admin, tournament.NewTournament{Name: "Tokyo Open", Format: tournament.FormatSM, TimeZone: "Asia/Tokyo"})
	if err != nil {
		t.Fatal(err)
	}
	nps := make([]tournament.NewPlayer, 8)
	for i := range nps {
		nps[i] = tournament.NewPlayer{Name: playerName(i)}
	}
	ps, err := s.svc.AddPlayers(ctx, org, c.Tournament.ID, nps)
	if err != nil {
		t.Fatal(err)
	}
	seed := int64(1)
	r, err := s.plays.DrawRound(ctx, org, c.Tournament.ID, &seed)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{ID: c.Tournament.ID, Token: c.OrganizerToken, Players: ps, Round: r}
	s.playAll(t, f, r, 1)
	st, err := s.svc.Snapshot(ctx, f.ID)
	if err != nil || len(st.Results) == 0 {
		t.Fatalf("Snapshot: %v", err)
	}
	res := st.Results[0]
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	b := s.browser(t)
	b.login(f.Token)
	page := b.mustGet(fmt.Sprintf("/t/%s/console/rounds/%d/tables/%d/games/%d", f.ID, res.Key.Round, res.Key.Table, res.Key.Game), http.StatusOK)
	if want := res.CreatedAt.In(tokyo).Format("15:04"); !strings.Contains(page.Body, want) {
		t.Errorf("result page does not show the submission at %s Tokyo time", want)
	}
}
