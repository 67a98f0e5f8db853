package loadgen_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
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
	mux.HandleFunc("/t/t1/events", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, ": listening\n\n")
		w.(http.Flusher).Flush()
		ready.Done()
		select {
		case <-change:
		case <-r.Context().Done():
			return
		}
		fmt.Fprint(w, "event: change\ndata: {\"kind\":\"game_results\",\"v\":100,\"w\":800}\n\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
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
	var after []time.Duration
	for _, at := range fetch {
		after = append(after, at.Sub(sentAt))
	}
	slices.Sort(after)
	first, mid, last := after[0], after[len(after)/2], after[len(after)-1]
	if first < 140*time.Millisecond || last > 1500*time.Millisecond {
		t.Errorf("fetches from %v to %v after the change, want from 150 ms (quiet) to 1 s (the maximum wait)", first, last)
	}
	if last-first < 600*time.Millisecond || mid < 400*time.Millisecond || mid > 700*time.Millisecond {
		t.Errorf("fetches from %v to %v after the change, half by %v; want them spread over the 800 ms window after 150 ms", first, last, mid)
	}
}
