package site

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/tournament"
)

// TestPagesStreamNeverStarves: a public page's stream sends a change at
// most every pagesCoalesce, and a steady flow of changes (one every
// 100 ms) still sends one every pagesCoalesce, with the latest version —
// a trailing-only debounce would send nothing while the flow lasts.
func TestPagesStreamNeverStarves(t *testing.T) {
	var p pagesStream
	t0 := time.Date(2026, 12, 2, 15, 0, 0, 0, time.UTC)
	sent, msgs := steadyFlow(&p, t0, 50, 100*time.Millisecond)
	for i, now := range sent {
		if !strings.Contains(msgs[i], `"v":`+strconv.FormatInt(now.UnixMicro(), 10)) {
			t.Errorf("message at %v = %q, want the latest version", now.Sub(t0), msgs[i])
		}
	}
	if len(sent) < 9 {
		t.Fatalf("5 s of changes every 100 ms: %d messages, want at least 9", len(sent))
	}
	for i := 1; i < len(sent); i++ {
		if gap := sent[i].Sub(sent[i-1]); gap < pagesCoalesce || gap > pagesCoalesce+100*time.Millisecond {
			t.Errorf("messages %v apart, want %v to %v", gap, pagesCoalesce, pagesCoalesce+100*time.Millisecond)
		}
	}
}

// steadyFlow tells p of n changes of results, every apart from t0 on, and
// returns when it sent its messages and what they said.
func steadyFlow(p *pagesStream, t0 time.Time, n int, every time.Duration) (sent []time.Time, msgs []string) {
	for i := range n {
		now := t0.Add(time.Duration(i) * every)
		p.hear(tournament.Event{Kind: "game_results"}, now.UnixMicro())
		if msg := p.due(now); msg != "" {
			sent, msgs = append(sent, now), append(msgs, msg)
		}
	}
	if p.waiting != nil {
		p.waiting.Stop()
	}
	return sent, msgs
}

// TestPagesStreamSaysOnlyWhatPagesShow: deals and confirmations, which no
// public page shows, send nothing; the clock sends "clock" with its
// version.
func TestPagesStreamSaysOnlyWhatPagesShow(t *testing.T) {
	var p pagesStream
	now := time.Date(2026, 12, 2, 15, 0, 0, 0, time.UTC)
	for _, k := range []string{kindDeals, kindConfirmations, kindCorrections} {
		p.hear(tournament.Event{Kind: k}, now.UnixMicro())
	}
	if msg := p.due(now); msg != "" {
		t.Errorf("after deals and confirmations the stream sends %q, want nothing", msg)
	}
	p.hear(tournament.Event{Kind: kindClock}, now.UnixMicro())
	if msg, want := p.due(now), fmt.Sprintf("event: clock\ndata: {\"v\":%d}\n\n", now.UnixMicro()); msg != want {
		t.Errorf("after a clock change the stream sends %q, want %q", msg, want)
	}
}

// TestCacheKeepsPublicPagesThroughDeals: a deal leaves the snapshot and
// the public pages current and makes the console's pages stale; a result
// makes both stale.
func TestCacheKeepsPublicPagesThroughDeals(t *testing.T) {
	c := newSnapshots(tournament.NewBroker(), time.Now)
	if _, err := c.load(t.Context(), "t1", func(context.Context, string) (*tournament.State, error) { return &tournament.State{}, nil }); err != nil {
		t.Fatal(err)
	}
	put := func(key string, class pageClass) {
		turn := c.pageFor("t1", key, class, false)
		c.putPage("t1", key, turn.stamp, class, time.Now(), 0, []byte(key))
		c.endRender("t1", key, turn)
	}
	put("standings", livePage)
	put("console", anyPage)
	c.changed("t1", tournament.Event{Kind: kindDeals})
	if _, ok := c.page("t1", "standings"); !ok {
		t.Errorf("after a deal the standings are not current")
	}
	if _, ok := c.page("t1", "console"); ok {
		t.Errorf("after a deal the console's page is still current")
	}
	if g, _ := c.generation("t1"); g != 0 {
		t.Errorf("after a deal the snapshot's generation is %d, want 0", g)
	}
	c.changed("t1", tournament.Event{Kind: "game_results"})
	if _, ok := c.page("t1", "standings"); ok {
		t.Errorf("after a result the standings are still current")
	}
}

// TestHubOneSubscriptionForAllStreams: a thousand pages' streams of one
// tournament hold one subscription (the pages' cache's), wake at a result,
// not at a deal, and the last to leave lets the cache forget the
// tournament once it is idle.
func TestHubOneSubscriptionForAllStreams(t *testing.T) {
	b := tournament.NewBroker()
	c := newSnapshots(b, time.Now)
	h := newHub(c, time.Now)
	var tops []member
	for range 1000 {
		tops = append(tops, h.join("t1"))
	}
	if n := b.Subscribers(); n != 1 {
		t.Fatalf("1000 streams: %d subscriptions, want 1", n)
	}
	seen := h.read(tops[0])
	b.Publish(tournament.Event{Tournament: "t1", Kind: kindDeals})
	select {
	case <-seen.changed:
		t.Fatal("a deal woke the pages' streams")
	case <-time.After(100 * time.Millisecond):
	}
	b.Publish(tournament.Event{Tournament: "t1", Kind: "game_results"})
	select {
	case <-seen.changed:
	case <-time.After(5 * time.Second):
		t.Fatal("a result did not wake the pages' streams")
	}
	if now := h.read(tops[0]); now.state != seen.state+1 || now.kind != "game_results" || now.v == 0 {
		t.Errorf("after a result the topic is %+v, want one change of state more with its version", now)
	}
	for _, tp := range tops {
		h.leave("t1", tp)
	}
	c.mu.Lock()
	pins, topics := c.pins["t1"], len(h.tops)
	c.mu.Unlock()
	if pins != 0 || topics != 0 {
		t.Errorf("after every stream left: %d pins of the tournament, %d topics; want none", pins, topics)
	}
}

// TestPagesStreamNamesTheWindow: a change on a public page's stream names
// the window its pages are to spread their fetches over, wider with more
// streams watching the tournament and at most spreadMax: a thousand
// phones that fetched within the same 150 ms after a result took the
// tables' cores (issue 28).
func TestPagesStreamNamesTheWindow(t *testing.T) {
	b := newRenderBudget(1, time.Second, time.Second)
	h := newHub(newSnapshots(tournament.NewBroker(), time.Now), time.Now)
	now := time.Date(2026, 12, 6, 3, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		streams int
		want    string
	}{{1, `"w":1}`}, {100, `"w":100}`}, {400, `"w":400}`}, {1000, `"w":850}`}, {5000, `"w":850}`}} {
		var tops []member
		for range tc.streams {
			tops = append(tops, h.join("t1"))
		}
		var p pagesStream
		p.hear(tournament.Event{Kind: "game_results"}, now.UnixMicro())
		p.window = b.spread(h.read(tops[0]).streams)
		if msg := p.due(now); !strings.HasSuffix(msg, tc.want+"\n\n") {
			t.Errorf("%d streams: the change is %q, want the window %s", tc.streams, msg, tc.want)
		}
		for _, tp := range tops {
			h.leave("t1", tp)
		}
	}
}

// TestPagesStreamPacedByTheWindow: with a thousand streams watching, a
// steady flow of changes sends a message every window (850 ms), not every
// pagesCoalesce: a page that spreads its fetch over the window would make
// no fetch of the messages between, each a write for the server.
func TestPagesStreamPacedByTheWindow(t *testing.T) {
	b := newRenderBudget(1, time.Second, time.Second)
	for _, tc := range []struct {
		streams int
		gap     time.Duration
	}{{10, pagesCoalesce}, {700, 700 * time.Millisecond}, {1000, 850 * time.Millisecond}} {
		p := pagesStream{window: b.spread(tc.streams)}
		sent, _ := steadyFlow(&p, time.Date(2026, 12, 6, 3, 0, 0, 0, time.UTC), 100, 50*time.Millisecond)
		for i := 1; i < len(sent); i++ {
			if gap := sent[i].Sub(sent[i-1]); gap < tc.gap || gap > tc.gap+50*time.Millisecond {
				t.Errorf("%d streams: messages %v apart, want %v", tc.streams, gap, tc.gap)
			}
		}
		if want := int(5*time.Second/tc.gap) - 1; len(sent) < want {
			t.Errorf("%d streams, 5 s of changes every 50 ms: %d messages, want at least %d", tc.streams, len(sent), want)
		}
	}
}

// TestTableStreamHearsAfterTheCache: a table page's stream hears each
// change only after the pages' cache counted it, so the page a phone
// fetches on hearing it is never the one from before. A stream that
// subscribed to the events itself raced the cache's own goroutine: the
// second of two servers behind one address announced a result whose
// standings it still served from before (TestWebLiveAcrossProcesses,
// a clean clone's run of 7 December 2026).
func TestTableStreamHearsAfterTheCache(t *testing.T) {
	t.Parallel()
	b := tournament.NewBroker()
	c := newSnapshots(b, time.Now)
	ch, stop := c.subscribe("t1")
	if n := b.Subscribers(); n != 1 {
		t.Fatalf("a table stream: %d subscriptions of the events, want the cache's 1", n)
	}
	for i := range 2000 {
		kind := "game_results"
		if i%2 == 1 {
			kind = kindDeals
		}
		before, _ := c.generation("t1")
		c.mu.Lock()
		other := c.vers["t1"].other
		c.mu.Unlock()
		b.Publish(tournament.Event{Tournament: "t1", Kind: kind})
		var e tournament.Event
		select {
		case e = <-ch:
		case <-time.After(5 * time.Second):
			t.Fatalf("event %d (%s) never reached the table stream", i, kind)
		}
		after, _ := c.generation("t1")
		c.mu.Lock()
		otherNow := c.vers["t1"].other
		c.mu.Unlock()
		if e.Kind != kind || e.Tournament != "t1" {
			t.Fatalf("event %d: the stream heard %+v, want %s of t1", i, e, kind)
		}
		if kind == "game_results" && after != before+1 {
			t.Fatalf("event %d: a result reached the stream at generation %d, before the cache counted it (%d)", i, after, before+1)
		}
		if kind == kindDeals && otherNow != other+1 {
			t.Fatalf("event %d: a deal reached the stream before the cache counted it", i)
		}
	}
	b.Publish(tournament.Event{Kind: tournament.KindResync})
	if e := <-ch; e.Kind != tournament.KindResync || e.Tournament != "t1" {
		t.Errorf("a resync reached the stream as %+v, want a resync of t1", e)
	}
	stop()
	stop()
	c.mu.Lock()
	pins := c.pins["t1"]
	c.mu.Unlock()
	if pins != 0 {
		t.Errorf("after the stream ended: %d pins of the tournament, want none", pins)
	}
}

// TestHelloMarks: what a stream opening on a tournament is told (the
// versions of its latest change of state and of its clock, as a change's
// v) follows each kind of change: a deal moves neither, a result the
// state, the clock its own, a new round and a resync both; a version
// never goes back; before the cache followed the tournament, when it
// began to is the earliest either can be; unfollowed, anything may have
// changed (now).
func TestHelloMarks(t *testing.T) {
	t0 := time.Date(2026, 12, 7, 6, 0, 0, 0, time.UTC)
	now := t0
	c := newSnapshots(tournament.NewBroker(), func() time.Time { return now })
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	want := func(step string, state, clock time.Time) {
		t.Helper()
		if s, k := c.hello("t1"); s != state.UnixMicro() || k != clock.UnixMicro() {
			t.Errorf("%s: hello (%d, %d), want (%d, %d)", step, s, k, state.UnixMicro(), clock.UnixMicro())
		}
	}
	// follow has the cache follow t1 at s seconds (a stream pins it),
	// and then a second passes.
	follow := func(s int) {
		now = at(s)
		c.pin("t1")
		now = at(s + 1)
	}
	now = at(1)
	want("not followed", at(1), at(1))
	follow(2)
	want("followed at 2 s", at(2), at(2))
	for _, step := range []struct {
		what         string
		e            tournament.Event
		state, clock time.Time
	}{
		{"a deal", tournament.Event{Kind: kindDeals, At: at(4)}, at(2), at(2)},
		{"a confirmation", tournament.Event{Kind: kindConfirmations, At: at(5)}, at(2), at(2)},
		{"the clock", tournament.Event{Kind: kindClock, At: at(6)}, at(2), at(6)},
		{"a result", tournament.Event{Kind: "game_results", At: at(7)}, at(7), at(6)},
		{"an older clock change, heard late", tournament.Event{Kind: kindClock, At: at(5)}, at(7), at(6)},
		{"a new round", tournament.Event{Kind: kindRounds, At: at(8)}, at(8), at(8)},
		{"a resync", tournament.Event{Kind: tournament.KindResync, At: at(9)}, at(9), at(9)},
		{"a write of this process (no version: now)", tournament.Event{}, at(10), at(9)},
	} {
		now = at(10)
		c.changed("t1", step.e)
		want(step.what, step.state, step.clock)
	}
	c.unpin("t1")
	c.forget("t1")
	now = at(11)
	want("forgotten", at(11), at(11))
	follow(12)
	want("followed again at 12 s: what came between is unknown", at(12), at(12))
}
