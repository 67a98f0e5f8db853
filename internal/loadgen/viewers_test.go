package loadgen_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/internal/loadgen"
)

// TestViewersSpreadTheirFetches: the viewers behave as static/live.js: a
// change with a window w makes each fetch its page after the quiet 150 ms
// and a random part of w, within the maximum wait of 1 s — not all within
// the same few milliseconds, as a thousand of them did before (issue 28).
func TestViewersSpreadTheirFetches(t *testing.T) {
	const viewers = 200
	var (
		mu     sync.Mutex
		fetch  []time.Time
		ready  sync.WaitGroup
		change = make(chan struct{})
	)
	ready.Add(viewers)
	var sentAt time.Time
	mux := http.NewServeMux()
	mux.HandleFunc("/t/t1/standings", func(w http.ResponseWriter, r *http.Request) {
		asOf := "50"
		if r.Header.Get("X-Revisor-Refresh") == "1" {
			mu.Lock()
			fetch = append(fetch, time.Now())
			mu.Unlock()
			asOf = "100"
		}
		w.Header().Set("X-Revisor-As-Of", asOf)
		fmt.Fprint(w, "<body>")
	})
	mux.HandleFunc("/t/t1/events", changeStream(ready.Done, change, `{"kind":"game_results","v":100,"w":800}`))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	w, err := loadgen.WatchPages(t.Context(), loadgen.ViewerConfig{BaseURL: srv.URL, Tournament: "t1",
		Viewers: viewers, Views: []string{loadgen.ViewStandings}, Spread: time.Millisecond, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	ready.Wait()
	sentAt = time.Now()
	close(change)
	time.Sleep(100 * time.Millisecond) // every viewer hears the change
	r := w.Stop(5 * time.Second)
	if r.Unshown != 0 || len(fetch) != viewers {
		t.Fatalf("%d viewers: %d fetches after the change, %d changes never shown; want %d and none", viewers, len(fetch), r.Unshown, viewers)
	}
	// What each viewer planned (from hearing the change) is the machine's
	// to keep: a busy one (the race pass beside the fault tests) started
	// fetches planned within 1 s as late as 1.78 s. The fetches the server
	// saw can only come later than planned: none before the quiet, half
	// not before the window's middle.
	first, mid, last := r.Planned[0], r.Planned[len(r.Planned)/2], r.Planned[len(r.Planned)-1]
	if len(r.Planned) != viewers || first < 150*time.Millisecond || last > time.Second {
		t.Errorf("%d fetches planned from %v to %v after the change, want %d from 150 ms (quiet) to 1 s (the maximum wait)", len(r.Planned), first, last, viewers)
	}
	if last-first < 600*time.Millisecond || mid < 400*time.Millisecond || mid > 700*time.Millisecond {
		t.Errorf("fetches planned from %v to %v after the change, half by %v; want them spread over the 800 ms window after 150 ms", first, last, mid)
	}
	var after []time.Duration
	for _, at := range fetch {
		after = append(after, at.Sub(sentAt))
	}
	slices.Sort(after)
	if after[0] < 140*time.Millisecond || after[len(after)/2] < 400*time.Millisecond {
		t.Errorf("fetches from %v after the change, half by %v; want none before 150 ms (quiet), half not before 400 ms", after[0], after[len(after)/2])
	}
}

// TestViewerRetriesAFailedFetch: a page whose fetch after a change fails
// is fetched again after a wait (app.js's backoff), and the change is
// shown once a fetch succeeds, here a gzipped page without the version
// header whose version is read from its data-as-of attribute.
func TestViewerRetriesAFailedFetch(t *testing.T) {
	t.Parallel()
	var refreshes atomic.Int32
	ready := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/t/t1/standings", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Revisor-Refresh") != "1" {
			w.Header().Set("X-Revisor-As-Of", "50")
			fmt.Fprint(w, "<body>")
			return
		}
		if refreshes.Add(1) == 1 {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		var page bytes.Buffer
		zw := gzip.NewWriter(&page)
		fmt.Fprint(zw, `<main data-as-of="100">`)
		zw.Close()
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(page.Bytes())
	})
	now := make(chan struct{})
	close(now)
	mux.HandleFunc("/t/t1/events", changeStream(func() { close(ready) }, now, `{"kind":"game_results","v":100}`))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	w, err := loadgen.WatchPages(t.Context(), loadgen.ViewerConfig{BaseURL: srv.URL, Tournament: "t1",
		Viewers: 1, Views: []string{loadgen.ViewStandings}, Spread: time.Millisecond, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	<-ready
	deadline := time.Now().Add(10 * time.Second)
	for refreshes.Load() < 2 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	r := w.Stop(5 * time.Second)
	if r.Unshown != 0 || r.Statuses[http.StatusServiceUnavailable] != 1 || r.Statuses[http.StatusOK] < 2 {
		t.Errorf("after a failed fetch: statuses %v, %d changes never shown; want one 503, then the change shown", r.Statuses, r.Unshown)
	}
}

// changeStream is a page's event stream that says it listens, calls
// listening, and sends one change with data once change is closed.
func changeStream(listening func(), change <-chan struct{}, data string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, ": listening\n\n")
		w.(http.Flusher).Flush()
		listening()
		select {
		case <-change:
		case <-r.Context().Done():
			return
		}
		fmt.Fprintf(w, "event: change\ndata: %s\n\n", data)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}
}
