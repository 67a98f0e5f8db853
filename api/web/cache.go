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
const (
	snapshotTTL         = time.Second
	maxCachedTournament = 256
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
}

func newSnapshots(src tournament.EventSource, now func() time.Time) *snapshots {
	return &snapshots{src: src, now: now, m: map[string]*snapEntry{}, gen: map[string]uint64{}, subs: map[string]bool{},
		stop: map[string]func(){}, pages: map[string]map[string]pageEntry{}}
}

// load returns tid's snapshot from the cache or from read.
func (c *snapshots) load(ctx context.Context, tid string, read func(context.Context, string) (*tournament.State, error)) (*tournament.State, error) {
	if c == nil || c.src == nil {
		return read(ctx, tid)
	}
	c.mu.Lock()
	if e, ok := c.m[tid]; ok && e.gen == c.gen[tid] && c.now().Sub(e.at) < snapshotTTL {
		c.mu.Unlock()
		return e.st, nil
	}
	follow := !c.subs[tid] && len(c.subs) < maxCachedTournament
	if follow {
		c.subs[tid] = true
	}
	cacheable := c.subs[tid]
	gen, at := c.gen[tid], c.now()
	c.mu.Unlock()
	if follow {
		c.follow(tid)
	}
	st, err := read(ctx, tid)
	if tournament.ErrorKind(err) == tournament.KindNotFound {
		c.forget(tid) // follow only tournaments that exist
	}
	if err != nil || !cacheable {
		return st, err
	}
	c.mu.Lock()
	if c.gen[tid] == gen { // no change was announced while reading
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
	c.mu.Lock()
	c.stop[tid] = func() { cancel(); close(done) }
	c.mu.Unlock()
}

// forget stops following tid (it does not exist) and frees its place.
func (c *snapshots) forget(tid string) {
	c.mu.Lock()
	stop := c.stop[tid]
	delete(c.stop, tid)
	delete(c.subs, tid)
	delete(c.gen, tid)
	delete(c.m, tid)
	delete(c.pages, tid)
	c.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// invalidate forgets tid's snapshot: it changed.
func (c *snapshots) invalidate(tid string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
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
	if !ok || e.gen != c.gen[tid] || c.now().Sub(e.at) >= snapshotTTL {
		return nil, false
	}
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
