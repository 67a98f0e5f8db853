package faulttest_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/sim"
	"github.com/revisor-sm/revisor/internal/faulttest"
	"github.com/revisor-sm/revisor/internal/loadgen"
)

// roundRobin is a reverse proxy that sends each request to the next
// backend in turn, counting what each got: several Revisor processes
// behind one address.
type roundRobin struct {
	proxies []*httputil.ReverseProxy
	next    atomic.Uint64
	served  []atomic.Int64
}

func newRoundRobin(backends ...string) *roundRobin {
	rr := &roundRobin{served: make([]atomic.Int64, len(backends))}
	for _, b := range backends {
		u, _ := url.Parse(b)
		rr.proxies = append(rr.proxies, httputil.NewSingleHostReverseProxy(u))
	}
	return rr
}

func (rr *roundRobin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	i := int(rr.next.Add(1) % uint64(len(rr.proxies)))
	rr.served[i].Add(1)
	rr.proxies[i].ServeHTTP(w, r)
}

// liveKinds subscribes to a tournament's event stream on one server and
// sends the kind of every change event it hears.
func liveKinds(ctx context.Context, t *testing.T, base, tid string) <-chan string {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/t/"+tid+"/events", nil)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		t.Fatalf("GET %s/t/%s/events = %d, want 200 (an event stream)", base, tid, resp.StatusCode)
	}
	out := make(chan string, 1000)
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var e struct {
				Kind string `json:"kind"`
			}
			if json.Unmarshal([]byte(data), &e) == nil {
				out <- e.Kind
			}
		}
	}()
	return out
}

// waitKind waits up to 10 s for a change of kind on ch.
func waitKind(t *testing.T, ch <-chan string, kind, where string) {
	t.Helper()
	waitLive(t, ch, kind, "the clients of "+where, 10*time.Second)
}

// TestTwoProcesses runs two Revisor processes on one database behind a
// round-robin proxy: a tournament round played through the proxy is
// stored exactly once, both processes serve it, and a change made through
// either process reaches the live-update clients of both.
func TestTwoProcesses(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	port, err := faulttest.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	b := &faulttest.Server{Bin: e.server.Bin, Addr: fmt.Sprintf("127.0.0.1:%d", port), Env: e.server.Env,
		LogPath: filepath.Join(filepath.Dir(e.server.LogPath), "server-b.log")}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Stop)
	rr := newRoundRobin(e.server.URL(), b.URL())
	proxy := httptest.NewServer(rr)
	t.Cleanup(proxy.Close)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cfg := e.loadConfig(loadgen.NewStats(), 5)
	cfg.BaseURL, cfg.Players = proxy.URL, 32
	res, err := loadgen.Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	checkStored(t, e.pool, res)
	for i := range rr.served {
		if n := rr.served[i].Load(); n < 20 {
			t.Errorf("process %d served %d requests, want a fair share", i+1, n)
		}
	}

	liveA, liveB := liveKinds(ctx, t, e.server.URL(), res.TournamentID), liveKinds(ctx, t, b.URL(), res.TournamentID)
	time.Sleep(200 * time.Millisecond) // the streams subscribe before the change
	// A round drawn through process A is heard by the clients of both.
	req, _ := http.NewRequestWithContext(ctx, "POST", e.server.URL()+"/api/v1/tournaments/"+res.TournamentID+"/rounds",
		strings.NewReader(`{"seed":9}`))
	req.Header.Set("Authorization", "Bearer "+res.OrganizerToken)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("drawing round 2 through process A = %v %v", resp, err)
	}
	var rd drawnRound
	err = json.NewDecoder(resp.Body).Decode(&rd)
	resp.Body.Close()
	if err != nil || len(rd.Tables) == 0 {
		t.Fatalf("round 2 = %+v, %v", rd, err)
	}
	waitKind(t, liveA, "rounds", "process A")
	waitKind(t, liveB, "rounds", "process B")
	// A deal entered through process B is heard by the clients of both.
	tb := rd.Tables[0]
	rec := validGame(t, sim.New(4, engine.SM()), tb.Players, tb.FirstDealer)
	deal, _ := json.Marshal(rec.Deals[0])
	req, _ = http.NewRequestWithContext(ctx, "POST", fmt.Sprintf("%s/api/v1/tournaments/%s/rounds/2/tables/%d/games/1/deals",
		b.URL(), res.TournamentID, tb.Number), strings.NewReader(string(deal)))
	req.Header.Set("Authorization", "Bearer "+tb.Code)
	req.Header.Set("Content-Type", "application/json")
	resp, err = http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("entering a deal through process B = %v %v", resp, err)
	}
	resp.Body.Close()
	waitKind(t, liveA, "game_deals", "process A")
	waitKind(t, liveB, "game_deals", "process B")
	t.Logf("requests served: process A %d, process B %d", rr.served[0].Load(), rr.served[1].Load())
}

// TestOneOfTwoProcessesKilled kills one of two processes behind the proxy
// in the middle of a round and leaves it dead: the proxy answers 502 for
// it, the clients retry with the same keys, the other process takes over
// the dead one's claims once they go stale, and the round completes with
// every acknowledged submission stored once.
func TestOneOfTwoProcessesKilled(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	port, err := faulttest.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	b := &faulttest.Server{Bin: e.server.Bin, Addr: fmt.Sprintf("127.0.0.1:%d", port), Env: e.server.Env,
		LogPath: filepath.Join(filepath.Dir(e.server.LogPath), "server-b.log")}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Stop)
	rr := newRoundRobin(e.server.URL(), b.URL())
	proxy := httptest.NewServer(rr)
	t.Cleanup(proxy.Close)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	stats := loadgen.NewStats()
	cfg := e.loadConfig(stats, 50)
	cfg.BaseURL = proxy.URL
	done := startLoad(ctx, cfg)
	waitRequests(t, stats, 80)
	b.Kill()
	res := <-done
	if res == nil {
		t.Fatal("the load did not start")
	}
	checkStored(t, e.pool, res)
	for _, f := range res.Failures {
		t.Errorf("given up with one process left: %s", f.Err)
	}
	if res.RoundsPlayed != 1 {
		t.Errorf("%d rounds closed with one process left, want 1", res.RoundsPlayed)
	}
	deal := stats.Endpoint(loadgen.EndpointDeal)
	if deal.Statuses[http.StatusBadGateway] == 0 {
		t.Errorf("no request met the dead process (deal statuses %v)", deal.Statuses)
	}
	t.Logf("deal statuses %v, retries %d; round done in %s", deal.Statuses, deal.Retries, res.Elapsed.Round(time.Millisecond))
}
