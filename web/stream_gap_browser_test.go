package web_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"

	"github.com/revisor-sm/revisor/internal/servertest"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// holdStreams holds the event streams that ctx's tab opens before they
// reach the server (as a slow network would, for as long as the test
// likes) until release.
func holdStreams(t *testing.T, ctx context.Context) (release func()) {
	t.Helper()
	var (
		mu       sync.Mutex
		held     []fetch.RequestID
		released bool
	)
	send := func(id fetch.RequestID) {
		if _, err := chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id}); err != nil && ctx.Err() == nil {
			t.Errorf("let a stream go: %v", err)
		}
	}
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			mu.Lock()
			defer mu.Unlock()
			if released {
				go send(e.RequestID)
				return
			}
			held = append(held, e.RequestID)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/events*"}}}); err != nil {
		t.Fatal(err)
	}
	return func() {
		mu.Lock()
		released = true
		ids := held
		mu.Unlock()
		if len(ids) == 0 {
			t.Fatal("no event stream was held")
		}
		for _, id := range ids {
			send(id)
		}
	}
}

// TestBrowserPagesHearWhatTheirStreamMissed: a change made while a page's
// event stream is not open (between the page's render and its stream's
// opening, or while the network is down) reaches the page when the stream
// opens, by its first event (hello): the big screen's clock shows a
// pause, the standings a result, a table phone's clock the pause. Before
// the hello, such a page heard nothing of it: its clock counted on until
// its next read (30 s; never on the table page), its standings stayed as
// they were until the next change.
func TestBrowserPagesHearWhatTheirStreamMissed(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	ctx := context.Background()
	if _, err := s.plays.SetRoundClock(ctx, org, f.ID, 1, play.ClockAction{Action: tournament.ClockStart, Minutes: 75}); err != nil {
		t.Fatal(err)
	}
	screen, standings := newChrome(t, 1280, 900), newChrome(t, 1280, 900)
	phone := newTabs(t, 1, 360, 800)[0]
	openTable(t, s, f, 1, phone)
	if err := phone.until("the round clock shown", `document.getElementById("clock").dataset.state === "running"`, 20*time.Second); err != nil {
		t.Fatal(err)
	}
	// The screen and the standings are opened with their streams held
	// (the gap between a page's render and its stream's opening, made
	// long); the phone goes offline. Chromium's offline switch leaves the
	// phone's open stream open: it hears the pause, and the read of the
	// clock that asks for fails.
	var release []func()
	for _, c := range []*chrome{screen, standings} {
		release = append(release, holdStreams(t, c.ctx))
	}
	screen.do("open the screen", chromedp.Navigate(s.URL+"/t/"+f.ID+"/screen?view=names"))
	waitJS(t, screen, "the clock shown", `/^\d+:\d\d$/.test(document.querySelector(".clock .clock-time").textContent)`, 10*time.Second)
	standings.do("open the standings", chromedp.Navigate(s.URL+"/t/"+f.ID+"/standings"), chromedp.WaitVisible(chromedp.CSS("#standings")))
	for _, c := range []*chrome{screen, standings} {
		if got := c.eval(`String(document.body.dataset.live)`); got == "on" {
			t.Fatalf("a page's stream opened although held (data-live %q)", got)
		}
		c.do("mark the page", chromedp.Evaluate[chromedp.Void](`window.notReloaded = true`))
	}
	if err := phone.setOffline(true); err != nil {
		t.Fatal(err)
	}
	if err := phone.do("mark the page", chromedp.Evaluate[chromedp.Void](`window.notReloaded = true`)); err != nil {
		t.Fatal(err)
	}

	// Meanwhile the organizer pauses the clock and a table's result comes;
	// a stream of the test's own hears both, so the server counted them
	// before the pages' streams go on (which then hear them only by
	// their hello).
	lines := servertest.Stream(t, s.URL+"/t/"+f.ID+"/events")
	if _, err := s.plays.SetRoundClock(ctx, org, f.ID, 1, play.ClockAction{Action: tournament.ClockPause}); err != nil {
		t.Fatal(err)
	}
	tb := f.Round.Tables[1]
	s.submit(t, f, 1, tb, 1, tournamenttest.SheetGame(rand.New(rand.NewPCG(5, 5)), tb.Players, tb.FirstDealerOf(1)))
	servertest.WaitLine(t, lines, `data: {"kind":"round_clocks"`, 10*time.Second)
	servertest.WaitLine(t, lines, `data: {"kind":"game_results"`, 10*time.Second)
	cell := fmt.Sprintf(`document.querySelector('tr[data-player="%s"] td.rpp').textContent.trim()`, tb.Players[0])
	if got := standings.eval(cell); got != "0" {
		t.Fatalf("the standings showed the result with their stream held (%q): the test shows nothing", got)
	}

	for _, r := range release {
		r()
	}
	if err := phone.setOffline(false); err != nil {
		t.Fatal(err)
	}
	// The held streams go on to the server; the phone, back online, opens
	// its stream again. Each one's hello brings its page up to date, well
	// before the public clock's own read (30 s).
	waitJS(t, screen, "the pause on the screen", `window.notReloaded === true && document.querySelector(".clock").className.includes("clock-paused")`, 15*time.Second)
	waitJS(t, standings, "the result in the standings", `window.notReloaded === true && `+cell+` !== "0"`, 15*time.Second)
	if err := phone.until("the pause on the phone", `window.notReloaded === true && document.getElementById("clock").dataset.state === "paused"`, 15*time.Second); err != nil {
		t.Fatal(err)
	}
	screen.screenshot("stream-gap-screen")
	standings.screenshot("stream-gap-standings")
	phone.screenshot(t, "stream-gap-phone")
}
