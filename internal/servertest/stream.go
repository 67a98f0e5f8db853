package servertest

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Stream opens a page's event stream and returns its lines as they
// come, once its first event (hello) says the subscription is open.
func Stream(t testing.TB, url string) <-chan string {
	t.Helper()
	lines, _ := StreamHello(t, url)
	return lines
}

// StreamHello is Stream, and returns the hello's data as well.
func StreamHello(t testing.TB, url string) (lines <-chan string, hello string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("GET %s = %d %q, want 200 text/event-stream", url, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	ch := make(chan string, 64)
	go func() {
		defer resp.Body.Close()
		defer close(ch)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			ch <- sc.Text()
		}
	}()
	// Wait for the stream's first event: the subscription is open.
	WaitLine(t, ch, "event: hello", 5*time.Second)
	hello = strings.TrimPrefix(WaitLine(t, ch, "data: ", 5*time.Second), "data: ")
	return ch, hello
}

// WaitLine waits for a line starting with prefix and returns it.
func WaitLine(t testing.TB, lines <-chan string, prefix string, within time.Duration) string {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("stream ended before %q", prefix)
			}
			if strings.HasPrefix(l, prefix) {
				return l
			}
		case <-deadline:
			t.Fatalf("no %q line within %v", prefix, within)
		}
	}
}
