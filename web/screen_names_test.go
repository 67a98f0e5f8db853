package web_test

import (
	"context"
	"html"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
)

// namesFixture is a tournament with names that sort differently in
// Swedish and in English (å, ä and ö after z; case ignored), drawn.
func namesFixture(t *testing.T, s *site, lang string) (string, map[string]int) {
	t.Helper()
	ctx := context.Background()
	c, err := s.svc.CreateTournament(ctx, admin, tournament.NewTournament{Name: "Alfabetet", Format: tournament.FormatSM, Language: lang})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"Östen Ek", "Åsa Berg", "Ärla Nord", "anna Lind", "Zorro Ulf", "Björn Borg", "bertil Ahl", "Adam Öst"}
	var nps []tournament.NewPlayer
	for _, n := range names {
		nps = append(nps, tournament.NewPlayer{Name: n})
	}
	ps, err := s.svc.AddPlayers(ctx, org, c.Tournament.ID, nps)
	if err != nil {
		t.Fatal(err)
	}
	seed := int64(5)
	r, err := s.plays.DrawRound(ctx, org, c.Tournament.ID, &seed)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]string{}
	for _, p := range ps {
		byID[p.ID] = p.Name
	}
	table := map[string]int{}
	for _, tb := range r.Tables {
		for _, pid := range tb.Players {
			table[byID[pid]] = tb.Number
		}
	}
	return c.Tournament.ID, table
}

var nameLine = regexp.MustCompile(`<li><span class="name">([^<]+)</span> <span class="at-table"><span class="visually-hidden">[^<]+</span>(\d+)</span></li>`)

// TestScreenNamesAToÖ (issue 14, item 8): the big screen lists every name
// of the current round with its table, sorted the Swedish way.
func TestScreenNamesAToÖ(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	for _, c := range []struct{ lang, want string }{
		{"sv", "Adam Öst, anna Lind, bertil Ahl, Björn Borg, Zorro Ulf, Åsa Berg, Ärla Nord, Östen Ek"},
		// Danish and Norwegian: æ ø å, and ä ö with them.
		{"da", "Adam Öst, anna Lind, bertil Ahl, Björn Borg, Zorro Ulf, Ärla Nord, Östen Ek, Åsa Berg"},
	} {
		tid, table := namesFixture(t, s, c.lang)
		b := s.browser(t)
		b.lang = "en" // the reader's language does not change the order
		r := b.mustGet("/t/"+tid+"/screen?view=names", http.StatusOK)
		checkPage(t, "screen names", r)
		var got []string
		for _, m := range nameLine.FindAllStringSubmatch(r.Body, -1) {
			name := html.UnescapeString(m[1])
			got = append(got, name)
			if n, _ := strconv.Atoi(m[2]); n != table[name] {
				t.Errorf("%s: %s at table %d, want %d", c.lang, name, n, table[name])
			}
		}
		if strings.Join(got, ", ") != c.want {
			t.Errorf("%s tournament: names %v, want %s", c.lang, got, c.want)
		}
		if !strings.Contains(r.Body, "Find your table, round 1") {
			t.Errorf("%s: the names' heading is missing", c.lang)
		}
	}
	// No round drawn: no names view; the screen shows the standings.
	empty := s.mustTournament(t, tournament.FormatSM, 4, false)
	if r := s.browser(t).mustGet("/t/"+empty.ID+"/screen?view=names", http.StatusOK); strings.Contains(r.Body, "at-table") || !strings.Contains(r.Body, "view=standings") {
		t.Error("names view without a drawn round: want the standings")
	}
}
