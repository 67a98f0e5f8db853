package web

import (
	"context"
	"sync"
	"time"

	"github.com/revisor-sm/revisor/tournament"
)

// Snapshot cache: a tournament's pages are read far more often than it
// changes (a room of phones refreshing the standings), so each process
// keeps the latest snapshot of a tournament until an event says it
// changed — events come from every process through LISTEN/NOTIFY — and
// never longer than snapshotTTL, which bounds staleness should events be
// lost.
//
// A followed tournament holds a subscription (a goroutine and a place in
// the event broker) and its cached pages. Neither lives for good: a
// tournament not viewed for cacheIdle is forgotten at the next visit of
// any tournament after it (looked for at most every sweepEvery), and when
// maxCachedTournament are followed a new one takes the place of the one
// viewed longest ago.
const (
	snapshotTTL         = time.Second
	maxCachedTournament = 256
	cacheIdle           = 10 * time.Minute
	sweepEvery          = time.Minute
)

type snapEntry struct {
	st  *tournament.State
	at  time.Time
	gen uint64 // the generation the snapshot was read in
}

// pageEntry is a rendered public page of a tournament.
type pageEntry struct {
	body []byte
	at   time.Time
	gen  uint64
}

// snapshots caches snapshots per tournament. Snapshots are shared and
// must not be changed by their readers.
type snapshots struct {
	src  tournament.EventSource
	now  func() time.Time
	mu   sync.Mutex
	m    map[string]*snapEntry
	gen  map[string]uint64 // bumped by every change event
	subs map[string]bool   // tournaments whose events are followed
	stop map[string]func() // ends the following of a tournament
	// pages holds rendered public pages by tournament and key (language
	// and URL), valid in the generation they were rendered from.
	pages map[string]map[string]pageEntry
	used  map[string]time.Time // when each followed tournament was last viewed
	swept time.Time            // when idle tournaments were last looked for
}

func newSnapshots(src tournament.EventSource, now func() time.Time) *snapshots {
	return &snapshots{src: src, now: now, m: map[string]*snapEntry{}, gen: map[string]uint64{}, subs: map[string]bool{},
		stop: map[string]func(){}, pages: map[string]map[string]pageEntry{}, used: map[string]time.Time{}}
}

// load returns tid's snapshot from the cache or from read.
func (c *snapshots) load(ctx context.Context, tid string, read func(context.Context, string) (*tournament.State, error)) (*tournament.State, error) {
	if c == nil || c.src == nil {
		return read(ctx, tid)
	}
	c.mu.Lock()
	now := c.now()
	stops := c.sweepLocked(now)
	if e, ok := c.m[tid]; ok && e.gen == c.gen[tid] && now.Sub(e.at) < snapshotTTL {
		c.used[tid] = now
		c.mu.Unlock()
		runAll(stops)
		return e.st, nil
	}
	follow := !c.subs[tid]
	if follow {
		if len(c.subs) >= maxCachedTournament {
			stops = append(stops, c.dropLocked(c.leastUsedLocked()))
		}
		c.subs[tid] = true
	}
	c.used[tid] = now
	gen, at := c.gen[tid], now
	c.mu.Unlock()
	runAll(stops)
	if follow {
		c.follow(tid)
	}
	st, err := read(ctx, tid)
	if tournament.ErrorKind(err) == tournament.KindNotFound {
		c.forget(tid) // follow only tournaments that exist
	}
	if err != nil {
		return st, err
	}
	c.mu.Lock()
	if c.gen[tid] == gen && c.subs[tid] { // no change was announced while reading, and still followed
		c.m[tid] = &snapEntry{st: st, at: at, gen: gen}
	}
	c.mu.Unlock()
	return st, nil
}

// follow subscribes to tid's events for the life of the process; the
// subscription exists before the first snapshot is read, so no change
// slips between the two.
func (c *snapshots) follow(tid string) {
	ch, cancel := c.src.Subscribe(tid)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-ch:
				c.invalidate(tid)
			case <-done:
				return
			}
		}
	}()
	stop := func() { cancel(); close(done) }
	c.mu.Lock()
	followed := c.subs[tid]
	if followed {
		c.stop[tid] = stop
	}
	c.mu.Unlock()
	if !followed { // forgotten while subscribing
		stop()
	}
}

// forget stops following tid (it does not exist) and frees its place.
func (c *snapshots) forget(tid string) {
	c.mu.Lock()
	stop := c.dropLocked(tid)
	c.mu.Unlock()
	stop()
}

// dropLocked forgets everything of tid under c.mu and returns what ends
// its subscription, to be called after c.mu is released.
func (c *snapshots) dropLocked(tid string) func() {
	stop := c.stop[tid]
	delete(c.stop, tid)
	delete(c.subs, tid)
	delete(c.gen, tid)
	delete(c.m, tid)
	delete(c.pages, tid)
	delete(c.used, tid)
	if stop == nil {
		return func() {}
	}
	return stop
}

// sweepLocked forgets, under c.mu, the tournaments not viewed for
// cacheIdle, at most every sweepEvery, and returns what ends their
// subscriptions.
func (c *snapshots) sweepLocked(now time.Time) []func() {
	if now.Sub(c.swept) < sweepEvery {
		return nil
	}
	c.swept = now
	var stops []func()
	for tid, at := range c.used {
		if now.Sub(at) >= cacheIdle {
			stops = append(stops, c.dropLocked(tid))
		}
	}
	return stops
}

// leastUsedLocked is the followed tournament viewed longest ago.
func (c *snapshots) leastUsedLocked() string {
	var (
		oldest string
		at     time.Time
	)
	for tid, t := range c.used {
		if oldest == "" || t.Before(at) {
			oldest, at = tid, t
		}
	}
	return oldest
}

func runAll(fs []func()) {
	for _, f := range fs {
		f()
	}
}

// invalidate forgets tid's snapshot: it changed.
func (c *snapshots) invalidate(tid string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.subs[tid] {
		return // nothing of it is kept
	}
	c.gen[tid]++
	delete(c.m, tid)
	delete(c.pages, tid)
}

// generation returns tid's current generation; a page rendered from a
// snapshot read after this call may be stored under it.
func (c *snapshots) generation(tid string) (uint64, bool) {
	if c == nil || c.src == nil {
		return 0, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen[tid], c.subs[tid]
}

// page returns a rendered page of tid, if one is current.
func (c *snapshots) page(tid, key string) ([]byte, bool) {
	if c == nil || c.src == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.pages[tid][key]
	now := c.now()
	if !ok || e.gen != c.gen[tid] || now.Sub(e.at) >= snapshotTTL {
		return nil, false
	}
	c.used[tid] = now
	return e.body, true
}

// maxCachedPages bounds the rendered pages kept per tournament (searches
// make many URLs; a page of 200 players is about 100 kB).
const maxCachedPages = 64

// putPage stores a page rendered in generation gen, unless tid has changed
// since.
func (c *snapshots) putPage(tid, key string, gen uint64, at time.Time, body []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen[tid] != gen || !c.subs[tid] {
		return
	}
	if c.pages[tid] == nil || len(c.pages[tid]) >= maxCachedPages {
		c.pages[tid] = map[string]pageEntry{}
	}
	c.pages[tid][key] = pageEntry{body: body, at: at, gen: gen}
}
