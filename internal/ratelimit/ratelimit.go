// Package ratelimit slows down the guessing of secrets (tokens, table codes,
// login forms): it counts failed attempts per client address and refuses
// more once an address has failed too often. One Failures value should be
// shared by every door to the same secrets, so that a guesser cannot try
// each door in turn.
package ratelimit

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Defaults: a burst of ten failures, then one more try per six seconds; at
// most ten thousand addresses are remembered.
const (
	DefaultBurst    = 10
	DefaultEvery    = 6 * time.Second
	DefaultMaxPeers = 10000
)

// Failures counts failed attempts per client address. It is safe for
// concurrent use.
type Failures struct {
	now      func() time.Time
	burst    int
	every    time.Duration
	maxPeers int
	mu       sync.Mutex
	peers    map[string]*rate.Limiter
}

// NewFailures returns a counter with the default limits and the clock now
// (time.Now when nil).
func NewFailures(now func() time.Time) *Failures {
	if now == nil {
		now = time.Now
	}
	return &Failures{now: now, burst: DefaultBurst, every: DefaultEvery, maxPeers: DefaultMaxPeers,
		peers: make(map[string]*rate.Limiter)}
}

// Allow reports whether addr may try now: it has failed fewer times than
// the burst, or waited long enough since.
func (f *Failures) Allow(addr string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	lim, ok := f.peers[addr]
	return !ok || lim.TokensAt(f.now()) >= 1
}

// Fail counts a failed attempt from addr.
func (f *Failures) Fail(addr string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	lim, ok := f.peers[addr]
	if !ok {
		if len(f.peers) >= f.maxPeers {
			clear(f.peers) // a flood of addresses: start over rather than grow
		}
		lim = rate.NewLimiter(rate.Every(f.every), f.burst)
		f.peers[addr] = lim
	}
	lim.AllowN(f.now(), 1)
}
