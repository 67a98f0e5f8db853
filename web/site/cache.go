package site

import (
	"bytes"
	"compress/gzip"
	"context"
	"hash/fnv"
	"strconv"
	"strings"
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

// stamp counts a tournament's changes by what they touch: its state (what
// a snapshot holds), its round clock, and the rest (deals, confirmations,
// corrections), which no snapshot holds and only the console and table
// pages show.
type stamp struct{ state, clock, other uint64 }

// pageClass says which changes make a rendered page stale.
type pageClass int

const (
	// livePage: a public page, made of the snapshot and the clock (the
	// overview, standings, seating, a player's page, the big screen): the
	// 60 deals a second of a full hall leave it as it is.
	livePage pageClass = iota
	// anyPage: a page that reads more than the snapshot (the console's
	// pages, a game's result form): stale after any change.
	anyPage
)

// current reports whether a page rendered at stamp s is current at now.
func (s stamp) current(now stamp, class pageClass) bool {
	if class == anyPage {
		return s == now
	}
	return s.state == now.state && s.clock == now.clock
}

// pageEntry is a rendered public page of a tournament.
type pageEntry struct {
	body  []byte
	etag  string
	gz    []byte    // body compressed with gzip, once for all who accept it (nil: small)
	asOf  int64     // the page's version (page.AsOf; 0: not a live page)
	at    time.Time // when it was rendered
	stamp stamp     // the changes counted before its snapshot was read
	class pageClass
	hdr   entryHeaders
}

// entryHeaders are a cached page's header values, made once per render
// rather than at each of the thousand answers that follow it (issue 28:
// each Header.Set allocates). Each is a slice of one, never changed:
// net/http only reads a header's values, and an Add would copy it.
type entryHeaders struct {
	asOf             []string // X-Revisor-As-Of (nil: not a live page)
	etag, gzEtag     []string // of the body, of its gzip
	length, gzLength []string // Content-Length of each: the body in one write, not chunks
}

func headerValue(s string) []string { return []string{s} }

func newEntryHeaders(e *pageEntry) entryHeaders {
	h := entryHeaders{etag: headerValue(e.etag), length: headerValue(strconv.Itoa(len(e.body)))}
	if e.asOf > 0 {
		h.asOf = headerValue(strconv.FormatInt(e.asOf, 10))
	}
	if e.gz != nil {
		h.gzEtag = headerValue(strings.TrimSuffix(e.etag, `"`) + `-gz"`)
		h.gzLength = headerValue(strconv.Itoa(len(e.gz)))
	}
	return h
}

// pageFlight is a render of a page in flight: those who want the same
// page meanwhile wait for it rather than render it again.
type pageFlight struct {
	entry *pageEntry // set before the waiters are woken, when the render was kept
	woken groupWake  // the waiters, woken when the render ends
}

// groupWake wakes the many waiters of one event in groups, wakeStep
// apart (live.go): a render that ends with a few hundred fetches parked
// on it made them all runnable at once, and they took both cores ahead
// of the tables' deals (issue 28). join runs under the owner's lock;
// wakeGroupsOf after it, on the groups read under it.
type groupWake struct {
	groups  [wakeGroups]chan struct{}
	waiters int
}

// join adds a waiter and returns the channel it waits on.
func (w *groupWake) join() <-chan struct{} {
	g := w.waiters % wakeGroups
	if w.groups[g] == nil {
		w.groups[g] = make(chan struct{})
	}
	w.waiters++
	return w.groups[g]
}

// wakeGroupsOf wakes the groups of a groupWake, read under its owner's
// lock after the last join: at once when fewer than wakeAllBelow waited,
// else one every wakeStep (sleep) in a goroutine of its own.
func wakeGroupsOf(groups [wakeGroups]chan struct{}, waiters int, sleep func(time.Duration)) {
	if waiters < wakeAllBelow {
		for _, ch := range groups {
			if ch != nil {
				close(ch)
			}
		}
		return
	}
	go func() { // waiters ≥ wakeAllBelow > wakeGroups: every group has some
		for i, ch := range groups {
			if i > 0 {
				sleep(wakeStep)
			}
			close(ch)
		}
	}()
}

type pageKey struct{ tid, key string }

// snapshots caches snapshots per tournament. Snapshots are shared and
// must not be changed by their readers.
type snapshots struct {
	src   tournament.EventSource
	now   func() time.Time
	sleep func(time.Duration) // between two groups of a render's waiters (groupWake)
	mu    sync.Mutex
	m     map[string]*snapEntry
	gen   map[string]uint64 // bumped by every change of a tournament's state
	vers  map[string]stamp  // every change, by what it touches (gen is its state)
	marks map[string]mark   // what a stream opening on a followed tournament is told (hello)
	subs  map[string]bool   // tournaments whose events are followed
	stop  map[string]func() // ends the following of a tournament
	// pages holds rendered public pages by tournament and key (language
	// and URL), with the stamp they were rendered at; a stale one is kept
	// for its render time and ETag until the page is rendered again.
	pages   map[string]map[string]*pageEntry
	flights map[pageKey]*pageFlight
	// standings hold what was derived from each tournament's latest
	// snapshot, made once for all the pages that show it (derived).
	standings map[string]derivedMemo
	// tallies keep each tournament's totals of its closed rounds for its
	// next standings (tournament.StandingsWith).
	tallies map[string]*tournament.Tally
	used    map[string]time.Time // when each followed tournament was last viewed
	swept   time.Time            // when idle tournaments were last looked for
	// reads are the snapshot reads in flight, one per tournament: a
	// visitor who arrives while one read in the current generation runs
	// shares its snapshot instead of queueing a read of its own (a room
	// of phones refreshing after one result makes one read, not one each).
	reads map[string]*snapRead
	// pins counts the public pages' streams of each tournament (the hub's
	// topics): a pinned tournament stays followed however long ago it was
	// viewed, since its streams hear of changes only through the cache.
	pins map[string]int
	// heard is told of every event after the cache counted it (the hub,
	// live.go), so that a stream never announces a change a fetch would
	// not find: the page rendered before it is stale by then.
	heard func(tid string, e tournament.Event)
	// counted hears every event after the cache counted it too, under
	// the tournament it was counted for: the table pages' streams
	// (subscribe), which must not announce a change a fetch would not
	// find either.
	counted *tournament.Broker
}

// derivedMemo is what was derived from a tournament's latest snapshot.
type derivedMemo struct {
	st     *tournament.State
	values map[string]any
}

// snapRead is a snapshot read in flight; st and err are set before done is
// closed.
type snapRead struct {
	gen  uint64
	at   time.Time // when the read began
	done chan struct{}
	st   *tournament.State
	err  error
	// abandoned: the read failed after its own request's context ended,
	// which says nothing of the database to those still waiting.
	abandoned bool
	shared    int // how many joined the read, under snapshots.mu
}

func newSnapshots(src tournament.EventSource, now func() time.Time) *snapshots {
	return &snapshots{src: src, now: now, sleep: time.Sleep, m: map[string]*snapEntry{}, gen: map[string]uint64{}, vers: map[string]stamp{}, marks: map[string]mark{},
		subs: map[string]bool{}, stop: map[string]func(){}, pages: map[string]map[string]*pageEntry{},
		flights: map[pageKey]*pageFlight{}, standings: map[string]derivedMemo{}, tallies: map[string]*tournament.Tally{}, used: map[string]time.Time{},
		reads: map[string]*snapRead{}, pins: map[string]int{}, counted: tournament.NewBrokerAt(now)}
}

// load returns tid's snapshot from the cache, from a read of the current
// generation already in flight, or from a read of its own.
func (c *snapshots) load(ctx context.Context, tid string, read func(context.Context, string) (*tournament.State, error)) (*tournament.State, error) {
	st, _, err := c.loadAt(ctx, tid, read)
	return st, err
}

// loadAt is load that also says when the snapshot's read began: it holds
// every change committed before then (a page's version, live.go).
func (c *snapshots) loadAt(ctx context.Context, tid string, read func(context.Context, string) (*tournament.State, error)) (*tournament.State, time.Time, error) {
	if c == nil || c.src == nil {
		at := time.Now()
		if c != nil {
			at = c.now()
		}
		st, err := read(ctx, tid)
		return st, at, err
	}
	for {
		r, own, e := c.startRead(tid)
		if e != nil {
			return e.st, e.at, nil
		}
		if own {
			c.runRead(ctx, tid, r, read)
			return r.st, r.at, r.err
		}
		select {
		case <-r.done:
		case <-ctx.Done():
			return nil, time.Time{}, ctx.Err()
		}
		if r.abandoned && ctx.Err() == nil {
			continue // the read's own request gave up; this one reads again
		}
		return r.st, r.at, r.err
	}
}

// startRead returns tid's cached snapshot when it is current; else the read
// of the current generation in flight, or a new one that the caller owns
// (own) and runs with runRead.
func (c *snapshots) startRead(tid string) (r *snapRead, own bool, cached *snapEntry) {
	c.mu.Lock()
	now := c.now()
	stops := c.sweepLocked(now)
	defer func() { runAll(stops) }()
	defer c.mu.Unlock()
	if e, ok := c.m[tid]; ok && e.gen == c.gen[tid] && now.Sub(e.at) < snapshotTTL {
		c.used[tid] = now
		return nil, false, e
	}
	if r := c.reads[tid]; r != nil && r.gen == c.gen[tid] {
		c.used[tid] = now
		r.shared++
		return r, false, nil
	}
	// Subscribe before the first snapshot is read, so that no change
	// slips between the two.
	stops = append(stops, c.followLocked(tid)...)
	c.used[tid] = now
	r = &snapRead{gen: c.gen[tid], at: now, done: make(chan struct{})}
	c.reads[tid] = r
	return r, true, nil
}

// followLocked makes tid followed, under c.mu, taking the place of the
// tournament viewed longest ago when the cache is full; it returns what
// to run once c.mu is released (the subscription, an eviction).
func (c *snapshots) followLocked(tid string) []func() {
	if c.subs[tid] {
		return nil
	}
	var run []func()
	if len(c.subs) >= maxCachedTournament {
		if old := c.leastUsedLocked(); old != "" {
			run = append(run, c.dropLocked(old))
		}
	}
	c.subs[tid] = true
	return append(run, func() { c.follow(tid) })
}

// pin keeps tid followed while a stream watches it (a public page's, in
// the hub's topic, or a table page's: subscribe); unpin ends that.
func (c *snapshots) pin(tid string) {
	c.mu.Lock()
	c.pins[tid]++
	run := c.followLocked(tid)
	if _, ok := c.used[tid]; !ok {
		c.used[tid] = c.now()
	}
	c.mu.Unlock()
	runAll(run)
}

func (c *snapshots) unpin(tid string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pins[tid]--; c.pins[tid] <= 0 {
		delete(c.pins, tid)
	}
}

// listen sets who hears every event once the cache counted it.
func (c *snapshots) listen(heard func(tid string, e tournament.Event)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.heard = heard
}

// announce tells the listener of event e of tid, counted already.
func (c *snapshots) announce(tid string, e tournament.Event) {
	c.mu.Lock()
	heard := c.heard
	c.mu.Unlock()
	if heard != nil {
		heard(tid, e)
	}
	e.Tournament = tid // a resync reaches each followed tournament's subscribers once
	c.counted.Publish(e)
}

// subscribe follows tid's events as the cache counted them: each comes
// after the cache made what it makes stale so (a page fetched on hearing
// it shows the change). tid stays followed (pinned) until stop.
func (c *snapshots) subscribe(tid string) (<-chan tournament.Event, func()) {
	ch, cancel := c.counted.Subscribe(tid)
	c.pin(tid)
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			cancel()
			c.unpin(tid)
		})
	}
}

// runRead reads the snapshot of r, keeps it while no change was announced
// meanwhile, and hands it to those who wait for r.
func (c *snapshots) runRead(ctx context.Context, tid string, r *snapRead, read func(context.Context, string) (*tournament.State, error)) {
	r.abandoned = true // until read returns: a panic leaves the others to read again
	defer func() {
		c.mu.Lock()
		if c.reads[tid] == r {
			delete(c.reads, tid)
		}
		if r.err == nil && !r.abandoned && c.gen[tid] == r.gen && c.subs[tid] { // no change was announced while reading, and still followed
			c.m[tid] = &snapEntry{st: r.st, at: r.at, gen: r.gen}
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
// slips between the two. The mark's since is taken once it exists.
func (c *snapshots) follow(tid string) {
	ch, cancel := c.src.Subscribe(tid)
	done := make(chan struct{})
	stop := func() { cancel(); close(done) }
	c.mu.Lock()
	followed := c.subs[tid]
	if followed {
		c.stop[tid] = stop
		c.marks[tid] = mark{since: c.now().UnixMicro()}
	}
	c.mu.Unlock()
	if !followed { // forgotten while subscribing
		stop()
		return
	}
	go func() {
		for {
			select {
			case e := <-ch:
				c.changed(tid, e)
				c.announce(tid, e)
			case <-done:
				return
			}
		}
	}()
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
	delete(c.vers, tid)
	delete(c.marks, tid)
	delete(c.m, tid)
	delete(c.pages, tid)
	delete(c.standings, tid)
	delete(c.tallies, tid)
	for k := range c.flights {
		if k.tid == tid {
			delete(c.flights, k)
		}
	}
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
		if now.Sub(at) >= cacheIdle && c.pins[tid] == 0 {
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
		if c.pins[tid] == 0 && (oldest == "" || t.Before(at)) {
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

// invalidate forgets tid's snapshot and pages: it changed (a write of
// this process, before the page that shows it).
func (c *snapshots) invalidate(tid string) { c.changed(tid, tournament.Event{}) }

// Kinds of change that no snapshot holds (tournament.Event.Kind): a deal,
// a player's confirmation, a deal's correction (a corrected result is a
// game_results change of its own), and the round clock, which the pages
// read beside the snapshot.
const (
	kindDeals         = "game_deals"
	kindConfirmations = "game_confirmations"
	kindCorrections   = "deal_corrections"
	kindClock         = "round_clocks"
	// kindQueueReports is a phone's report of its queue (the room view
	// and the console show it).
	kindQueueReports = "queue_reports"
)

// kindRounds is a change of the rounds (a draw, a round's end): a change
// of state, and of the clock, which lives in its round.
const kindRounds = "rounds"

// stateKind reports whether a change of kind may change a snapshot;
// unknown kinds (and "", a write of this process) may.
func stateKind(kind string) bool {
	switch kind {
	case kindDeals, kindConfirmations, kindCorrections, kindClock, kindQueueReports:
		return false
	}
	return true
}

// changed counts change e of tid: a change of its state forgets its
// snapshot; every change makes the pages it touches stale (they stay
// stored until rendered again, for their ETags and render times).
func (c *snapshots) changed(tid string, e tournament.Event) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.subs[tid] {
		return // nothing of it is kept
	}
	at := e.At
	if at.IsZero() {
		at = c.now()
	}
	v, m := c.vers[tid], c.marks[tid]
	switch kind := e.Kind; {
	case kind == kindClock:
		v.clock++
		m.clock = max(m.clock, at.UnixMicro())
	case !stateKind(kind):
		v.other++
	default:
		v.state++
		c.gen[tid]++
		delete(c.m, tid)
		m.state = max(m.state, at.UnixMicro())
		if kind == kindRounds || kind == tournament.KindResync { // the clock lives in its round; a resync may hide its change
			m.clock = max(m.clock, at.UnixMicro())
		}
	}
	c.vers[tid] = v
	if _, ok := c.marks[tid]; ok {
		c.marks[tid] = m
	}
}

// mark is what this process counted of a followed tournament, as
// versions (the server's clock in microseconds, as a change's v): when it
// began to follow it, its latest change of state, and its clock's latest
// change (a new round's or a resync's included).
type mark struct{ since, state, clock int64 }

// hello returns what a stream that opens now tells its page (live.go):
// the version of tid's latest change of state and of its clock's, as this
// process knows them; when it began to follow tid is the earliest either
// can be, since what came before is unknown to it. A page that shows an
// older version missed a change while its stream was closed (between its
// render and the stream's opening, or while the network was down).
func (c *snapshots) hello(tid string) (state, clock int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m, ok := c.marks[tid]
	if !ok { // not followed (yet): anything may have changed
		now := c.now().UnixMicro()
		return now, now
	}
	return max(m.since, m.state), max(m.since, m.clock)
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

// pageTTL bounds how long a rendered page is served without a render,
// should an event be lost (the listener's reconnection announces a resync
// anyway).
const pageTTL = 30 * time.Second

// page returns a rendered page of tid, if one is current.
func (c *snapshots) page(tid, key string) ([]byte, bool) {
	if c == nil || c.src == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.currentLocked(tid, key, c.now())
	if e == nil {
		return nil, false
	}
	return e.body, true
}

func (c *snapshots) currentLocked(tid, key string, now time.Time) *pageEntry {
	e := c.pages[tid][key]
	if e == nil || !e.stamp.current(c.vers[tid], e.class) || now.Sub(e.at) >= pageTTL ||
		(e.class == anyPage && now.Sub(e.at) >= snapshotTTL) {
		return nil
	}
	c.used[tid] = now
	return e
}

// pageTurn is what pageFor tells a request for a page.
type pageTurn struct {
	entry *pageEntry  // the current page: serve it
	wait  *pageFlight // a render in flight: wait for it (woken), then ask again
	woken <-chan struct{}
	own   bool       // render it, not before due, at stamp
	due   time.Time  // the earliest the render may begin
	stamp stamp      // the changes counted before the render's snapshot
	last  *pageEntry // the page rendered last, stale (nil: none)
	// cached says the cache gave the turn: with own, the page rendered is
	// kept (pageCacheSlot) and endRender must be called.
	cached bool
	// flight is the own render's flight, whose waiters endRender wakes
	// (nil: none can wait for it).
	flight *pageFlight
}

// renderEvery is how often a page is rendered at most for the live
// refreshes of its viewers (X-Revisor-Refresh): however fast results
// arrive, a page of a language is rendered about once a second, and all
// its viewers share it.
const renderEvery = time.Second

// pageFor says how a request for page key of tid is answered: from the
// cache, by waiting for a render in flight, or by rendering it (own; the
// caller must call endRender). A refresh renders at most every
// renderEvery; a visitor's own navigation at once.
func (c *snapshots) pageFor(tid, key string, class pageClass, refresh bool) pageTurn {
	if c == nil || c.src == nil {
		return pageTurn{own: true}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if e := c.currentLocked(tid, key, now); e != nil {
		return pageTurn{entry: e}
	}
	k := pageKey{tid, key}
	if f := c.flights[k]; f != nil {
		return pageTurn{wait: f, woken: f.woken.join()}
	}
	t := pageTurn{own: true, due: now, stamp: c.vers[tid], last: c.pages[tid][key], cached: true}
	if t.last != nil && refresh {
		t.due = t.last.at.Add(renderEvery)
	}
	if c.subs[tid] {
		t.flight = &pageFlight{}
		c.flights[k] = t.flight
	}
	return t
}

// endRender ends a render that pageFor gave to its caller and wakes
// those who waited for it. A flight dropped meanwhile (dropLocked) is
// woken too, without the page: its waiters ask again.
func (c *snapshots) endRender(tid, key string, t pageTurn) {
	if c == nil || !t.cached {
		return
	}
	c.mu.Lock()
	k := pageKey{tid, key}
	if f := c.flights[k]; f != nil && f == t.flight {
		delete(c.flights, k)
		f.entry = c.pages[tid][key]
		if f.entry != nil && f.entry.stamp != t.stamp {
			f.entry = nil // not this render's
		}
	}
	var groups [wakeGroups]chan struct{}
	waiters := 0
	if t.flight != nil {
		groups, waiters = t.flight.woken.groups, t.flight.woken.waiters
	}
	c.mu.Unlock()
	wakeGroupsOf(groups, waiters, c.sleep)
}

// maxCachedPages bounds the rendered pages kept per tournament (searches
// and players' pages make many URLs; a page of 200 players is about 100
// kB, a player's page a few).
const maxCachedPages = 2048

// putPage stores a page rendered at stamp s, stale already if tid has
// changed since (it still tells when the page was rendered last).
func (c *snapshots) putPage(tid, key string, s stamp, class pageClass, at time.Time, asOf int64, body []byte) *pageEntry {
	e := &pageEntry{body: body, etag: etagOf(body), gz: gzipped(body), asOf: asOf, at: at, stamp: s, class: class}
	e.hdr = newEntryHeaders(e)
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.subs[tid] {
		return e
	}
	if c.pages[tid] == nil || len(c.pages[tid]) >= maxCachedPages {
		c.pages[tid] = map[string]*pageEntry{}
	}
	c.pages[tid][key] = e
	return e
}

// gzipped is body compressed for the visitors who accept gzip, made once
// per render: a thousand phones fetching an 800-player standings page of
// 240 kB after a result would otherwise copy 240 MB. Small pages stay as
// they are (nil).
func gzipped(body []byte) []byte {
	if len(body) < 2048 {
		return nil
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if _, err := zw.Write(body); err != nil || zw.Close() != nil {
		return nil
	}
	return buf.Bytes()
}

// etagOf is a page's entity tag: a hash of its bytes, so that a page
// rendered again the same answers If-None-Match with 304 as well.
func etagOf(body []byte) string {
	h := fnv.New64a()
	h.Write(body)
	return `"` + strconv.FormatUint(h.Sum64(), 36) + `"`
}

// derived returns what build derives from snapshot st under name (the
// standings, the standings in a language's words), made once per snapshot
// of a followed tournament: the overview, the standings, the big screen
// and every player's page show the same rows. Only the latest snapshot's
// are kept.
func (c *snapshots) derived(st *tournament.State, name string, build func() any) any {
	if c == nil || c.src == nil {
		return build()
	}
	tid := st.Tournament.ID
	c.mu.Lock()
	if m := c.standings[tid]; m.st == st {
		if v, ok := m.values[name]; ok {
			c.mu.Unlock()
			return v
		}
	}
	c.mu.Unlock()
	v := build()
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.m[tid]; e == nil || e.st != st {
		return v // not the current snapshot: keep nothing of it
	}
	m := c.standings[tid]
	if m.st != st {
		m = derivedMemo{st: st, values: map[string]any{}}
		c.standings[tid] = m
	}
	m.values[name] = v
	return v
}

// standingsRows computes st's standings from the totals of its closed rounds
// kept since the tournament's last standings, adding only the open
// rounds' results (tournament.StandingsWith: the same rows as
// tournament.Standings, at a cost that does not grow with the rounds).
func (c *snapshots) standingsRows(st *tournament.State) []tournament.Standing {
	if c == nil || c.src == nil {
		return tournament.Standings(st)
	}
	tid := st.Tournament.ID
	c.mu.Lock()
	prev := c.tallies[tid]
	c.mu.Unlock()
	rows, next := tournament.StandingsWith(prev, st)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.subs[tid] {
		c.tallies[tid] = next
	}
	return rows
}
