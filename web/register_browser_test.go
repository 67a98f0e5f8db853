package web_test

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/registry"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// registerFixture plays a round of an eight-player club night and puts
// the night in a series, so that the register's pages have something to show.
func registerFixture(t *testing.T, s *site) (series *registry.Series, person string) {
	t.Helper()
	f := s.mustTournament(t, tournament.FormatSwiss, 8, true)
	rng := rand.New(rand.NewPCG(7, 7))
	for _, tb := range f.Round.Tables {
		for g := 1; g <= 3; g++ {
			s.submit(t, f, 1, tb, g, tournamenttest.SheetGame(rng, tb.Players, tb.FirstDealerOf(g)))
		}
	}
	sr, err := s.reg.CreateSeries(context.Background(), admin, registry.NewSeries{Name: "Säsong 2026/27",
		Rule: registry.SeriesRule{BestOf: 10, MinNights: 1}, Tournaments: []string{f.ID}})
	if err != nil {
		t.Fatal(err)
	}
	return sr, f.Players[0].PersonID
}

// TestRegisterPages: the rating list, a person's page and a series render in
// both languages with the strict CSP, and unknown ones are HTML 404s.
func TestRegisterPages(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	sr, person := registerFixture(t, s)
	for _, lang := range []string{"sv", "en"} {
		b := s.browser(t)
		b.lang = lang
		for path, want := range map[string]string{
			"/ratings":                     map[string]string{"sv": "Rating", "en": "Ratings"}[lang],
			"/people/" + person:            "Anna",
			"/series/" + sr.ID:             "Säsong 2026/27",
			"/series/" + sr.ID + "/screen": "Säsong 2026/27",
		} {
			resp := b.get(path)
			if resp.Status != http.StatusOK || !strings.Contains(resp.Body, want) {
				t.Errorf("%s GET %s = %d, want 200 with %q", lang, path, resp.Status, want)
			}
			if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
				t.Errorf("%s: CSP %q", path, csp)
			}
		}
		for _, path := range []string{"/people/P999999", "/people/x%00", "/series/nope", "/series/aaaaaaaaaaaaaaaa/screen"} {
			if resp := b.get(path); resp.Status != http.StatusNotFound {
				t.Errorf("GET %s = %d, want 404", path, resp.Status)
			}
		}
	}
	resp := s.browser(t).get("/series/" + sr.ID + "/standings.csv")
	if resp.Status != 200 || strings.Count(resp.Body, "\n") != 9 || !strings.HasPrefix(resp.Body, "rank,person,name,club,total,game_points,") {
		t.Errorf("series CSV = %d %q", resp.Status, resp.Body)
	}
}

// TestBrowserRegisterPages opens the register's pages in Chromium at phone
// and desktop width, in Swedish and English: nothing scrolls sideways, and a
// screenshot of each is written.
func TestBrowserRegisterPages(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	sr, person := registerFixture(t, s)
	pages := map[string]string{"ratings": "/ratings", "person": "/people/" + person, "series": "/series/" + sr.ID,
		"series-screen": "/series/" + sr.ID + "/screen"}
	shootPages(t, s, "register", pages, noSidewaysScroll(t))
}
