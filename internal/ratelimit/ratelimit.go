// Package ratelimit slows down the guessing of secrets (tokens, table codes,
// login forms): it counts failed attempts per client address and refuses
// more once an address has failed too often. One Failures value should be
// shared by every door to the same secrets, so that a guesser cannot try
// each door in turn.
//
// A try is taken before the secret is looked up (Take) and given back when
// the secret was good (Refund), so that concurrent guesses cannot all pass
// one check before any of them has failed. Several processes behind one
// address share their counts through a Shared store (PostgreSQL): each
// failure is counted there too, and the process adopts the shared count.
// Good tokens never touch the shared store.
package ratelimit

import (
	"context"
	"sync"
	"time"
)

// Defaults: a burst of ten failures, then one more try per six seconds; at
// most ten thousand addresses are remembered.
const (
	DefaultBurst    = 10
	DefaultEvery    = 6 * time.Second
	DefaultMaxPeers = 10000
)

// Shared counts failures of every process behind one address
// (postgres.FailureCounts implements it).
type Shared interface {
	// CountFailure counts one failure of addr in a bucket of burst tries
	// that refills one try per every, and returns the tries left after it
	// (below zero when the address goes on failing while refused).
	CountFailure(ctx context.Context, addr string, burst int, every time.Duration, now time.Time) (float64, error)
}

// Failures counts failed attempts per client address. It is safe for
// concurrent use.
type Failures struct {
	now      func() time.Time
	burst    int
	every    time.Duration
	maxPeers int
	shared   Shared
	onError  func(error)
	mu       sync.Mutex
	peers    map[string]*bucket
}

// bucket holds an address's tries: tokens at the time last.
type bucket struct {
	tokens float64
	last   time.Time
	// unsettled counts the tries spent without a verdict (Unsettled),
	// which the next good secret gives back (Good).
	unsettled float64
}

// NewFailures returns a counter with the default limits and the clock now
// (time.Now when nil), kept in this process only.
func NewFailures(now func() time.Time) *Failures {
	if now == nil {
		now = time.Now
	}
	return &Failures{now: now, burst: DefaultBurst, every: DefaultEvery, maxPeers: DefaultMaxPeers,
		peers: make(map[string]*bucket), onError: func(error) {}}
}

// Share makes the counter count failures in s too, so that the limit holds
// across the processes that share s; onError hears of failures to reach it
// (the local count goes on alone then). Call it before use.
func (f *Failures) Share(s Shared, onError func(error)) {
	f.shared = s
	if onError != nil {
		f.onError = onError
	}
}

// refill brings b up to now (under f.mu).
func (f *Failures) refill(b *bucket, now time.Time) {
	if now.After(b.last) {
		b.tokens = min(float64(f.burst), b.tokens+float64(now.Sub(b.last))/float64(f.every))
		b.last = now
	}
}

// peer returns addr's bucket (under f.mu), made full when new.
func (f *Failures) peer(addr string, now time.Time) *bucket {
	b, ok := f.peers[addr]
	if !ok {
		if len(f.peers) >= f.maxPeers {
			clear(f.peers) // a flood of addresses: start over rather than grow
		}
		b = &bucket{tokens: float64(f.burst), last: now}
		f.peers[addr] = b
	}
	f.refill(b, now)
	return b
}

// Allow reports whether addr may try now, without taking a try: it has
// failed fewer times than the burst, or waited long enough since.
func (f *Failures) Allow(addr string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	b, ok := f.peers[addr]
	if !ok {
		return true
	}
	f.refill(b, f.now())
	return b.tokens >= 1
}

// Take takes one try for addr before its secret is checked, and reports
// whether it had one. Follow a true with Refund when the secret was good,
// or Fail when it was not.
func (f *Failures) Take(addr string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	b := f.peer(addr, f.now())
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// Refund gives back a try taken for a secret that was not checked (the
// tournament's own budget refused it first).
func (f *Failures) Refund(addr string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if b, ok := f.peers[addr]; ok {
		b.tokens = min(float64(f.burst), b.tokens+1)
	}
}

// Unsettled notes that a try taken with Take got no verdict (the
// database failed, or the client left): it stays spent, so that guesses
// made while secrets cannot be checked are bounded all the same, until a
// good secret from addr gives it back (Good).
func (f *Failures) Unsettled(addr string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if b, ok := f.peers[addr]; ok {
		b.unsettled = min(float64(f.burst), b.unsettled+1)
	}
}

// Good gives back the try taken for a secret that was good, and the tries
// addr spent without a verdict: they told their sender nothing, and a
// good secret says that the sender was no guesser (a hall's tables behind
// one address, whose tries an outage spent, are not kept waiting once it
// ends).
func (f *Failures) Good(addr string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if b, ok := f.peers[addr]; ok {
		b.tokens = min(float64(f.burst), b.tokens+1+b.unsettled)
		b.unsettled = 0
	}
}

// Fail counts a failed attempt from addr whose try was taken with Take:
// the try stays spent, and the shared store, if any, counts it too; this
// process then keeps the lower of its own and the shared count.
func (f *Failures) Fail(ctx context.Context, addr string) {
	if f.shared == nil {
		return
	}
	left, err := f.shared.CountFailure(ctx, addr, f.burst, f.every, f.now())
	if err != nil {
		f.onError(err)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	b := f.peer(addr, f.now())
	b.tokens = min(b.tokens, left)
}

// NewBudget returns a counter of burst tries that refills one try per
// every, kept in this process only: the per-tournament budget of wrong
// table codes (across addresses) is one.
func NewBudget(now func() time.Time, burst int, every time.Duration) *Failures {
	f := NewFailures(now)
	f.burst, f.every = burst, every
	return f
}

// Tries returns the tries addr has left now (the burst for an address not
// seen), for tests and metrics.
func (f *Failures) Tries(addr string) float64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	b, ok := f.peers[addr]
	if !ok {
		return float64(f.burst)
	}
	f.refill(b, f.now())
	return b.tokens
}

// Burst is the number of tries a fresh key has.
func (f *Failures) Burst() int { return f.burst }
