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
	// reads are the snapshot reads in flight, one per tournament: a
	// visitor who arrives while one read in the current generation runs
	// shares its snapshot instead of queueing a read of its own (a room
	// of phones refreshing after one result makes one read, not one each).
	reads map[string]*snapRead
}

// snapRead is a snapshot read in flight; st and err are set before done is
// closed.
type snapRead struct {
	gen  uint64
	done chan struct{}
	st   *tournament.State
	err  error
	// abandoned: the read failed after its own request's context ended,
	// which says nothing of the database to those still waiting.
	abandoned bool
	shared    int // how many joined the read, under snapshots.mu
}

func newSnapshots(src tournament.EventSource, now func() time.Time) *snapshots {
	return &snapshots{src: src, now: now, m: map[string]*snapEntry{}, gen: map[string]uint64{}, subs: map[string]bool{},
		stop: map[string]func(){}, pages: map[string]map[string]pageEntry{}, used: map[string]time.Time{},
		reads: map[string]*snapRead{}}
}

// load returns tid's snapshot from the cache, from a read of the current
// generation already in flight, or from a read of its own.
func (c *snapshots) load(ctx context.Context, tid string, read func(context.Context, string) (*tournament.State, error)) (*tournament.State, error) {
	if c == nil || c.src == nil {
		return read(ctx, tid)
	}
	for {
		r, own, st := c.startRead(tid)
		if st != nil {
			return st, nil
		}
		if own {
			c.runRead(ctx, tid, r, read)
			return r.st, r.err
		}
		select {
		case <-r.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if r.abandoned && ctx.Err() == nil {
			continue // the read's own request gave up; this one reads again
		}
		return r.st, r.err
	}
}

// startRead returns tid's cached snapshot when it is current; else the read
// of the current generation in flight, or a new one that the caller owns
// (own) and runs with runRead.
func (c *snapshots) startRead(tid string) (r *snapRead, own bool, st *tournament.State) {
	c.mu.Lock()
	now := c.now()
	stops := c.sweepLocked(now)
	defer func() { runAll(stops) }()
	defer c.mu.Unlock()
	if e, ok := c.m[tid]; ok && e.gen == c.gen[tid] && now.Sub(e.at) < snapshotTTL {
		c.used[tid] = now
		return nil, false, e.st
	}
	if r := c.reads[tid]; r != nil && r.gen == c.gen[tid] {
		c.used[tid] = now
		r.shared++
		return r, false, nil
	}
	if !c.subs[tid] {
		if len(c.subs) >= maxCachedTournament {
			stops = append(stops, c.dropLocked(c.leastUsedLocked()))
		}
		c.subs[tid] = true
		// Subscribe before the first snapshot is read, so that no change
		// slips between the two.
		stops = append(stops, func() { c.follow(tid) })
	}
	c.used[tid] = now
	r = &snapRead{gen: c.gen[tid], done: make(chan struct{})}
	c.reads[tid] = r
	return r, true, nil
}

// runRead reads the snapshot of r, keeps it while no change was announced
// meanwhile, and hands it to those who wait for r.
func (c *snapshots) runRead(ctx context.Context, tid string, r *snapRead, read func(context.Context, string) (*tournament.State, error)) {
	at := c.now()
	r.abandoned = true // until read returns: a panic leaves the others to read again
	defer func() {
		c.mu.Lock()
		if c.reads[tid] == r {
			delete(c.reads, tid)
		}
		if r.err == nil && !r.abandoned && c.gen[tid] == r.gen && c.subs[tid] { // no change was announced while reading, and still followed
			c.m[tid] = &snapEntry{st: r.st, at: at, gen: r.gen}
		}
		c.mu.Unlock()
		close(r.done)
	}()
	r.st, r.err = read(ctx, tid)
	r.abandoned = r.err != nil && ctx.Err() != nil
	if tournament.ErrorKind(r.err) == tournament.KindNotFound {
		c.forget(tid) // follow only tournaments that exist
	}
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
	delete(c.reads, tid)
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
