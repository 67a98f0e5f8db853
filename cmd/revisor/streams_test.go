package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStreamsBoundedBelowTheDescriptorLimit runs the real program with a
// descriptor limit of 512 and opens more live streams than it can hold:
// the streams beyond its bound (512 less the reserve of 256) are refused
// with 503 and Retry-After, and /healthz, /readyz and the API go on
// answering within 1 s (issue 25, point 3: 2,100 streams at a limit of
// 2,048 made them all time out, accept4: too many open files).
func TestStreamsBoundedBelowTheDescriptorLimit(t *testing.T) {
	const limit, open = 512, 320
	cmd, stdout, stderr := startServe(t, "REVISOR_TEST_NOFILE=512", "REVISOR_ADMIN_TOKEN=streams-admin-token")
	defer func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	}()
	sc := bufio.NewScanner(stdout)
	base := ""
	for sc.Scan() {
		if u, ok := strings.CutPrefix(sc.Text(), "revisor: serving on "); ok {
			base = u
			break
		}
	}
	if base == "" {
		t.Fatalf("the server did not start:\n%s", stderr.String())
	}
	go io.Copy(io.Discard, stdout)

	req, _ := http.NewRequest("POST", base+"/api/v1/tournaments", strings.NewReader(`{"name":"Strömmar","format":"swiss","rounds":1}`))
	req.Header.Set("Authorization", "Bearer streams-admin-token")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var created struct{ ID string }
	decodeJSON(t, resp, &created)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 0, MaxIdleConnsPerHost: open}}
	accepted, refused := 0, 0
	for range open {
		req, _ := http.NewRequestWithContext(ctx, "GET", base+"/t/"+created.ID+"/events", nil)
		req.Header.Set("Accept", "text/event-stream")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("stream %d: %v (accepted %d, refused %d)", accepted+refused+1, err, accepted, refused)
		}
		switch resp.StatusCode {
		case http.StatusOK:
			accepted++ // left open until the test ends
		case http.StatusServiceUnavailable:
			refused++
			if resp.Header.Get("Retry-After") == "" {
				t.Errorf("a refused stream has no Retry-After")
			}
			resp.Body.Close()
		default:
			t.Fatalf("stream: %d", resp.StatusCode)
		}
	}
	if want := limit - streamReserve(limit); accepted != want || refused != open-want {
		t.Errorf("%d streams at a descriptor limit of %d: %d accepted, %d refused; want %d and %d",
			open, limit, accepted, refused, want, open-want)
	}
	quick := &http.Client{Timeout: time.Second}
	for _, path := range []string{"/healthz", "/readyz", "/api/v1/tournaments/" + created.ID, "/t/" + created.ID} {
		start := time.Now()
		resp, err := quick.Get(base + path)
		if err != nil {
			t.Errorf("GET %s with %d streams open: %v", path, accepted, err)
			continue
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s with %d streams open = %d, want 200", path, accepted, resp.StatusCode)
		}
		t.Logf("GET %s with %d streams open: %d in %v", path, accepted, resp.StatusCode, time.Since(start).Round(time.Millisecond))
	}
}

// decodeJSON decodes a response's JSON body into out.
func decodeJSON(t *testing.T, resp *http.Response, out any) {
	t.Helper()
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatalf("%s: %v", resp.Request.URL, err)
	}
}
