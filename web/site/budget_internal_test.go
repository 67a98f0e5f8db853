package site

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/tournament"
)

// budgetSite is a page route behind the page cache whose renders block
// until unblock is closed, with a render budget of one that waits wait.
type budgetSite struct {
	e              *echo.Echo
	h              *Site
	unblock        chan struct{}
	running, most  atomic.Int32
	entered        chan struct{}
	enteredOnce    sync.Once
	renderedBodies atomic.Int32
}

func newBudgetSite(t *testing.T, wait time.Duration) *budgetSite {
	t.Helper()
	pages, err := parseTemplates(templateFS)
	if err != nil {
		t.Fatal(err)
	}
	h := &Site{cfg: Config{Now: time.Now}, pages: pages, log: slog.New(slog.DiscardHandler),
		cache: newSnapshots(&countingSource{}, time.Now), budget: newRenderBudget(1, wait, wait)}
	s := &budgetSite{e: echo.New(), h: h, unblock: make(chan struct{}), entered: make(chan struct{})}
	s.e.GET("/t/:tid/standings", h.CachedPage(func(c echo.Context) error {
		n := s.running.Add(1)
		defer s.running.Add(-1)
		for m := s.most.Load(); n > m && !s.most.CompareAndSwap(m, n); m = s.most.Load() {
		}
		s.enteredOnce.Do(func() { close(s.entered) })
		select { // bounded, so that a test without a budget fails rather than hangs
		case <-s.unblock:
		case <-time.After(3 * time.Second):
		}
		s.renderedBodies.Add(1)
		return c.HTML(http.StatusOK, "<p>rendered</p>")
	}))
	return s
}

func (s *budgetSite) get(path string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Header.Set("Accept-Language", "sv") // the error page's language, without a snapshot
	s.e.ServeHTTP(rec, req)
	return rec
}

// TestRenderBudgetBoundsRenders (issue 28, deals first): with the budget
// full, a render of another page waits for a place at most the budget's
// wait and never runs beside the one under way: a page never rendered is
// refused with 503 busy and Retry-After, a page rendered before is served
// as it was rendered last.
func TestRenderBudgetBoundsRenders(t *testing.T) {
	s := newBudgetSite(t, 100*time.Millisecond)
	const stale = "<p>rendered before</p>"
	s.h.cache.subs["b"] = true
	s.h.cache.putPage("b", "sv /t/b/standings", stamp{}, livePage, time.Now(), 0, []byte(stale))
	s.h.cache.changed("b", tournament.Event{Kind: "game_results"}) // now stale: a request renders it again

	first := make(chan *httptest.ResponseRecorder)
	go func() { first <- s.get("/t/a/standings") }()
	<-s.entered

	start := time.Now()
	if rec := s.get("/t/c/standings"); rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" {
		t.Errorf("a page never rendered, the budget full: %d, Retry-After %q; want 503 with Retry-After",
			rec.Code, rec.Header().Get("Retry-After"))
	}
	if waited := time.Since(start); waited < 100*time.Millisecond || waited > 2*time.Second {
		t.Errorf("the refused page waited %v, want the budget's 100ms", waited)
	}
	if rec := s.get("/t/b/standings"); rec.Code != http.StatusOK || rec.Body.String() != stale {
		t.Errorf("a page rendered before, the budget full: %d %q; want 200 and the page as rendered last", rec.Code, rec.Body.String())
	}
	close(s.unblock)
	if rec := <-first; rec.Code != http.StatusOK {
		t.Errorf("the render under way = %d, want 200", rec.Code)
	}
	if got := s.most.Load(); got != 1 {
		t.Errorf("%d renders ran at once with a budget of one, want 1", got)
	}
	if got := s.renderedBodies.Load(); got != 1 {
		t.Errorf("%d renders ran, want 1 (the others had no place)", got)
	}
}

// TestRenderBudgetQueuesWithinItsWait: renders beyond the budget run one
// after the other when places come free within the wait.
func TestRenderBudgetQueuesWithinItsWait(t *testing.T) {
	s := newBudgetSite(t, 5*time.Second)
	close(s.unblock)
	var wg sync.WaitGroup
	codes := make([]int, 8)
	for i := range codes {
		wg.Go(func() { codes[i] = s.get("/t/t" + string(rune('a'+i)) + "/standings").Code })
	}
	wg.Wait()
	for i, c := range codes {
		if c != http.StatusOK {
			t.Errorf("render %d = %d, want 200", i, c)
		}
	}
	if got := s.most.Load(); got != 1 {
		t.Errorf("%d renders ran at once with a budget of one, want 1", got)
	}
}

// TestCachedAnswersTakeTheBudget (issue 28): an answer from the page cache
// waits while the pages' budget is full — a thousand phones fetching a
// new page took both cores at once, ahead of the tables' writes — and is
// written as soon as a place comes free.
func TestCachedAnswersTakeTheBudget(t *testing.T) {
	s := newBudgetSite(t, time.Second)
	const page = "<p>rendered before</p>"
	s.h.cache.subs["b"] = true
	s.h.cache.putPage("b", "sv /t/b/standings", stamp{}, livePage, time.Now(), 0, []byte(page))
	release, ok := s.h.budget.take(t.Context(), false)
	if !ok {
		t.Fatal("no place in an empty budget")
	}
	answered := make(chan *httptest.ResponseRecorder, 1)
	go func() { answered <- s.get("/t/b/standings") }()
	select {
	case rec := <-answered:
		release()
		t.Fatalf("the budget full, a cached page was answered at once (%d)", rec.Code)
	case <-time.After(200 * time.Millisecond):
	}
	release()
	select {
	case rec := <-answered:
		if rec.Code != http.StatusOK || rec.Body.String() != page {
			t.Errorf("cached page = %d %q, want 200 and the page", rec.Code, rec.Body.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a place came free and the cached page was not answered")
	}
	if got := s.renderedBodies.Load(); got != 0 {
		t.Errorf("%d renders, want 0: the page was current", got)
	}
}

// TestShareOfTheBudgetIsShort: a share of the budget goes ahead after
// shareWait when no place comes free, and gives its place back after
// shareHold even if its work never ends (a phone that stopped reading).
func TestShareOfTheBudgetIsShort(t *testing.T) {
	b := newRenderBudget(1, time.Second, time.Second)
	release, _ := b.take(t.Context(), false)
	start := time.Now()
	b.share(t.Context())()
	if waited := time.Since(start); waited < shareWait || waited > shareWait+time.Second {
		t.Errorf("a share, the budget full, went ahead after %v, want %v", waited, shareWait)
	}
	release()
	_ = b.share(t.Context()) // never done
	start = time.Now()
	if _, ok := b.take(t.Context(), false); !ok {
		t.Fatal("the place of a share that never ended was not given back")
	}
	if waited := time.Since(start); waited > shareHold+500*time.Millisecond {
		t.Errorf("the place of a share came back after %v, want about %v", waited, shareHold)
	}
}
