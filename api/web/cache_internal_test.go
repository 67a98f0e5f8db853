package web

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/tournament"
)

// countingSource is an EventSource that counts its live subscriptions.
type countingSource struct {
	mu   sync.Mutex
	live int
}

func (s *countingSource) Subscribe(string) (<-chan tournament.Event, func()) {
	s.mu.Lock()
	s.live++
	s.mu.Unlock()
	var once sync.Once
	return make(chan tournament.Event), func() {
		once.Do(func() { s.mu.Lock(); s.live--; s.mu.Unlock() })
	}
}

// TestCacheFollowsOnlyExistingTournaments (issue 13, item 8): 300 visits
// of unknown tournaments left 255 subscriptions for good, and tournaments
// viewed later were never cached. Now an unknown one is forgotten at once.
func TestCacheFollowsOnlyExistingTournaments(t *testing.T) {
	src := &countingSource{}
	c := newSnapshots(src, time.Now)
	missing := func(context.Context, string) (*tournament.State, error) {
		return nil, tournament.Errorf(tournament.KindNotFound, "tournament_not_found", "no such tournament")
	}
	for i := range 300 {
		if _, err := c.load(context.Background(), fmt.Sprint("unknown-", i), missing); err == nil {
			t.Fatal("load of an unknown tournament: no error")
		}
	}
	src.mu.Lock()
	live := src.live
	src.mu.Unlock()
	if live != 0 || len(c.subs) != 0 {
		t.Errorf("after 300 unknown tournaments: %d subscriptions, %d followed; want none", live, len(c.subs))
	}
	found := func(context.Context, string) (*tournament.State, error) { return &tournament.State{}, nil }
	if _, err := c.load(context.Background(), "real", found); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.generation("real"); !ok {
		t.Errorf("a real tournament viewed after 300 unknown ones is not cached")
	}
}
