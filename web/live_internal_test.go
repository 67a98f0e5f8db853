package web

import (
	"context"
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
	var sent []time.Time
	for i := range 50 {
		now := t0.Add(time.Duration(i) * 100 * time.Millisecond)
		p.hear(tournament.Event{Kind: "game_results"}, now.UnixMicro())
		if msg := p.due(now); msg != "" {
			if !strings.Contains(msg, `"v":`+strconv.FormatInt(now.UnixMicro(), 10)) {
				t.Errorf("message at %v = %q, want the latest version", now.Sub(t0), msg)
			}
			sent = append(sent, now)
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
	if p.waiting != nil {
		p.waiting.Stop()
	}
}

// TestPagesStreamSaysOnlyWhatPagesShow: deals and confirmations, which no
// public page shows, send nothing; the clock sends "clock".
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
	if msg := p.due(now); msg != "event: clock\ndata: {}\n\n" {
		t.Errorf("after a clock change the stream sends %q, want a clock event", msg)
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
	c.changed("t1", kindDeals)
	if _, ok := c.page("t1", "standings"); !ok {
		t.Errorf("after a deal the standings are not current")
	}
	if _, ok := c.page("t1", "console"); ok {
		t.Errorf("after a deal the console's page is still current")
	}
	if g, _ := c.generation("t1"); g != 0 {
		t.Errorf("after a deal the snapshot's generation is %d, want 0", g)
	}
	c.changed("t1", "game_results")
	if _, ok := c.page("t1", "standings"); ok {
		t.Errorf("after a result the standings are still current")
	}
}

// TestHubOneSubscriptionForAllStreams: a thousand pages' streams of one
// tournament hold one subscription, wake at a result, not at a deal, and
// the last to leave ends it.
func TestHubOneSubscriptionForAllStreams(t *testing.T) {
	b := tournament.NewBroker()
	h := newHub(b, time.Now, func(string, tournament.Event) {})
	var tops []*topic
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
	if n := b.Subscribers(); n != 0 {
		t.Errorf("after every stream left: %d subscriptions, want 0", n)
	}
}

// twoSource gives its first subscriber (the pages' cache) a channel that
// never delivers, as a subscriber starved of CPU, and its second (the
// hub) a channel the test writes to.
type twoSource struct {
	n    int
	live chan tournament.Event
}

func (s *twoSource) Subscribe(string) (<-chan tournament.Event, func()) {
	if s.n++; s.n == 1 {
		return make(chan tournament.Event), func() {}
	}
	return s.live, func() {}
}

// TestHubCountsTheChangeBeforeTheStreams (issue 28, no starvation): when
// the pages' streams hear of a change, a page rendered before it is no
// longer current, even if the cache's own subscription has not heard of
// it yet; when it does, the change is not counted twice.
func TestHubCountsTheChangeBeforeTheStreams(t *testing.T) {
	src := &twoSource{live: make(chan tournament.Event, 1)}
	c := newSnapshots(src, time.Now)
	h := newHub(src, time.Now, c.heard)
	c.mu.Lock()
	c.subs["t1"] = true
	c.mu.Unlock()
	c.follow("t1") // the cache's subscription, which hears nothing
	c.putPage("t1", "sv /t/t1/standings", stamp{}, livePage, time.Now(), 1, []byte("<p>before</p>"))
	if _, ok := c.page("t1", "sv /t/t1/standings"); !ok {
		t.Fatal("the page just rendered is not current")
	}
	top := h.join("t1")
	defer h.leave("t1", top)
	seen := h.read(top)
	e := tournament.Event{Tournament: "t1", Kind: "game_results", At: time.Now()}
	src.live <- e
	select {
	case <-seen.changed:
	case <-time.After(5 * time.Second):
		t.Fatal("the result did not wake the pages' streams")
	}
	if _, ok := c.page("t1", "sv /t/t1/standings"); ok {
		t.Error("the streams heard of a result and the page from before it is still current")
	}
	c.heard("t1", e) // the cache's subscription hears it late
	c.mu.Lock()
	got := c.vers["t1"].state
	c.mu.Unlock()
	if got != 1 {
		t.Errorf("one result heard by the hub and the cache: %d changes of state counted, want 1", got)
	}
}
