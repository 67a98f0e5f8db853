package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"flag"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/revisor-sm/revisor/internal/loadgen"
)

// floorConfig is the command line of `revisor-load floor`, the client of
// floor-server (floor_server.go).
type floorConfig struct {
	url                   string
	trips, clients        int
	dealsPerGame, maxReqs int
	bodySize, serverPID   int
	duration, pace        time.Duration
}

func parseFloor(args []string, out io.Writer) (*floorConfig, error) {
	fs := flag.NewFlagSet("revisor-load floor", flag.ContinueOnError)
	fs.SetOutput(out)
	c := &floorConfig{}
	fs.StringVar(&c.url, "url", "http://127.0.0.1:8090", "the floor server (revisor-load floor-server; loopback only)")
	fs.IntVar(&c.trips, "round-trips", 2, "round trips to the database per deal: 2 as Revisor's first deal of a game "+
		"(the key's claim and the game's read in a batch, then the deal), or 1 as its next deals (warm games: deal and key in one statement)")
	fs.IntVar(&c.clients, "clients", 1, "concurrent clients, each a table sending its deals back to back")
	fs.IntVar(&c.dealsPerGame, "deals-per-game", 10, "deals of a game before the table starts the next")
	fs.IntVar(&c.maxReqs, "max", 0, "stop after this many deals (0: only --duration stops)")
	fs.IntVar(&c.bodySize, "body-size", 1024, "bytes of JSON in each deal's body (a full deal's record is about 1 KB)")
	fs.DurationVar(&c.duration, "duration", 10*time.Second, "stop after this long")
	fs.DurationVar(&c.pace, "pace", 0, "each table waits a random 0.5-1.5 times this between its deals, as "+
		"revisor-load --players --pace does (e.g. 3s); 0 sends each deal as soon as the one before is answered")
	fs.IntVar(&c.serverPID, "server-pid", 0, "the floor server's process, for its CPU time per request (Linux)")
	if err := fs.Parse(args); err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	switch {
	case c.trips != 1 && c.trips != 2:
		return nil, fmt.Errorf("%w: --round-trips is 1 or 2", errUsage)
	case c.clients < 1 || c.clients > 1000, c.dealsPerGame < 1, c.maxReqs < 0, c.bodySize < 32 || c.bodySize > 60000,
		c.duration <= 0 || c.duration > 30*time.Minute, c.pace < 0:
		return nil, fmt.Errorf("%w: clients 1-1000, deals-per-game ≥ 1, max ≥ 0, body-size 32-60000, duration up to 30m, pace ≥ 0", errUsage)
	}
	return c, checkLoopback(c.url)
}

// runFloorLoad has --clients tables send deals to the floor server back to
// back (or --pace apart), each with its Idempotency-Key, over kept-alive connections, and
// prints what they saw as the tournament mode does (an endpoint line
// "deal": requests, per second, percentiles, statuses) with the server's
// CPU time per request.
func runFloorLoad(ctx context.Context, args []string, stdout io.Writer) error {
	cfg, err := parseFloor(args, stdout)
	if err != nil {
		return err
	}
	trips := map[int]string{1: "one", 2: "two"}[cfg.trips]
	base := fmt.Sprintf("%s/floor/%s/runs/%s", strings.TrimSuffix(cfg.url, "/"), trips, strings.ToLower(rand.Text()[:12]))
	hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		MaxIdleConns: cfg.clients + 4, MaxIdleConnsPerHost: cfg.clients + 4}}
	body := floorBody(cfg.bodySize)
	stats := loadgen.NewStats()
	mode := "back to back"
	if cfg.pace > 0 {
		mode = "paced " + cfg.pace.String()
	}
	fmt.Fprintf(stdout, "floor: %d client(s) %s, %d round trip(s) per deal, %d-byte bodies; %s; load average before: %s\n",
		cfg.clients, mode, cfg.trips, len(body), machine(), loadAverage())
	ctx, cancel := context.WithTimeout(ctx, cfg.duration)
	defer cancel()
	budget := make(chan struct{}, max(cfg.maxReqs, 1))
	for range cap(budget) {
		budget <- struct{}{}
	}
	cpu0 := procCPU(cfg.serverPID)
	start := time.Now()
	var wg sync.WaitGroup
	for table := 1; table <= cfg.clients; table++ {
		wg.Go(func() {
			pick := mrand.New(mrand.NewPCG(uint64(table), 7))
			for n := 0; ctx.Err() == nil && loadgen.Pace(ctx, pick, cfg.pace, n == 0); n++ {
				if cfg.maxReqs > 0 {
					select {
					case <-budget:
					default:
						return
					}
				}
				game, seq := n/cfg.dealsPerGame+1, n%cfg.dealsPerGame+1
				path := fmt.Sprintf("%s/tables/%d/games/%d/deals?deal=%d", base, table, game, seq)
				if !floorSend(ctx, hc, stats, path, fmt.Sprintf("t%d-g%d-d%d", table, game, seq), body) {
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu := procCPU(cfg.serverPID) - cpu0
	stats.Print(stdout, elapsed)
	e := stats.Endpoint(loadgen.EndpointDeal)
	fmt.Fprintf(stdout, "floor: %d deals in %.1fs: %.0f/s; load average after: %s\n",
		e.Statuses[http.StatusCreated], elapsed.Seconds(), float64(e.Statuses[http.StatusCreated])/elapsed.Seconds(), loadAverage())
	if cfg.serverPID > 0 && cpu > 0 && e.Requests() > 0 {
		fmt.Fprintf(stdout, "floor: server pid %d CPU time %.1fs: %.2f ms per request (the database's CPU not counted)\n",
			cfg.serverPID, cpu.Seconds(), float64(cpu.Microseconds())/1000/float64(e.Requests()))
	}
	if failed := e.Requests() - e.Statuses[http.StatusCreated]; failed > 0 {
		return fmt.Errorf("%d of %d deals not entered (%s)", failed, e.Requests(), e.FirstError)
	}
	return nil
}

// floorSend posts one deal and records it; false when the run is over or
// the deal was refused (the table stops: its next deal would be refused
// too).
func floorSend(ctx context.Context, hc *http.Client, stats *loadgen.Stats, url, key string, body []byte) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return false
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", key)
	t0 := time.Now()
	resp, err := hc.Do(req)
	status := 0
	if err == nil {
		status = resp.StatusCode
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	if ctx.Err() != nil {
		return false // cut by the end of the run: not counted
	}
	stats.Observe(loadgen.EndpointDeal, status, time.Since(t0), err)
	return err == nil && status == http.StatusCreated
}

// floorBody is a JSON document of size bytes shaped like a deal's record:
// an array of small objects of cards.
func floorBody(size int) []byte {
	const item, tail = `{"cards":["AS","KS","QS","JS","TS"],"n":1}`, `],"pad":""}`
	var b bytes.Buffer
	b.WriteString(`{"deal":[`)
	for b.Len()+1+len(item)+len(tail) <= size {
		if b.Len() > len(`{"deal":[`) {
			b.WriteByte(',')
		}
		b.WriteString(item)
	}
	b.WriteString(`],"pad":"`)
	for b.Len()+2 < size { // at least the tail: 20 bytes
		b.WriteByte('x')
	}
	b.WriteString(`"}`)
	return b.Bytes()
}
