package ratelimit_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/internal/ratelimit"
)

// fail takes a try and fails it, as a wrong token does.
func fail(f *ratelimit.Failures, addr string) bool {
	if !f.Take(addr) {
		return false
	}
	f.Fail(context.Background(), addr)
	return true
}

func TestFailures(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	f := ratelimit.NewFailures(func() time.Time { return now })
	for i := range ratelimit.DefaultBurst {
		if !f.Allow("a") {
			t.Fatalf("Allow(a) after %d failures = false, want true", i)
		}
		if !fail(f, "a") {
			t.Fatalf("Take(a) after %d failures = false, want true", i)
		}
	}
	if f.Allow("a") || f.Take("a") {
		t.Errorf("Allow(a) or Take(a) after %d failures = true, want false", ratelimit.DefaultBurst)
	}
	if !f.Allow("b") {
		t.Errorf("Allow(b) = false, want true: another address is not limited")
	}
	now = now.Add(ratelimit.DefaultEvery - time.Millisecond)
	if f.Allow("a") {
		t.Errorf("Allow(a) just before the refill = true, want false")
	}
	now = now.Add(time.Millisecond)
	if !f.Allow("a") {
		t.Errorf("Allow(a) after %v = false, want one more try", ratelimit.DefaultEvery)
	}
	fail(f, "a")
	if f.Allow("a") {
		t.Errorf("Allow(a) after failing the refilled try = true, want false")
	}
}

// TestRefund: good secrets cost nothing.
func TestRefund(t *testing.T) {
	t.Parallel()
	f := ratelimit.NewFailures(nil)
	for i := range 3 * ratelimit.DefaultBurst {
		if !f.Take("a") {
			t.Fatalf("Take(a) after %d good tokens = false, want true", i)
		}
		f.Refund("a")
	}
}

// TestFailuresForgetsOnFlood: past the address limit the counter starts
// over instead of growing without bound.
func TestFailuresForgetsOnFlood(t *testing.T) {
	t.Parallel()
	f := ratelimit.NewFailures(nil)
	for range ratelimit.DefaultBurst {
		fail(f, "guesser")
	}
	for i := range ratelimit.DefaultMaxPeers {
		fail(f, fmt.Sprint("peer-", i))
	}
	if !f.Allow("guesser") {
		t.Errorf("Allow(guesser) after a flood of %d addresses = false, want forgotten", ratelimit.DefaultMaxPeers)
	}
}

func TestFailuresConcurrent(t *testing.T) {
	t.Parallel()
	f := ratelimit.NewFailures(nil)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 100 {
				addr := fmt.Sprint("p", (i+j)%5)
				f.Allow(addr)
				fail(f, addr)
			}
		})
	}
	wg.Wait()
	if f.Allow("p0") {
		t.Errorf("Allow(p0) after many failures = true, want false")
	}
}

// TestTakeIsAtomic (issue 13, item 7): of many simultaneous guesses from
// one address, only the burst gets to try.
func TestTakeIsAtomic(t *testing.T) {
	t.Parallel()
	f := ratelimit.NewFailures(nil)
	var tried atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range 5 * ratelimit.DefaultBurst {
		wg.Go(func() {
			<-start
			if f.Take("a") {
				tried.Add(1)
				time.Sleep(time.Millisecond) // the lookup
				f.Fail(context.Background(), "a")
			}
		})
	}
	close(start)
	wg.Wait()
	if n := tried.Load(); n != ratelimit.DefaultBurst {
		t.Errorf("simultaneous guesses that tried = %d, want %d", n, ratelimit.DefaultBurst)
	}
}

// sharedCounts is an in-memory Shared store: what PostgreSQL is to several
// processes.
type sharedCounts struct {
	mu     sync.Mutex
	tokens map[string]float64
	last   map[string]time.Time
}

func (s *sharedCounts) CountFailure(_ context.Context, addr string, burst int, every time.Duration, now time.Time) (float64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tok, ok := s.tokens[addr]
	if !ok {
		tok = float64(burst)
	} else {
		tok = min(float64(burst), tok+float64(now.Sub(s.last[addr]))/float64(every))
	}
	tok--
	s.tokens[addr], s.last[addr] = tok, now
	return tok, nil
}

// TestSharedAcrossProcesses (issue 13, item 7): two processes behind one
// address share one budget. A process learns the shared count at its next
// failure from the address, so each may allow one guess more than the
// budget; past that, both together refill at the shared rate.
func TestSharedAcrossProcesses(t *testing.T) {
	t.Parallel()
	shared := &sharedCounts{tokens: map[string]float64{}, last: map[string]time.Time{}}
	now := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	a, b := ratelimit.NewFailures(clock), ratelimit.NewFailures(clock)
	a.Share(shared, nil)
	b.Share(shared, nil)
	guesses := 0
	for range 3 * ratelimit.DefaultBurst {
		for _, p := range []*ratelimit.Failures{a, b} {
			if fail(p, "x") {
				guesses++
			}
		}
	}
	if max := ratelimit.DefaultBurst + 2; guesses > max {
		t.Errorf("guesses at two processes at once = %d, want at most %d (one budget, one more per process)", guesses, max)
	}
	const periods = 20
	guesses = 0
	for range periods {
		now = now.Add(ratelimit.DefaultEvery)
		for _, p := range []*ratelimit.Failures{a, b} {
			if fail(p, "x") {
				guesses++
			}
		}
	}
	if max := periods + 2; guesses > max {
		t.Errorf("guesses in %d refills at two processes = %d, want at most %d (the shared rate)", periods, guesses, max)
	}
	// Without the shared store each process has its own budget.
	c, d := ratelimit.NewFailures(clock), ratelimit.NewFailures(clock)
	guesses = 0
	for range 3 * ratelimit.DefaultBurst {
		for _, p := range []*ratelimit.Failures{c, d} {
			if fail(p, "x") {
				guesses++
			}
		}
	}
	if guesses != 2*ratelimit.DefaultBurst {
		t.Errorf("guesses at two unshared processes = %d, want %d", guesses, 2*ratelimit.DefaultBurst)
	}
}

// unreachable is a shared store that cannot be reached.
type unreachable struct{}

func (unreachable) CountFailure(context.Context, string, int, time.Duration, time.Time) (float64, error) {
	return 0, errors.New("the database is down")
}

// TestSharedStoreDown: a failure the shared store cannot count is told to
// onError, and the process's own count goes on alone (the budget still
// runs out).
func TestSharedStoreDown(t *testing.T) {
	t.Parallel()
	f := ratelimit.NewFailures(nil)
	var heard []error
	f.Share(unreachable{}, func(err error) { heard = append(heard, err) })
	guesses := 0
	for range 3 * ratelimit.DefaultBurst {
		if fail(f, "x") {
			guesses++
		}
	}
	if guesses != ratelimit.DefaultBurst || len(heard) != ratelimit.DefaultBurst {
		t.Errorf("with the shared store down: %d guesses, %d errors heard; want %d of each", guesses, len(heard), ratelimit.DefaultBurst)
	}
}
