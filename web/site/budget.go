package site

import (
	"context"
	"runtime"
	"sync"
	"time"
)

// renderBudget bounds the pages' work under way at once — renders, the
// answers from the page cache and the public streams' messages — so that the
// tables' writes keep a core whatever the viewers ask for (issue 28: with
// a thousand phones on the standings the deals waited seconds for the
// CPU). A render beyond the budget waits for a place: a page that was
// rendered before at most wait, then it is served as it was (its viewers'
// scripts fetch it again at the next change); a page never rendered at
// most firstWait, then it is refused with 503 busy.
//
// An answer from the cache, or a stream's message, is short but comes by
// the thousand at once: a result makes every viewer's page a new one, and
// a thousand phones fetch it within the same few milliseconds (the 1,000
// viewers of issue 28 doubled the deals' p99 while using a sixth of a
// core on average). Each takes a place too (share), waiting at most
// shareWait, then going ahead all the same; and it keeps the place at
// most shareHold, so a phone that reads its answer slowly holds up
// nobody for long.
type renderBudget struct {
	slots           chan struct{}
	wait, firstWait time.Duration
}

// renderWait is how long a render of a page rendered before waits for a
// place in the budget; a first render waits renderFirstWait.
const (
	renderWait      = 2 * time.Second
	renderFirstWait = 10 * time.Second
)

// defaultRenders is the budget of a server that is not told otherwise:
// one core fewer than the process has, one at least.
func defaultRenders() int { return max(1, runtime.GOMAXPROCS(0)-1) }

func newRenderBudget(n int, wait, firstWait time.Duration) *renderBudget {
	if n <= 0 {
		n = defaultRenders()
	}
	return &renderBudget{slots: make(chan struct{}, n), wait: wait, firstWait: firstWait}
}

// take waits for a place, at most b.wait (first: b.firstWait) or until
// ctx ends; ok says whether it has one, which release gives back.
func (b *renderBudget) take(ctx context.Context, first bool) (release func(), ok bool) {
	select {
	case b.slots <- struct{}{}:
		return b.release, true
	default:
	}
	wait := b.wait
	if first {
		wait = b.firstWait
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case b.slots <- struct{}{}:
		return b.release, true
	case <-timer.C:
		return nil, false
	case <-ctx.Done():
		return nil, false
	}
}

func (b *renderBudget) release() { <-b.slots }

// The waits of a share of the budget: an answer waits at most shareWait
// for a place, and keeps it at most shareHold.
const (
	shareWait = time.Second
	shareHold = 20 * time.Millisecond
)

// share takes a place for a short piece of the pages' work, waiting at
// most shareWait or until ctx ends; past that the work goes ahead without
// one. The place is given back by done, or after shareHold at the latest.
func (b *renderBudget) share(ctx context.Context) (done func()) {
	select {
	case b.slots <- struct{}{}:
	default:
		timer := time.NewTimer(shareWait)
		defer timer.Stop()
		select {
		case b.slots <- struct{}{}:
		case <-timer.C:
			return func() {}
		case <-ctx.Done():
			return func() {}
		}
	}
	var once sync.Once
	give := func() { once.Do(b.release) }
	hold := time.AfterFunc(shareHold, give)
	return func() { hold.Stop(); give() }
}

// The window of the pages' fetches after a change (live.go, the event's
// w): answerCost is what an answer from the cache costs the server, about
// 0.3 ms of CPU and its writes, rounded up; spreadMax bounds the window,
// which a page's freshness pays: static/live.js waits a random part of it
// after its quiet 150 ms, within its maxWait of 1 s.
const (
	answerCost = time.Millisecond
	spreadMax  = 850 * time.Millisecond
)

// spread is the window over which the pages of a tournament watched by
// streams streams are to spread their fetches after a change, so that
// they arrive about as fast as the budget answers them, without a queue:
// a thousand phones that fetched within the same 150 ms after a result
// took both cores at once, and the tables' deals waited behind them
// (issue 28). A few viewers get a few milliseconds: they fetch at once.
func (b *renderBudget) spread(streams int) time.Duration {
	return min(spreadMax, time.Duration(streams)*answerCost/time.Duration(cap(b.slots)))
}
