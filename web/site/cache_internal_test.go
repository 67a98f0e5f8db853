package site

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
	t.Parallel()
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
	t.Parallel()
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
		c.putPage(fmt.Sprint("idle-", i), "en /standings", stamp{state: gen}, livePage, now, 0, []byte("<html>"))
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

// blockingRead is a snapshot read that waits for release, counting calls.
type blockingRead struct {
	mu      sync.Mutex
	calls   int
	started chan struct{} // a value per call
	release chan struct{}
}

func newBlockingRead() *blockingRead {
	return &blockingRead{started: make(chan struct{}, 16), release: make(chan struct{})}
}

func (b *blockingRead) read(ctx context.Context, _ string) (*tournament.State, error) {
	b.mu.Lock()
	b.calls++
	b.mu.Unlock()
	b.started <- struct{}{}
	select {
	case <-b.release:
		return &tournament.State{}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (b *blockingRead) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.calls
}

// waitShared waits until n loads joined tid's read in flight.
func waitShared(t *testing.T, c *snapshots, tid string, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		c.mu.Lock()
		r := c.reads[tid]
		got := 0
		if r != nil {
			got = r.shared
		}
		c.mu.Unlock()
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d loads joined the read in flight, want %d", got, n)
		}
	}
}

// TestCacheSharesReadsInFlight (issue 17): visitors who arrive while a
// snapshot of the current generation is being read share it, one read for
// all; after a change they read again, since the read in flight may
// predate it.
func TestCacheSharesReadsInFlight(t *testing.T) {
	t.Parallel()
	src := tournament.NewBroker()
	c := newSnapshots(src, time.Now)
	b := newBlockingRead()
	var wg sync.WaitGroup
	load := func() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.load(context.Background(), "t1", b.read); err != nil {
				t.Error(err)
			}
		}()
	}
	load()
	<-b.started
	for range 9 {
		load()
	}
	waitShared(t, c, "t1", 9)
	if n := b.count(); n != 1 {
		t.Fatalf("ten visitors at once made %d reads, want 1", n)
	}
	src.Publish(tournament.Event{Tournament: "t1", Kind: "result"})
	waitGeneration(t, c, "t1", 1)
	load()
	<-b.started
	if n := b.count(); n != 2 {
		t.Errorf("a visitor after a change made no read of its own (%d reads), want 2", n)
	}
	close(b.release)
	wg.Wait()
}

// TestCacheReadsAgainWhenTheReaderGivesUp: a visitor who shares a read
// whose own request ended reads again, rather than take its error.
func TestCacheReadsAgainWhenTheReaderGivesUp(t *testing.T) {
	t.Parallel()
	c := newSnapshots(tournament.NewBroker(), time.Now)
	b := newBlockingRead()
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() {
		_, err := c.load(ctx, "t1", b.read)
		first <- err
	}()
	<-b.started
	second := make(chan error, 1)
	go func() {
		_, err := c.load(context.Background(), "t1", b.read)
		second <- err
	}()
	waitShared(t, c, "t1", 1)
	cancel()
	if err := <-first; err == nil {
		t.Errorf("the canceled reader's load = nil error, want its context's")
	}
	<-b.started
	close(b.release)
	if err := <-second; err != nil {
		t.Errorf("the sharer's load after the reader gave up = %v, want a read of its own", err)
	}
	if n := b.count(); n != 2 {
		t.Errorf("%d reads, want 2", n)
	}
}

// waitGeneration waits until tid's generation is gen (events reach the
// cache through a goroutine).
func waitGeneration(t *testing.T, c *snapshots, tid string, gen uint64) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if g, _ := c.generation(tid); g >= gen {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("generation of %s did not reach %d", tid, gen)
		}
	}
}
