package web

import (
	"context"
	"runtime"
	"time"
)

// renderBudget bounds the page renders under way at once, so that the
// tables' writes keep a core whatever the viewers ask for (issue 28: with
// a thousand phones on the standings the deals waited seconds for the
// CPU). A render beyond the budget waits for a place: a page that was
// rendered before at most wait, then it is served as it was (its viewers'
// scripts fetch it again at the next change); a page never rendered at
// most firstWait, then it is refused with 503 busy.
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
