package site

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/tournament"
)

// The event stream of a tournament (Server-Sent Events), in two forms.
//
// A public page's stream (/t/{tid}/events?for=pages, the URL in its
// data-events) says only what its page shows, at most once per
// pagesCoalesce (once per the window below when it is wider, a second at
// most: pagesStream.gap): an event "change" when the tournament's state changed,
// with the version v, the server's clock in microseconds when it heard of
// the change (tournament.Event.At), and the window w, in milliseconds, over
// which the pages watching the tournament are to spread their fetches of
// it (renderBudget.spread: the more streams, the wider, so that a thousand
// phones do not all ask within the same 150 ms); an event "clock" when the
// round clock did. The deals and
// confirmations of a full hall, which no public page shows, send nothing.
// A page's data-as-of is when its snapshot's read began, so a page whose
// data-as-of is not below the latest v holds the change; static/live.js
// fetches the page again only when it does not.
//
// The table page's stream (no ?for) sends one "change" per change, with
// its kind, round, table and v. Neither stream changes the pages' cache:
// that follows the events on its own (cache.go), once per process, and
// both hear a change only after the cache counted it, so a page fetched
// on hearing it is never the one from before (a table page's stream that
// heard the events itself raced the cache: a second phone at the table
// that fetched at once could get the page from before and stay behind
// it until the next change).
const pagesCoalesce = 500 * time.Millisecond

// eventJSON is the data of a "change" event.
type eventJSON struct {
	Kind  string `json:"kind"`
	Round int    `json:"round,omitempty"`
	Table int    `json:"table,omitempty"`
	V     int64  `json:"v"`
	W     int64  `json:"w,omitempty"` // the fetches' window, ms (public pages)
}

// helloJSON is the data of a "hello" event, a stream's first: the
// versions of the tournament's latest change of state (v) and of its
// round clock (c) that the server knows of (snapshots.hello), and the
// window w as in a change.
type helloJSON struct {
	V int64 `json:"v"`
	C int64 `json:"c"`
	W int64 `json:"w,omitempty"`
	H int64 `json:"h"` // the heartbeat, ms: the stream sends an event ("ping") at least this often
}

// ping is the heartbeat: an event, not a comment, so that a page can
// tell a stream the network dropped without a word (live.js, follow).
const ping = "event: ping\ndata: {}\n\n"

// hello is a stream's first event for tid, w the window of a public
// page's fetches.
func (h *Site) hello(tid string, w time.Duration) string {
	v, c := h.cache.hello(tid)
	b, _ := json.Marshal(helloJSON{V: v, C: c, W: w.Milliseconds(), H: h.cfg.Heartbeat.Milliseconds()})
	return "retry: 2000\nevent: hello\ndata: " + string(b) + "\n\n"
}

// Events streams a tournament's changes: first a "hello" (what a page may
// have missed while its stream was closed), a "ping" every heartbeat, and
// the events above.
func (h *Site) Events(c echo.Context) error {
	tid := c.Param("tid")
	if _, err := h.State(c.Request().Context(), tid); err != nil {
		return h.Fail(c, err)
	}
	w := c.Response()
	w.Header().Set(echo.HeaderContentType, "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	send := func(s string) error {
		// An event stream outlives the server's write timeout.
		_ = rc.SetWriteDeadline(time.Now().Add(h.cfg.Heartbeat + 10*time.Second))
		if _, err := fmt.Fprint(w, s); err != nil {
			return err
		}
		return rc.Flush()
	}
	if c.QueryParam("for") == "pages" {
		t := h.hub.join(tid)
		defer h.hub.leave(tid, t)
		// A change wakes every public stream of the tournament at once:
		// they send in turn, within the pages' budget (budget.go).
		shared := func(s string) error {
			done := h.budget.share(c.Request().Context())
			defer done()
			return send(s)
		}
		return h.pagesEvents(c, tid, t, shared)
	}
	ch, stop := h.cache.subscribe(tid)
	defer stop()
	if err := send(h.hello(tid, 0)); err != nil {
		return nil
	}
	beat := time.NewTicker(h.cfg.Heartbeat)
	defer beat.Stop()
	for {
		select {
		case <-c.Request().Context().Done():
			return nil
		case e := <-ch:
			if send(changeEvent(e, h.version(e))) != nil {
				return nil
			}
		case <-beat.C:
			if send(ping) != nil {
				return nil
			}
		}
	}
}

// version is e's version: when this process heard of it.
func (h *Site) version(e tournament.Event) int64 {
	if e.At.IsZero() {
		return h.cfg.Now().UnixMicro()
	}
	return e.At.UnixMicro()
}

// pagesEvents is a public page's stream: it wakes only when the topic
// has a change the pages show, never for a deal.
func (h *Site) pagesEvents(c echo.Context, tid string, t member, send func(string) error) error {
	seen := h.hub.read(t) // before the hello: a change after the hello's read wakes the stream
	if err := send(h.hello(tid, h.budget.spread(seen.streams))); err != nil {
		return nil
	}
	beat := time.NewTicker(h.cfg.Heartbeat)
	defer beat.Stop()
	var p pagesStream
	for {
		select {
		case <-c.Request().Context().Done():
			return nil
		case <-seen.changed:
		case <-p.timer():
			p.waiting = nil
		case <-beat.C:
			if send(ping) != nil {
				return nil
			}
		}
		now := h.hub.read(t)
		if now.state != seen.state {
			p.hear(tournament.Event{Kind: now.kind}, now.v)
		}
		if now.clock != seen.clock {
			p.hear(tournament.Event{Kind: kindClock}, now.c)
		}
		seen = now
		p.window = h.budget.spread(now.streams)
		if msg := p.due(time.Now()); msg != "" && send(msg) != nil {
			return nil
		}
	}
}

// hub follows the tournaments that public pages' streams watch: the
// pages' cache hears each tournament's events once per process and tells
// the hub after it counted them (cache.go, listen), so a thousand phones
// on the standings wake once per change of the state, not at each of the
// sixty deals a second the hall enters — and a stream never announces a
// change before the cache knows the page before it is stale (a viewer
// who fetched at once got the old page as current, and stayed behind it
// until the next change).
//
// A topic's streams wake in groups (wakeGroups), one group every
// wakeStep, not all at once: a thousand goroutines made runnable by one
// closed channel took both cores for tens of milliseconds, and a table's
// deal that arrived meanwhile waited behind them in the run queue (issue
// 28: the deals' p99 went from 11-16 ms to 33-40 ms with a thousand
// viewers while the server used a quarter of a core). A topic of fewer
// than wakeAllBelow streams wakes them all at once.
type hub struct {
	cache *snapshots
	now   func() time.Time
	sleep func(time.Duration) // between two groups' wakes; a test's step
	mu    sync.Mutex
	tops  map[string]*topic
}

// The waking of a topic's streams: wakeGroups groups, one every wakeStep
// (a pass of all of them takes wakeGroups×wakeStep, 32 ms, well within a
// stream's pagesCoalesce), unless the topic has fewer than wakeAllBelow
// streams.
const (
	wakeGroups   = 16
	wakeStep     = 2 * time.Millisecond
	wakeAllBelow = 64
)

// topic is one tournament's changes as the pages' streams see them.
type topic struct {
	streams int
	seen    topicState
	groups  [wakeGroups]wakeGroup
	cursor  int  // the group the pacer looks at next
	pacing  bool // a pacer is waking the due groups (hub.pace)
}

// wakeGroup is one group of a topic's streams: changed is closed when
// the group is woken; due says a change came that the group has not
// been woken for.
type wakeGroup struct {
	streams int
	changed chan struct{}
	due     bool
}

// topicState counts a topic's changes; changed is closed when the
// reading stream's group is woken after the next.
type topicState struct {
	state, clock uint64
	kind         string // the latest change of state and its version
	v            int64
	c            int64 // the version of the clock's latest change
	changed      chan struct{}
	streams      int // the topic's streams when read
}

// member is a stream's place in a topic: its group.
type member struct {
	t     *topic
	group int
}

// newHub makes the hub of the pages' streams, fed by cache.
func newHub(cache *snapshots, now func() time.Time) *hub {
	h := &hub{cache: cache, now: now, sleep: time.Sleep, tops: map[string]*topic{}}
	cache.listen(h.announce)
	return h
}

// join adds a stream to tid's topic, in its smallest group; the cache
// follows tid meanwhile.
func (h *hub) join(tid string) member {
	h.mu.Lock()
	t := h.tops[tid]
	if t == nil {
		t = &topic{}
		for i := range t.groups {
			t.groups[i].changed = make(chan struct{})
		}
		h.tops[tid] = t
	}
	g := 0
	for i := range t.groups {
		if t.groups[i].streams < t.groups[g].streams {
			g = i
		}
	}
	t.streams++
	t.groups[g].streams++
	h.mu.Unlock()
	h.cache.pin(tid)
	return member{t: t, group: g}
}

// leave removes a stream; the last one ends the topic.
func (h *hub) leave(tid string, m member) {
	h.cache.unpin(tid)
	h.mu.Lock()
	defer h.mu.Unlock()
	m.t.groups[m.group].streams--
	if m.t.streams--; m.t.streams == 0 && h.tops[tid] == m.t {
		delete(h.tops, tid)
	}
}

// read is the topic as m's stream sees it now.
func (h *hub) read(m member) topicState {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := m.t.seen
	s.streams = m.t.streams
	s.changed = m.t.groups[m.group].changed
	return s
}

// announce counts a change the pages show, already counted by the cache,
// and wakes tid's streams: at once when they are few, else group by
// group (pace).
func (h *hub) announce(tid string, e tournament.Event) {
	if e.Kind != kindClock && !stateKind(e.Kind) {
		return
	}
	v := e.At
	if v.IsZero() {
		v = h.now()
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	t := h.tops[tid]
	if t == nil {
		return
	}
	if e.Kind == kindClock {
		t.seen.clock++
		t.seen.c = v.UnixMicro()
	} else {
		t.seen.state++
		t.seen.kind, t.seen.v = e.Kind, v.UnixMicro()
	}
	for i := range t.groups {
		if t.groups[i].streams > 0 {
			t.groups[i].due = true
		}
	}
	if t.streams < wakeAllBelow {
		for i := range t.groups {
			t.wake(i)
		}
		return
	}
	if !t.pacing {
		t.pacing = true
		go h.pace(t)
	}
}

// pace wakes t's due groups one at a time, h.sleep(wakeStep) apart, in
// turn from where it stopped, until none is due: a change that comes
// while it goes marks the groups already woken due again.
func (h *hub) pace(t *topic) {
	for {
		h.mu.Lock()
		g := t.nextDue()
		if g < 0 {
			t.pacing = false
			h.mu.Unlock()
			return
		}
		t.wake(g)
		h.mu.Unlock()
		h.sleep(wakeStep)
	}
}

// nextDue is the next due group from t.cursor on, -1 when none is.
func (t *topic) nextDue() int {
	for i := range wakeGroups {
		g := (t.cursor + i) % wakeGroups
		if t.groups[g].due {
			t.cursor = (g + 1) % wakeGroups
			return g
		}
	}
	return -1
}

// wake wakes group g's streams if it is due.
func (t *topic) wake(g int) {
	if !t.groups[g].due {
		return
	}
	t.groups[g].due = false
	close(t.groups[g].changed)
	t.groups[g].changed = make(chan struct{})
}

// pagesStream is what a public page's stream has heard and not yet sent.
type pagesStream struct {
	kind    string // the latest change of state heard, "" when none waits
	v       int64
	clock   bool          // the round clock changed
	c       int64         // the version of its latest change
	window  time.Duration // the window of the pages' fetches after a change
	sent    time.Time
	waiting *time.Timer // fires when the next message may leave
}

// hear notes event e, heard at version v.
func (p *pagesStream) hear(e tournament.Event, v int64) {
	switch {
	case e.Kind == kindClock:
		p.clock, p.c = true, v
	case stateKind(e.Kind):
		p.kind, p.v = e.Kind, v
	}
}

// gap is the least time between two messages of the stream: pagesCoalesce,
// or the window of the fetches when it is wider, renderEvery at most. A
// page that spreads its fetch over the window takes the latest version
// when it fetches, and its refreshes are rendered at most every
// renderEvery: a message sooner than that makes no fetch, and a thousand
// streams' messages cost the server as much as their fetches (issue 28,
// the profile of 6 December: the public streams 21% of its CPU, the
// answers from the cache 28%).
func (p *pagesStream) gap() time.Duration {
	return max(pagesCoalesce, min(renderEvery, p.window))
}

// timer is the channel of the pending message's timer (nil: none).
func (p *pagesStream) timer() <-chan time.Time {
	if p.waiting == nil {
		return nil
	}
	return p.waiting.C
}

// due returns the message to send now: what waits, unless one was sent
// less than p.gap() ago (then a timer is set for when it may).
func (p *pagesStream) due(now time.Time) string {
	if p.kind == "" && !p.clock {
		return ""
	}
	if wait := p.sent.Add(p.gap()).Sub(now); wait > 0 {
		if p.waiting == nil {
			p.waiting = time.NewTimer(wait)
		}
		return ""
	}
	if p.waiting != nil {
		p.waiting.Stop()
		p.waiting = nil
	}
	msg := ""
	if p.kind != "" {
		b, _ := json.Marshal(eventJSON{Kind: p.kind, V: p.v, W: p.window.Milliseconds()})
		msg = "event: change\ndata: " + string(b) + "\n\n"
	}
	if p.clock {
		msg += "event: clock\ndata: {\"v\":" + strconv.FormatInt(p.c, 10) + "}\n\n"
	}
	p.kind, p.clock, p.sent = "", false, now
	return msg
}

func changeEvent(e tournament.Event, v int64) string {
	b, _ := json.Marshal(eventJSON{Kind: e.Kind, Round: e.Round, Table: e.Table, V: v})
	return "event: change\ndata: " + string(b) + "\n\n"
}
