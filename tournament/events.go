package tournament

import (
	"sync"
	"time"
)

// Event says that something a tournament's pages show has changed: a
// result, a deal, a round drawn or closed, a player registered or changed.
// Events carry no data beyond where the change happened; a page that hears
// one reads the tournament again.
type Event struct {
	// Tournament is the tournament that changed; empty means every
	// tournament may have changed (the listener lost its connection and
	// events may have been missed).
	Tournament string
	// Kind names what changed: "game_results", "game_deals", "rounds",
	// "players", "tournaments", "tie_resolutions" or "resync".
	Kind  string
	Round int // 0 when the change belongs to no round
	Table int // 0 when the change belongs to no table
	// At is when this process heard of the change (set by Publish): every
	// subscriber sees the same instant, so a page read after it holds the
	// change — the version a page's event stream announces.
	At time.Time
}

// EventSource lets a page follow one tournament's changes. The web layer
// depends on it; tournament/postgres feeds a Broker from PostgreSQL's
// LISTEN/NOTIFY, so every server process hears every other's changes.
type EventSource interface {
	// Subscribe returns a channel that receives the events of tournament
	// tid (and resync events) and a function that ends the subscription.
	// Events are dropped for a subscriber that does not keep up: a page
	// needs only to know that something changed since it last read.
	Subscribe(tid string) (<-chan Event, func())
}

// subscriberBuffer is how many events wait for a slow subscriber before
// further ones are dropped.
const subscriberBuffer = 8

// Broker fans events out to subscribers. The zero value is not usable;
// call NewBroker.
type Broker struct {
	mu   sync.Mutex
	subs map[string]map[chan Event]struct{}
	now  func() time.Time
}

// NewBroker returns a broker without subscribers, on the system clock.
func NewBroker() *Broker { return NewBrokerAt(time.Now) }

// NewBrokerAt returns a broker whose events' At are read from now.
func NewBrokerAt(now func() time.Time) *Broker {
	return &Broker{subs: make(map[string]map[chan Event]struct{}), now: now}
}

// Subscribe implements EventSource.
func (b *Broker) Subscribe(tid string) (<-chan Event, func()) {
	ch := make(chan Event, subscriberBuffer)
	b.mu.Lock()
	if b.subs[tid] == nil {
		b.subs[tid] = make(map[chan Event]struct{})
	}
	b.subs[tid][ch] = struct{}{}
	b.mu.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			delete(b.subs[tid], ch)
			if len(b.subs[tid]) == 0 {
				delete(b.subs, tid)
			}
		})
	}
}

// Publish delivers e to the subscribers of its tournament, or to every
// subscriber when e names no tournament, with At set when zero. It never
// blocks.
func (b *Broker) Publish(e Event) {
	if e.At.IsZero() {
		e.At = b.now()
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for tid, set := range b.subs {
		if e.Tournament != "" && tid != e.Tournament {
			continue
		}
		for ch := range set {
			select {
			case ch <- e:
			default:
				overflow(ch, e)
			}
		}
	}
}

// KindResync is the kind of an event that says changes may have been
// missed: the listener reconnected, or a subscriber did not keep up.
const KindResync = "resync"

// overflow delivers e to a subscriber whose buffer is full. A change of
// one table's play (a deal, a confirmation, a deal's correction: sixty a
// second in a full hall) is dropped, as before: a page needs only to know
// that something changed. Any other change is never dropped: the oldest
// event waiting gives its place to a resync at e's instant, a change of
// everything and so a superset of both (issue 28: a result dropped behind
// a hall's deals left the pages' cache holding a page the viewers had
// been told was old, and they starved until the next result). Called
// under b.mu: Publish is the only sender on ch.
func overflow(ch chan Event, e Event) {
	switch e.Kind {
	case "game_deals", "game_confirmations", "deal_corrections":
		return
	}
	select {
	case <-ch:
	default:
	}
	select {
	case ch <- Event{Tournament: e.Tournament, Kind: KindResync, At: e.At}:
	default:
	}
}

// Subscribers returns how many subscriptions are open (for metrics and
// tests).
func (b *Broker) Subscribers() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, set := range b.subs {
		n += len(set)
	}
	return n
}
