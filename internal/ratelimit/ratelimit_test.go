package ratelimit_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/internal/ratelimit"
)

func TestFailures(t *testing.T) {
	now := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	f := ratelimit.NewFailures(func() time.Time { return now })
	for i := range ratelimit.DefaultBurst {
		if !f.Allow("a") {
			t.Fatalf("Allow(a) after %d failures = false, want true", i)
		}
		f.Fail("a")
	}
	if f.Allow("a") {
		t.Errorf("Allow(a) after %d failures = true, want false", ratelimit.DefaultBurst)
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
	f.Fail("a")
	if f.Allow("a") {
		t.Errorf("Allow(a) after failing the refilled try = true, want false")
	}
}

// TestFailuresForgetsOnFlood: past the address limit the counter starts
// over instead of growing without bound.
func TestFailuresForgetsOnFlood(t *testing.T) {
	f := ratelimit.NewFailures(nil)
	for range ratelimit.DefaultBurst {
		f.Fail("guesser")
	}
	for i := range ratelimit.DefaultMaxPeers {
		f.Fail(fmt.Sprint("peer-", i))
	}
	if !f.Allow("guesser") {
		t.Errorf("Allow(guesser) after a flood of %d addresses = false, want forgotten", ratelimit.DefaultMaxPeers)
	}
}

func TestFailuresConcurrent(t *testing.T) {
	f := ratelimit.NewFailures(nil)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 100 {
				addr := fmt.Sprint("p", (i+j)%5)
				f.Allow(addr)
				f.Fail(addr)
			}
		})
	}
	wg.Wait()
	if f.Allow("p0") {
		t.Errorf("Allow(p0) after many failures = true, want false")
	}
}
