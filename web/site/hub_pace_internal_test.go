package site

// The waking of the pages' streams in groups (live.go, hub.pace): a
// thousand streams woken by one change at once took both cores, and the
// tables' deals waited behind them (issue 28).

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/tournament"
)

// watcher is a stream as the test plays it: the channel it waits on and
// the changes of state it has seen when woken.
type watcher struct {
	m     member
	ch    chan struct{}
	state uint64
	wakes int
}

// poll wakes the watchers whose channel is closed, as pagesEvents does:
// read the topic again and wait on the new channel. It returns how many
// woke.
func poll(h *hub, ws []*watcher) int {
	n := 0
	for _, w := range ws {
		select {
		case <-w.ch:
			s := h.read(w.m)
			w.ch, w.state = s.changed, s.state
			w.wakes++
			n++
		default:
		}
	}
	return n
}

// stepper is a waker's sleep between two groups that the test steps by
// hand: it says asleep when the waker sleeps, and lets it go on at step.
func stepper(t *testing.T) (sleep func(time.Duration), asleep, step chan struct{}) {
	asleep, step = make(chan struct{}), make(chan struct{})
	return func(d time.Duration) {
		if d != wakeStep {
			t.Errorf("the waker sleeps %v between groups, want %v", d, wakeStep)
		}
		asleep <- struct{}{}
		<-step
	}, asleep, step
}

// TestHubWakesStreamsInGroups: with a thousand streams, a change wakes
// one group at a time, a step apart, every stream once; a second change
// in the middle of the pass wakes every stream again, those woken before
// it too, and none is left behind.
func TestHubWakesStreamsInGroups(t *testing.T) {
	h := newHub(newSnapshots(tournament.NewBroker(), time.Now), time.Now)
	var asleep, step chan struct{}
	h.sleep, asleep, step = stepper(t)
	const streams = 1000
	var ws []*watcher
	for range streams {
		w := &watcher{m: h.join("t1")}
		w.ch = h.read(w.m).changed
		ws = append(ws, w)
	}
	defer func() {
		for _, w := range ws {
			h.leave("t1", w.m)
		}
	}()
	most := (streams + wakeGroups - 1) / wakeGroups
	h.announce("t1", tournament.Event{Kind: "game_results", At: time.Now()})
	woken, passes := 0, 0
	for {
		select {
		case <-asleep:
		case <-time.After(5 * time.Second):
			t.Fatalf("the pacer stopped after %d groups, %d streams woken", passes, woken)
		}
		passes++
		n := poll(h, ws)
		if n == 0 || n > most {
			t.Fatalf("group %d: %d streams woke at once, want 1 to %d", passes, n, most)
		}
		woken += n
		if passes == 5 {
			h.announce("t1", tournament.Event{Kind: "round_closed", At: time.Now()})
		}
		if passes == wakeGroups+5 {
			break
		}
		step <- struct{}{}
	}
	done := make(chan struct{})
	go func() { step <- struct{}{}; close(done) }()
	<-done
	for deadline := time.Now().Add(5 * time.Second); ; {
		h.mu.Lock()
		pacing := ws[0].m.t.pacing
		h.mu.Unlock()
		if !pacing {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the pacer did not stop once every group was woken")
		}
		time.Sleep(time.Millisecond)
	}
	if n := poll(h, ws); n != 0 {
		t.Errorf("%d streams woke after the last group's step", n)
	}
	for i, w := range ws {
		if w.state != 2 {
			t.Fatalf("stream %d saw %d changes of state when last woken, want 2", i, w.state)
		}
	}
	if want := streams + 5*most; woken < streams+4*most || woken > want {
		t.Errorf("%d wakes in all, want about %d: every stream once, the first five groups twice", woken, want)
	}
}

// TestHubWakesFewStreamsAtOnce: a tournament with a few viewers wakes
// them all at the change, without waiting for a pacer.
func TestHubWakesFewStreamsAtOnce(t *testing.T) {
	h := newHub(newSnapshots(tournament.NewBroker(), time.Now), time.Now)
	h.sleep = func(time.Duration) { t.Error("a few streams were woken by the pacer") }
	var ws []*watcher
	for range wakeAllBelow - 1 {
		w := &watcher{m: h.join("t1")}
		w.ch = h.read(w.m).changed
		ws = append(ws, w)
	}
	h.announce("t1", tournament.Event{Kind: kindClock})
	if n := poll(h, ws); n != len(ws) {
		t.Errorf("%d of %d streams woke at the change", n, len(ws))
	}
	for _, w := range ws {
		h.leave("t1", w.m)
	}
}

// TestParkedFetchesWakeInGroups: a thousand fetches parked on a page's
// render are woken a group at a time when it ends, each with the page
// rendered; a few are woken at once.
func TestParkedFetchesWakeInGroups(t *testing.T) {
	for _, waiters := range []int{wakeAllBelow - 1, 1000} {
		t.Run(fmt.Sprint(waiters), func(t *testing.T) {
			c := newSnapshots(tournament.NewBroker(), time.Now)
			var asleep, step chan struct{}
			c.sleep, asleep, step = stepper(t)
			if _, err := c.load(t.Context(), "t1", func(context.Context, string) (*tournament.State, error) { return &tournament.State{}, nil }); err != nil {
				t.Fatal(err)
			}
			const key = "en /t/t1/standings"
			own := c.pageFor("t1", key, livePage, true)
			var parked []pageTurn
			for range waiters {
				w := c.pageFor("t1", key, livePage, true)
				if w.wait == nil || w.woken == nil {
					t.Fatal("a fetch during the render did not wait for it")
				}
				parked = append(parked, w)
			}
			c.putPage("t1", key, own.stamp, livePage, time.Now(), 1, []byte("page"))
			c.endRender("t1", key, own)
			woken := func() int {
				n := 0
				for _, w := range parked {
					select {
					case <-w.woken:
						if e := w.wait.entry; e == nil || string(e.body) != "page" {
							t.Fatalf("a woken fetch found %v, want the page rendered", e)
						}
						n++
					default:
					}
				}
				return n
			}
			most := (waiters + wakeGroups - 1) / wakeGroups
			if waiters < wakeAllBelow {
				if n := woken(); n != waiters {
					t.Fatalf("%d of %d waiters woken when the render ended", n, waiters)
				}
				return
			}
			for g := 1; g < wakeGroups; g++ {
				select {
				case <-asleep:
				case <-time.After(5 * time.Second):
					t.Fatalf("the waker stopped after %d groups", g)
				}
				if n := woken(); n > g*most || n < g*(waiters/wakeGroups) {
					t.Fatalf("after %d groups %d of %d waiters are woken, want %d at most", g, n, waiters, g*most)
				}
				step <- struct{}{}
			}
			for deadline := time.Now().Add(5 * time.Second); woken() != waiters; time.Sleep(time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("%d of %d waiters woken in the end", woken(), waiters)
				}
			}
		})
	}
}
