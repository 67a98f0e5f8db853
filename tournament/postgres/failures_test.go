package postgres_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/internal/ratelimit"
	"github.com/revisor-sm/revisor/tournament/postgres"
)

// TestFailureCountsAcrossProcesses (issue 13, item 7): two processes
// behind one address, each with its own counter, share one budget of
// wrong tokens through PostgreSQL, also when they fail at the same time.
func TestFailureCountsAcrossProcesses(t *testing.T) {
	t.Parallel()
	store := postgres.NewFailureCounts(dbtest.New(t))
	now := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	procs := []*ratelimit.Failures{ratelimit.NewFailures(clock), ratelimit.NewFailures(clock)}
	for _, p := range procs {
		p.Share(store, func(err error) { t.Errorf("shared store: %v", err) })
	}
	var tried atomic.Int32
	var wg sync.WaitGroup
	for range 3 {
		for i := range 2 * ratelimit.DefaultBurst {
			p := procs[i%2]
			wg.Go(func() {
				if p.Take("203.0.113.7") {
					tried.Add(1)
					p.Fail(context.Background(), "203.0.113.7")
				}
			})
		}
		wg.Wait()
	}
	// Each process may allow what it had before it heard of the other's
	// failures: at most the burst at each, never more.
	if n := tried.Load(); n > 2*ratelimit.DefaultBurst || n < ratelimit.DefaultBurst {
		t.Fatalf("guesses at two processes = %d, want between %d and %d", n, ratelimit.DefaultBurst, 2*ratelimit.DefaultBurst)
	}
	for i, p := range procs {
		if p.Take("203.0.113.7") {
			t.Errorf("process %d: a try left after the shared budget was spent", i)
		}
	}
	// Once spent, the shared bucket refills at one try per period for
	// both processes together.
	tried.Store(0)
	for range 10 {
		now = now.Add(ratelimit.DefaultEvery)
		for _, p := range procs {
			if p.Take("203.0.113.7") {
				tried.Add(1)
				p.Fail(context.Background(), "203.0.113.7")
			}
		}
	}
	if n := tried.Load(); n > 10+2 {
		t.Errorf("guesses over 10 refills at two processes = %d, want at most 12", n)
	}
}

// TestFailureCountsPrune: an address whose bucket is full again is
// forgotten; one still short of tries is kept.
func TestFailureCountsPrune(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := postgres.NewFailureCounts(dbtest.New(t))
	now := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	every := ratelimit.DefaultEvery
	for i := range 3 {
		if _, err := store.CountFailure(ctx, fmt.Sprint("a", i), 10, every, now.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	left, err := store.CountFailure(ctx, "a2", 10, every, now.Add(2*time.Minute))
	if err != nil || left != 8 {
		t.Fatalf("second failure of a2 = %v, %v; want 8 tries left", left, err)
	}
	n, err := store.Prune(ctx, 10, every, now.Add(2*time.Minute))
	if err != nil || n != 2 {
		t.Errorf("Prune = %d, %v; want the 2 full buckets deleted", n, err)
	}
}
