package web_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/internal/assemble"
	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/internal/servertest"
	"github.com/revisor-sm/revisor/internal/tablepage"
	"github.com/revisor-sm/revisor/server"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/postgres"
	"github.com/revisor-sm/revisor/tournament/referee"
	"github.com/revisor-sm/revisor/tournament/registry"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// adminToken is the admin token of the test servers.
const adminToken = "test-admin-token-0123456789"

var (
	admin = tournament.Actor{Role: tournament.RoleAdmin}
	org   = tournament.Actor{Role: tournament.RoleOrganizer}
)

// site is a real Revisor server (API and pages) on a fresh database, with
// live updates from PostgreSQL LISTEN/NOTIFY.
type site struct {
	URL   string
	svc   *tournament.Service
	plays *play.Service
	refs  *referee.Service
	reg   *registry.Service
	pool  *pgxpool.Pool
	// down, when set, makes the server drop every connection unanswered,
	// as a venue's network that is gone (live sites only).
	down *atomic.Bool
	// handler is the server itself, for benchmarks without the network.
	handler http.Handler
}

// newSite starts a server on a fresh database.
func newSite(t testing.TB) *site {
	t.Helper()
	return startSite(t, dbtest.New(t))
}

// startSite starts a server over pool with its own listener, as a second
// Revisor process behind the same address would.
func startSite(t testing.TB, pool *pgxpool.Pool) *site { return startSiteWith(t, pool, true) }

// startSiteWith starts a server over pool; without live events the pages
// neither update by themselves nor cache.
func startSiteWith(t testing.TB, pool *pgxpool.Pool, live bool) *site {
	t.Helper()
	return startSiteConfig(t, pool, live, api.Config{AdminTokenHash: api.HashToken(adminToken)})
}

// startSiteConfig is startSiteWith with the server's configuration.
func startSiteConfig(t testing.TB, pool *pgxpool.Pool, live bool, cfg api.Config) *site {
	t.Helper()
	if !live {
		deps := assemble.Services(pool, assemble.Options{})
		svc, plays := deps.Tournaments, deps.Play
		srv, err := server.New(cfg, servertest.Complete(deps))
		if err != nil {
			t.Fatalf("server.New: %v", err)
		}
		hs := httptest.NewServer(withAxe(srv))
		t.Cleanup(hs.Close)
		return &site{URL: hs.URL, svc: svc, plays: plays, pool: pool, handler: srv}
	}
	deps := assemble.Services(pool, assemble.Options{Keys: postgres.NewIdempotency(pool, time.Hour, time.Minute)})
	svc, plays, refs := deps.Tournaments, deps.Play, deps.Referees
	broker := tournament.NewBroker()
	dbtest.Listen(t, pool, broker.Publish)
	reg := deps.Register
	deps.Events = broker
	srv, err := server.New(cfg, servertest.Complete(deps))
	if err != nil {
		t.Fatalf("server.New: %v", err)
	}
	down, h := new(atomic.Bool), withAxe(srv)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if down.Load() {
			panic(http.ErrAbortHandler) // the connection drops: no answer at all
		}
		// The request's own round trips, for a RoundTrips that counts
		// only those (TestTableCorrectionRoundTrips).
		h.ServeHTTP(w, r.WithContext(dbtest.Mark(r.Context())))
	}))
	t.Cleanup(hs.Close)
	return &site{URL: hs.URL, svc: svc, plays: plays, refs: refs, reg: reg, pool: pool, down: down, handler: srv}
}

// fixture is a tournament with players and a drawn round.
type fixture struct {
	ID      string
	Token   string
	Players []tournament.Player
	Round   *tournament.Round
}

// mustTournament creates a tournament of n players named after names (or
// Player 1..n) and, when draw is set, draws round 1 with seed 1.
func (s *site) mustTournament(t testing.TB, format tournament.Format, n int, draw bool) *fixture {
	t.Helper()
	ctx := context.Background()
	nt := tournament.NewTournament{Name: "Klubbmästerskapet", Format: format}
	if format == tournament.FormatSwiss {
		r := 3
		nt.Rounds = &r
	}
	c, err := s.svc.CreateTournament(ctx, admin, nt)
	if err != nil {
		t.Fatalf("CreateTournament: %v", err)
	}
	nps := make([]tournament.NewPlayer, n)
	for i := range nps {
		nps[i] = tournament.NewPlayer{Name: playerName(i), Club: []string{"BK Ess", "Kortklubben", "Chicago Malmö"}[i%3]}
	}
	var ps []tournament.Player
	if n > 0 {
		if ps, err = s.svc.AddPlayers(ctx, org, c.Tournament.ID, nps); err != nil {
			t.Fatalf("AddPlayers: %v", err)
		}
	}
	f := &fixture{ID: c.Tournament.ID, Token: c.OrganizerToken, Players: ps}
	if draw {
		seed := int64(1)
		if f.Round, err = s.plays.DrawRound(ctx, org, f.ID, &seed); err != nil {
			t.Fatalf("DrawRound: %v", err)
		}
	}
	return f
}

var firstNames = []string{"Anna", "Bo", "Cecilia", "David", "Eva", "Fredrik", "Greta", "Hugo", "Ingrid", "Johan",
	"Karin", "Lars", "Maja", "Nils", "Olga", "Per", "Rut", "Sven", "Tove", "Ulf"}

func playerName(i int) string {
	name := firstNames[i%len(firstNames)]
	if i >= len(firstNames) {
		name += fmt.Sprintf(" %d", i/len(firstNames)+1)
	}
	return name + " Andersson"
}

// playAll submits a legal result for every game of round n.
func (s *site) playAll(t testing.TB, f *fixture, r *tournament.Round, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	tt, err := s.svc.Tournament(context.Background(), f.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range r.Tables {
		for g := 1; g <= tt.Settings.GamesPerRound; g++ {
			s.submit(t, f, r.Number, tb, g, tournamenttest.SheetGame(rng, tb.Players, tb.FirstDealerOf(g)))
		}
	}
}

func (s *site) submit(t testing.TB, f *fixture, n int, tb tournament.Table, g int, rec []byte) {
	t.Helper()
	k := tournament.GameKey{TournamentID: f.ID, Round: n, Table: tb.Number, Game: g}
	if _, err := s.plays.SubmitGame(context.Background(), org, k, rec); err != nil {
		t.Fatalf("SubmitGame(%+v): %v", k, err)
	}
}

// browser is an HTTP client with cookies, as a browser without JavaScript.
type browser struct {
	t    testing.TB
	base string
	c    *http.Client
	lang string
}

func (s *site) browser(t testing.TB) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, base: s.URL, lang: "en",
		c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// response is a page as the browser got it.
type response struct {
	Status int
	Header http.Header
	Body   string
}

func (b *browser) do(method, path string, form url.Values) response {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, b.base+path, body)
	if err != nil {
		b.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("Accept-Language", b.lang)
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		b.t.Fatal(err)
	}
	return response{Status: resp.StatusCode, Header: resp.Header, Body: string(data)}
}

func (b *browser) get(path string) response { return b.do(http.MethodGet, path, nil) }

// mustGet gets a page and fails unless it answers want.
func (b *browser) mustGet(path string, want int) response {
	b.t.Helper()
	r := b.get(path)
	if r.Status != want {
		b.t.Fatalf("GET %s = %d, want %d\n%s", path, r.Status, want, r.Body)
	}
	return r
}

// getUntil gets path until its answer has status want and a body for
// which ok holds, 10 s at most, and returns the last answer. A write
// that is not the page's own (a table's result, here the service's)
// reaches the pages' cache by its event, a few milliseconds later on an
// idle machine and more on a loaded one: a page read at once may show the
// tournament as it was.
func (b *browser) getUntil(path string, want int, ok func(body string) bool) response {
	b.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		r := b.get(path)
		if (r.Status == want && ok(r.Body)) || time.Now().After(deadline) {
			return r
		}
		time.Sleep(20 * time.Millisecond)
	}
}

var csrfInput = regexp.MustCompile(`name="_csrf" value="([^"]+)"`)

// post submits a form of the page at from, with its CSRF token.
func (b *browser) post(from, action string, form url.Values) response {
	b.t.Helper()
	page := b.mustGet(from, http.StatusOK)
	m := csrfInput.FindStringSubmatch(page.Body)
	if m == nil {
		b.t.Fatalf("GET %s: no CSRF field in the page", from)
	}
	if form == nil {
		form = url.Values{}
	}
	form.Set("_csrf", m[1])
	return b.do(http.MethodPost, action, form)
}

// login logs the browser in with token.
func (b *browser) login(token string) response {
	b.t.Helper()
	r := b.post("/login", "/login", url.Values{"token": {token}})
	if r.Status != http.StatusSeeOther {
		b.t.Fatalf("POST /login = %d, want 303\n%s", r.Status, r.Body)
	}
	return r
}

// sheetLines reads the deals of a score-sheet game record: each deal's
// points by player and source.
func sheetLines(t testing.TB, rec []byte) []map[string]map[string]int {
	t.Helper()
	out, err := tablepage.Sheets(rec)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sheetField is the score-sheet form's column and value of v points from
// src.
func sheetField(src string, v int) (field, val string) { return tablepage.Field(src, v) }

// tableAt starts a site with an SM tournament of n players drawn, and a
// browser logged in at its table 1 with the table's code.
func tableAt(t *testing.T, n int) (*site, *fixture, tournament.Table, *browser) {
	t.Helper()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, n, true)
	b := s.browser(t)
	b.tableLogin(f, tableCode(t, s, f, 1))
	return s, f, f.Round.Tables[0], b
}

// timedGameSite starts a site with a Swiss tournament of four drawn and
// its one table's game stored: a timed game in which the first player
// scored 5 for the last trick and the other three none.
func timedGameSite(t *testing.T) (*site, *fixture, tournament.Table) {
	t.Helper()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSwiss, 4, true)
	tb := f.Round.Tables[0]
	p := tb.Players
	s.submit(t, f, 1, tb, 1, tournamenttest.TimedGame(p, tb.FirstDealerOf(1), map[string]map[string]int{p[0]: {"last_trick": 5}}))
	return s, f, tb
}
