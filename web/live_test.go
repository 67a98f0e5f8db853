package web_test

import (
	"encoding/json"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/internal/servertest"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/referee"
	"github.com/revisor-sm/revisor/tournament/registry"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
	"github.com/revisor-sm/revisor/tournament/transfer"
	"github.com/revisor-sm/revisor/web"
)

// TestEventsAcrossServers runs two Revisor servers on one database: a
// result submitted to one reaches a page listening on the other within
// two seconds, through PostgreSQL LISTEN/NOTIFY.
func TestEventsAcrossServers(t *testing.T) {
	pool := dbtest.New(t)
	a, b := startSite(t, pool), startSite(t, pool)
	f := a.mustTournament(t, tournament.FormatSM, 8, true) // two tables: waitSetupHeard's result goes to the second
	other := a.mustTournament(t, tournament.FormatSM, 4, true)
	lines := servertest.Stream(t, a.URL+"/t/"+f.ID+"/events")
	// The notifications of f's own setup (its players, its draw) may reach
	// server A after its stream opened (a clean-clone run under -race saw an
	// "event: change" in the quiet window below): a result's event, heard
	// after them in commit order, says they have passed.
	waitSetupHeard(t, a, f, lines)

	tb := f.Round.Tables[0]
	rec := tournamenttest.SheetGame(rand.New(rand.NewPCG(1, 1)), tb.Players, tb.FirstDealerOf(1))
	// The other tournament's result must not reach this stream.
	otb := other.Round.Tables[0]
	b.submit(t, other, 1, otb, 1, tournamenttest.SheetGame(rand.New(rand.NewPCG(2, 2)), otb.Players, otb.FirstDealerOf(1)))
	quiet := time.After(500 * time.Millisecond)
	for waiting := true; waiting; {
		select {
		case l := <-lines:
			if strings.HasPrefix(l, "event:") {
				t.Fatalf("another tournament's result reached this stream: %q %s", l, servertest.WaitLine(t, lines, "data: ", time.Second))
			}
		case <-quiet:
			waiting = false
		}
	}
	start := time.Now()
	b.submit(t, f, 1, tb, 1, rec)
	servertest.WaitLine(t, lines, "event: change", 2*time.Second)
	data := servertest.WaitLine(t, lines, "data: ", time.Second)
	var ev struct {
		Kind         string
		Round, Table int
		V            int64
	}
	if err := json.Unmarshal([]byte(strings.TrimPrefix(data, "data: ")), &ev); err != nil || ev.Kind != "game_results" ||
		ev.Round != 1 || ev.Table != 1 || ev.V < start.UnixMicro() {
		t.Errorf("event data = %s, want game_results of round 1, table 1, v ≥ %d (%v)", data, start.UnixMicro(), err)
	}
	t.Logf("result on server B reached server A's stream in %v", time.Since(start))
}

// TestEventsUnknownTournament answers 404 for a tournament that does not
// exist, as an HTML page.
func TestEventsUnknownTournament(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	r := s.browser(t).get("/t/nope/events")
	if r.Status != http.StatusNotFound || !strings.Contains(r.Header.Get("Content-Type"), "text/html") {
		t.Errorf("GET /t/nope/events = %d %q, want 404 text/html", r.Status, r.Header.Get("Content-Type"))
	}
}

// TestEventStreamOutlivesWriteTimeout serves the pages from an http.Server
// with a short write timeout, as `revisor serve` does, and checks that an
// idle stream keeps beating past it.
func TestEventStreamOutlivesWriteTimeout(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 4, false)
	h, err := web.New(web.Config{Heartbeat: 100 * time.Millisecond},
		web.Deps{Snapshots: s.svc, Tournaments: s.svc, Players: s.svc, Rounds: s.plays, Room: s.plays, Events: tournament.NewBroker(),
			Referees: referee.New(s.svc, s.plays, nil), Table: app.NewTable(s.plays, referee.New(s.svc, s.plays, nil)),
			Once: app.NewOnce(nil, nil), Register: registry.New(nil, nil, nil), Transfer: transfer.New(s.svc, nil)})
	if err != nil {
		t.Fatal(err)
	}
	e := echo.New()
	h.Register(e)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: e, WriteTimeout: 300 * time.Millisecond}
	go func() { _ = hs.Serve(ln) }()
	t.Cleanup(func() { _ = hs.Close() })
	lines := servertest.Stream(t, "http://"+ln.Addr().String()+"/t/"+f.ID+"/events")
	deadline := time.Now().Add(time.Second)
	pings := 0
	for time.Now().Before(deadline) {
		servertest.WaitLine(t, lines, "event: ping", time.Second)
		pings++
	}
	if pings < 5 {
		t.Errorf("%d heartbeats in a second past a 300ms write timeout, want at least 5", pings)
	}
}

// TestStreamHelloNamesTheLatestChange: a stream's first event, its hello,
// names the versions of the tournament's latest change of state and of
// its clock that a page's stream heard before it (a page rendered before
// them, whose stream opened after them, reads itself again), the same on
// a public page's stream and on a table page's, with the heartbeat.
func TestStreamHelloNamesTheLatestChange(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	lines := servertest.Stream(t, s.URL+"/t/"+f.ID+"/events?for=pages")
	// The result of waitSetupHeard is the latest change of state.
	var result struct{ V int64 }
	if data := waitSetupHeard(t, s, f, lines); json.Unmarshal([]byte(data), &result) != nil || result.V == 0 {
		t.Fatalf("the result's event: %q, want its version", data)
	}
	if _, err := s.plays.SetRoundClock(t.Context(), org, f.ID, 1, play.ClockAction{Action: tournament.ClockStart, Minutes: 30}); err != nil {
		t.Fatal(err)
	}
	servertest.WaitLine(t, lines, "event: clock", 5*time.Second)
	var clock struct{ V int64 }
	if data := servertest.WaitLine(t, lines, "data: ", time.Second); json.Unmarshal([]byte(strings.TrimPrefix(data, "data: ")), &clock) != nil || clock.V == 0 {
		t.Fatalf("the clock's event: %q, want its version", data)
	}
	for _, path := range []string{"/events?for=pages", "/events"} {
		_, data := servertest.StreamHello(t, s.URL+"/t/"+f.ID+path)
		var hello struct{ V, C, H int64 }
		if err := json.Unmarshal([]byte(data), &hello); err != nil {
			t.Fatalf("%s: hello %q: %v", path, data, err)
		}
		if hello.V != result.V || hello.C != clock.V || hello.H != 25000 {
			t.Errorf("%s: hello %s, want v %d (the result's), c %d (the clock's), h 25000", path, data, result.V, clock.V)
		}
		if hello.V <= 0 || hello.C <= hello.V {
			t.Errorf("%s: hello %s: the clock started after the result", path, data)
		}
	}
}
