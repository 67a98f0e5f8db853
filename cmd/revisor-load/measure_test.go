package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"
	"time"
)

// TestSampleRSS samples this test's own process: its peak resident size
// while sampled and its high-water mark, both above zero; a process that
// is not there reads zero. (The kernel's high-water mark is not always at
// least a resident size read before it: it is brought up to date only at
// some points, so the two are not compared. A run at 23:59 UTC read a
// peak of 129,675,264 bytes and a mark of 129,630,208.)
func TestSampleRSS(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
	defer cancel()
	peak, hwm := sampleRSS(ctx, os.Getpid())()
	if peak <= 0 || hwm <= 0 {
		t.Errorf("sampled peak %d, high-water mark %d: want both above zero", peak, hwm)
	}
	if v := procStatus(1<<30, "VmRSS:"); v != 0 {
		t.Errorf("a process that is not there reads %d, want 0", v)
	}
}

// TestPageRenders reads the server's count of rendered pages from its
// metrics, and -1 where there is none or no server.
func TestPageRenders(t *testing.T) {
	t.Parallel()
	var metrics atomic.Value
	metrics.Store("# TYPE revisor_page_renders_total counter\nrevisor_page_renders_total 1234\n")
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/metrics" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, metrics.Load())
	}))
	defer hs.Close()
	if n := pageRenders(hs.URL + "/"); n != 1234 {
		t.Errorf("pageRenders = %v, want 1234", n)
	}
	metrics.Store("revisor_other_total 5\n")
	if n := pageRenders(hs.URL); n != -1 {
		t.Errorf("pageRenders without the counter = %v, want -1", n)
	}
	hs.Close()
	if n := pageRenders(hs.URL); n != -1 {
		t.Errorf("pageRenders of a server that is gone = %v, want -1", n)
	}
}
