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

// TestCacheEvictsIdleTournaments (issue 13, item 8): a tournament not
// viewed for cacheIdle gives back its subscription to the broker of
// LISTEN's events, snapshot and pages at
// the next visit after that; one viewed meanwhile stays. When
// maxCachedTournament are followed, a new one takes the place of the one
// viewed longest ago, so tournaments viewed later are cached too.
func TestCacheEvictsIdleTournaments(t *testing.T) {
	src := tournament.NewBroker() // the event source LISTEN feeds
	now := time.Date(2026, 5, 16, 9, 0, 0, 0, time.UTC)
	c := newSnapshots(src, func() time.Time { return now })
	found := func(context.Context, string) (*tournament.State, error) { return &tournament.State{}, nil }
	view := func(tid string) {
		t.Helper()
		if _, err := c.load(context.Background(), tid, found); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 3 {
		view(fmt.Sprint("idle-", i))
		gen, _ := c.generation(fmt.Sprint("idle-", i))
		c.putPage(fmt.Sprint("idle-", i), "en /standings", gen, now, []byte("<html>"))
	}
	view("busy")
	now = now.Add(cacheIdle / 2)
	view("busy")
	if got := src.Subscribers(); got != 4 {
		t.Fatalf("before the idle time: %d subscriptions, want 4", got)
	}
	now = now.Add(cacheIdle/2 + time.Second)
	view("busy")
	if got := src.Subscribers(); got != 1 {
		t.Errorf("after the idle time: %d subscriptions, want 1 (busy's)", got)
	}
	c.mu.Lock()
	for i := range 3 {
		tid := fmt.Sprint("idle-", i)
		_, m := c.m[tid]
		_, p := c.pages[tid]
		_, g := c.gen[tid]
		_, u := c.used[tid]
		_, st := c.stop[tid]
		if c.subs[tid] || m || p || g || u || st {
			t.Errorf("after the idle time the cache still holds %s", tid)
		}
	}
	c.mu.Unlock()
	if _, ok := c.page("idle-0", "en /standings"); ok {
		t.Errorf("an idle tournament's page is still served from the cache")
	}

	for i := range maxCachedTournament + 10 {
		now = now.Add(time.Millisecond)
		view(fmt.Sprint("many-", i))
	}
	if got := src.Subscribers(); got > maxCachedTournament {
		t.Errorf("after %d tournaments: %d subscriptions, want at most %d", maxCachedTournament+10, got, maxCachedTournament)
	}
	if _, ok := c.generation(fmt.Sprint("many-", maxCachedTournament+9)); !ok {
		t.Errorf("the latest tournament viewed past the cap is not cached")
	}
	if _, ok := c.generation("busy"); ok {
		t.Errorf("the tournament viewed longest ago kept its place past the cap")
	}
}
