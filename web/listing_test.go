package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/web"
)

// listed is a tournament of listingFixture.
type listed struct {
	ID, Name, Code string
}

// listingFixture makes, oldest first: a private tournament, a finished
// public one, an upcoming one with a date and venue, and a running one.
func listingFixture(t *testing.T, s *site) map[string]listed {
	t.Helper()
	ctx := context.Background()
	out := map[string]listed{}
	add := func(key, name string, l tournament.Listing, players int, finish bool) {
		one := 1
		c, err := s.svc.CreateTournament(ctx, admin, tournament.NewTournament{Name: name, Format: tournament.FormatSwiss, Rounds: &one, Listing: l})
		if err != nil {
			t.Fatalf("CreateTournament %s: %v", name, err)
		}
		id := c.Tournament.ID
		out[key] = listed{ID: id, Name: name, Code: c.Tournament.ShortCode}
		if players == 0 {
			return
		}
		nps := make([]tournament.NewPlayer, players)
		for i := range nps {
			nps[i] = tournament.NewPlayer{Name: playerName(i)}
		}
		ps, err := s.svc.AddPlayers(ctx, org, id, nps)
		if err != nil {
			t.Fatal(err)
		}
		seed := int64(1)
		r, err := s.plays.DrawRound(ctx, org, id, &seed)
		if err != nil {
			t.Fatal(err)
		}
		if finish {
			s.playAll(t, &fixture{ID: id, Players: ps}, r, 3)
			if _, err := s.plays.CloseRound(ctx, org, id, 1); err != nil {
				t.Fatalf("CloseRound: %v", err)
			}
		}
	}
	add("private", "Hemliga cupen", tournament.Listing{}, 0, false)
	add("finished", "Vårturneringen", tournament.Listing{Public: true}, 4, true)
	add("upcoming", "Julcupen", tournament.Listing{Public: true, Venue: "Folkets hus, Lund", Date: time.Date(2026, 12, 19, 0, 0, 0, 0, time.UTC)}, 0, false)
	add("running", "Klubbkvällen", tournament.Listing{Public: true}, 4, false)
	return out
}

// listedNames returns the names of the list's tournaments in page order.
func listedNames(body string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`class="list-name">([^<]+)<`).FindAllStringSubmatch(body, -1) {
		out = append(out, m[1])
	}
	return out
}

func TestHomeListsPublicTournaments(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	b := s.browser(t)
	b.lang = "sv"
	empty := b.mustGet("/", http.StatusOK)
	if !strings.Contains(empty.Body, "Inga offentliga turneringar ännu") {
		t.Errorf("home of an empty server: no empty state\n%s", empty.Body)
	}
	ts := listingFixture(t, s)
	for _, lang := range allLanguages {
		b.lang = lang
		r := b.mustGet("/", http.StatusOK)
		checkPage(t, lang+" home with tournaments", r)
		if got, want := strings.Join(listedNames(r.Body), ", "), "Klubbkvällen, Julcupen, Vårturneringen"; got != want {
			t.Errorf("%s: home lists %s, want %s (in progress, upcoming, finished; no private one)", lang, got, want)
		}
	}
	b.lang = "sv"
	r := b.mustGet("/", http.StatusOK)
	for _, want := range []string{"Pågår", "Kommande", "Avslutade", "19 december 2026", "Folkets hus, Lund",
		`href="/s/` + ts["upcoming"].Code + `"`, `href="/t/` + ts["running"].ID + `"`} {
		if !strings.Contains(r.Body, want) {
			t.Errorf("home lacks %q", want)
		}
	}
	if strings.Contains(r.Body, ts["private"].Name) || strings.Contains(r.Body, "/poster") {
		t.Error("home shows the private tournament or the admin's poster links")
	}
	// Bad input: a page that is no number is refused; one past the end says so.
	for _, q := range []string{"abc", "0", "-1", "99999999"} {
		r := b.get("/?page=" + url.QueryEscape(q))
		if r.Status != http.StatusBadRequest || !strings.Contains(r.Body, "Sidnumret ska vara ett heltal") {
			t.Errorf("GET /?page=%s = %d, want 400 with the message in Swedish", q, r.Status)
		}
	}
	past := b.mustGet("/?page=2", http.StatusOK)
	if !strings.Contains(past.Body, "Listan har inte så många sidor") || !strings.Contains(past.Body, `href="/">Till första sidan`) {
		t.Errorf("page past the end: no way back\n%s", past.Body)
	}
}

func TestHomeListIsPaged(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	for i := range tournament.TournamentListPage + 1 {
		if _, err := s.svc.CreateTournament(context.Background(), admin, tournament.NewTournament{Name: fmt.Sprintf("Cup %02d", i),
			Format: tournament.FormatSM, Listing: tournament.Listing{Public: true}}); err != nil {
			t.Fatal(err)
		}
	}
	b := s.browser(t)
	first := b.mustGet("/", http.StatusOK)
	names := listedNames(first.Body)
	if len(names) != tournament.TournamentListPage || names[0] != "Cup 20" {
		t.Errorf("page 1 lists %d, first %v; want %d, newest first", len(names), names[:1], tournament.TournamentListPage)
	}
	if !strings.Contains(first.Body, `href="/?page=2" rel="next"`) || strings.Contains(first.Body, `rel="prev"`) {
		t.Error("page 1: want a next link and no previous one")
	}
	second := b.mustGet("/?page=2", http.StatusOK)
	if got := listedNames(second.Body); len(got) != 1 || got[0] != "Cup 00" {
		t.Errorf("page 2 lists %v, want [Cup 00]", got)
	}
	if !strings.Contains(second.Body, `href="/?page=1" rel="prev"`) || strings.Contains(second.Body, `rel="next"`) {
		t.Error("page 2: want a previous link and no next one")
	}
}

func TestAdminListsPrivateTournamentsMarked(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	ts := listingFixture(t, s)
	// Wrong role: the public and an organizer are sent to the login.
	for who, token := range map[string]string{"public": "", "organizer": s.mustTournament(t, tournament.FormatSM, 0, false).Token} {
		b := s.browser(t)
		if token != "" {
			b.login(token)
		}
		if r := b.get("/admin"); r.Status != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
			t.Errorf("%s: GET /admin = %d to %q, want 303 to the login", who, r.Status, r.Header.Get("Location"))
		}
	}
	b := s.browser(t)
	b.lang = "sv"
	b.login(adminToken)
	r := b.mustGet("/admin", http.StatusOK)
	checkPage(t, "admin with the list", r)
	names := listedNames(r.Body)
	if !strings.Contains(strings.Join(names, ","), "Hemliga cupen") {
		t.Errorf("admin lists %v, want the private one too", names)
	}
	private := regexp.MustCompile(`>Hemliga cupen</a> <span class="badge">privat</span>`)
	if !private.MatchString(r.Body) {
		t.Errorf("admin: the private tournament is not marked private")
	}
	for _, k := range []string{"running", "upcoming", "finished"} {
		if strings.Contains(r.Body, ">"+ts[k].Name+`</a> <span class="badge">`) {
			t.Errorf("admin: the public %s is marked private", ts[k].Name)
		}
	}
	if !strings.Contains(r.Body, `href="/t/`+ts["private"].ID+`/poster"`) {
		t.Error("admin: no poster link of each tournament")
	}
	if r := b.get("/admin?page=x"); r.Status != http.StatusBadRequest {
		t.Errorf("GET /admin?page=x = %d, want 400", r.Status)
	}
}

func TestAdminCreatesWithListing(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	b := s.browser(t)
	b.lang = "sv"
	id, _ := createByForm(t, b, url.Values{"name": {"Julcupen"}, "format": {"sm"}, "games": {"3"}, "advance": {"2"},
		"venue": {"Folkets hus"}, "date": {"2026-12-19"}, "public": {"on"}})
	got, err := s.svc.Tournament(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Public || got.Venue != "Folkets hus" || got.Date.Format(time.DateOnly) != "2026-12-19" || got.ShortCode == "" {
		t.Errorf("created by the form: %+v, want public, the venue, the date and a short code", got.Listing)
	}
	id2, _ := createByForm(t, b, url.Values{"name": {"Stängda cupen"}, "format": {"sm"}, "games": {"3"}, "advance": {"2"}})
	if got, _ := s.svc.Tournament(context.Background(), id2); got.Public {
		t.Error("the box unticked: the tournament is public")
	}
	// Bad input, marked at its field.
	for field, v := range map[string]string{"date": "2026-13-40", "venue": strings.Repeat("x", 201)} {
		r := b.post("/admin", "/admin/tournaments", url.Values{"name": {"X"}, "format": {"sm"}, field: {v}})
		if r.Status != http.StatusBadRequest || !regexp.MustCompile(`id="`+field+`"[^>]*aria-invalid="true"`).MatchString(r.Body) {
			t.Errorf("POST with a bad %s = %d, want 400 with the field marked", field, r.Status)
		}
	}
	if r := b.mustGet("/admin", http.StatusOK); !strings.Contains(r.Body, `id="public" name="public" value="on" checked`) {
		t.Error("the admin form: the public box is not ticked by default")
	}
}

func TestShortLinkRedirects(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	ts := listingFixture(t, s)
	b := s.browser(t)
	b.lang = "sv"
	code := ts["private"].Code // a private tournament's link works: it is only not listed
	for _, path := range []string{"/s/" + code, "/s/" + strings.ToLower(code), "/s/" + code[:3] + "-" + code[3:]} {
		for _, method := range []string{http.MethodGet, http.MethodHead} {
			r := b.do(method, path, nil)
			if r.Status != http.StatusFound || r.Header.Get("Location") != "/t/"+ts["private"].ID {
				t.Errorf("%s %s = %d to %q, want 302 to /t/%s", method, path, r.Status, r.Header.Get("Location"), ts["private"].ID)
			}
		}
	}
	unused := "BCDFGH"
	if unused == code {
		unused = "HGFDCB"
	}
	for _, path := range []string{"/s/" + unused, "/s/0OIL12", "/s/" + code + "B", "/s/%C3%96", "/s/"} {
		r := b.get(path)
		if r.Status != http.StatusNotFound || !strings.Contains(r.Header.Get("Content-Type"), "text/html") {
			t.Errorf("GET %s = %d (%s), want an HTML 404", path, r.Status, r.Header.Get("Content-Type"))
		}
		if path != "/s/" && !strings.Contains(r.Body, "Ingen turnering har den korta länken") {
			t.Errorf("GET %s: the 404 does not say so in Swedish", path)
		}
	}
	tp := b.mustGet("/t/"+ts["upcoming"].ID, http.StatusOK)
	if !strings.Contains(tp.Body, `href="/s/`+ts["upcoming"].Code+`"`) || !strings.Contains(tp.Body, "Folkets hus, Lund") {
		t.Error("the tournament page shows neither its short link nor its venue")
	}
}

func TestPosterShowsShortLinkAndQR(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	ts := listingFixture(t, s)
	b := s.browser(t)
	b.lang = "sv"
	up := ts["upcoming"]
	r := b.mustGet("/t/"+up.ID+"/poster", http.StatusOK)
	checkPage(t, "poster", r)
	host := strings.TrimPrefix(s.URL, "http://")
	for _, want := range []string{"<h1>Julcupen</h1>", "19 december 2026", "Folkets hus, Lund",
		`id="poster-link">` + host + `<wbr><span class="poster-code">/s/` + up.Code + "<"} {
		if !strings.Contains(r.Body, want) {
			t.Errorf("poster lacks %q", want)
		}
	}
	qr, err := web.QRSVG(s.URL+"/s/"+up.Code, "QR-kod till Julcupen")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Body, string(qr)) {
		t.Error("poster: the QR code is not the code of its short link")
	}
	if r := b.get("/t/nosuchtournament/poster"); r.Status != http.StatusNotFound {
		t.Errorf("poster of an unknown tournament = %d, want 404", r.Status)
	}
}
