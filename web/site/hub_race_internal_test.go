package site

// The hub/cache race of issue 28: a public page's stream announced a
// change its own subscription heard before the pages' cache had counted
// it, so a viewer who fetched at once got the page of before the change,
// as current, and stayed behind until the next change.

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/tournament"
)

// laggingSource delivers each event to its first subscriber lag after
// the others: the order in which a broker's subscribers run is anyone's.
type laggingSource struct {
	lag  time.Duration
	mu   sync.Mutex
	subs []chan tournament.Event
}

func (s *laggingSource) Subscribe(string) (<-chan tournament.Event, func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := make(chan tournament.Event, 16)
	s.subs = append(s.subs, ch)
	return ch, func() {}
}

func (s *laggingSource) publish(e tournament.Event) {
	s.mu.Lock()
	subs := append([]chan tournament.Event(nil), s.subs...)
	s.mu.Unlock()
	for i, ch := range subs {
		if i == 0 {
			go func() { time.Sleep(s.lag); ch <- e }()
			continue
		}
		ch <- e
	}
}

// TestStreamAnnouncesOnlyChangesTheCacheCounted: when a public page's
// stream wakes for a change, the page rendered before it is no longer
// current, whichever subscriber the source served first.
func TestStreamAnnouncesOnlyChangesTheCacheCounted(t *testing.T) {
	src := &laggingSource{lag: 200 * time.Millisecond}
	c := newSnapshots(src, time.Now)
	h := newHub(c, time.Now)
	if _, err := c.load(t.Context(), "t1", func(context.Context, string) (*tournament.State, error) { return &tournament.State{}, nil }); err != nil {
		t.Fatal(err)
	}
	const key = "en /t/t1/standings"
	turn := c.pageFor("t1", key, livePage, false)
	c.putPage("t1", key, turn.stamp, livePage, time.Now(), 1, []byte("before"))
	c.endRender("t1", key, turn)
	tp := h.join("t1")
	defer h.leave("t1", tp)
	seen := h.read(tp)
	src.publish(tournament.Event{Tournament: "t1", Kind: "game_results", At: time.Now()})
	select {
	case <-seen.changed:
	case <-time.After(5 * time.Second):
		t.Fatal("a result did not wake the pages' streams")
	}
	if body, ok := c.page("t1", key); ok {
		t.Errorf("the stream announced a result while the cache still served %q as current", body)
	}
}
