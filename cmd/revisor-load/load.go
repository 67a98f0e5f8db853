package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/sim"
)

// loadConfig is the command line of revisor-load.
type loadConfig struct {
	url, adminToken string
	clients, tables int
	games, max      int
	duration        time.Duration
	seed            uint64
	rate            float64
	tour            tourFlags // --players: a whole SM tournament played deal by deal (load_tournament.go)
}

func parseLoad(args []string, env func(string) string, out io.Writer) (*loadConfig, error) {
	fs := flag.NewFlagSet("revisor-load", flag.ContinueOnError)
	fs.SetOutput(out)
	c := &loadConfig{}
	fs.StringVar(&c.url, "url", "http://127.0.0.1:8080", "the server to load (loopback only)")
	fs.StringVar(&c.adminToken, "admin-token", env("REVISOR_ADMIN_TOKEN"), "the server's admin token (default $REVISOR_ADMIN_TOKEN)")
	fs.IntVar(&c.clients, "clients", 100, "concurrent clients")
	fs.IntVar(&c.tables, "tables", 250, "tables of 4 in the load tournament")
	fs.IntVar(&c.games, "games", 20, "games per table (games_per_round, at most 20)")
	fs.IntVar(&c.max, "max", 5000, "at most this many submissions")
	fs.DurationVar(&c.duration, "duration", time.Minute, "stop after this long")
	fs.Uint64Var(&c.seed, "seed", 1, "simulator seed for the game records")
	fs.Float64Var(&c.rate, "rate", 0, "submissions per second over all clients, as tables finishing games would "+
		"(open loop: latency counts from the planned time); 0 sends as fast as the clients can (closed loop)")
	c.tour.define(fs)
	if err := fs.Parse(args); err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	switch {
	case c.adminToken == "":
		return nil, fmt.Errorf("%w: revisor-load needs --admin-token or REVISOR_ADMIN_TOKEN", errUsage)
	case c.clients < 1 || c.clients > 1000, c.tables < 1 || c.tables > 5000, c.games < 1 || c.games > 20,
		c.max < 1 || c.max > 200000, c.duration <= 0 || c.duration > 30*time.Minute, c.rate < 0 || c.rate > 10000:
		return nil, fmt.Errorf("%w: clients 1-1000, tables 1-5000, games 1-20, max 1-200000, duration up to 30m, rate 0-10000", errUsage)
	}
	return c, checkLoopback(c.url)
}

// checkLoopback refuses to load anything but this machine.
func checkLoopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return fmt.Errorf("%w: --url %q is not an http URL", errUsage, raw)
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); (ip == nil || !ip.IsLoopback()) && host != "localhost" {
		return fmt.Errorf("%w: revisor-load runs against 127.0.0.1 or ::1 only, not %q", errUsage, host)
	}
	return nil
}

// runLoad creates a Swiss tournament on the server, draws a round and has
// --clients clients submit simulated games (score sheets) with their
// tables' codes, each game once, until --max submissions or --duration. It
// prints the latency percentiles of the submissions.
func runLoad(ctx context.Context, args []string, env func(string) string, stdout io.Writer) error {
	cfg, err := parseLoad(args, env, stdout)
	if err != nil {
		return err
	}
	if cfg.tour.players > 0 {
		return runTournamentLoad(ctx, cfg, stdout)
	}
	cl := &loadClient{base: strings.TrimSuffix(cfg.url, "/") + "/api/v1", http: &http.Client{
		Timeout:   30 * time.Second,
		Transport: &http.Transport{MaxIdleConns: cfg.clients, MaxIdleConnsPerHost: cfg.clients}}}
	jobs, err := prepareLoad(ctx, cl, cfg, stdout)
	if err != nil {
		return err
	}
	mode := "as fast as they can"
	if cfg.rate > 0 {
		mode = fmt.Sprintf("at %.0f/s", cfg.rate)
	}
	fmt.Fprintf(stdout, "load: %d submissions from %d clients, %s; load average before: %s\n", len(jobs), cfg.clients, mode, loadAverage())
	cpu0 := procCPU(cfg.tour.serverPID)
	res := submitAll(ctx, cl, jobs, cfg)
	res.print(stdout)
	fmt.Fprintf(stdout, "load: load average after: %s\n", loadAverage())
	if cpu := procCPU(cfg.tour.serverPID) - cpu0; cfg.tour.serverPID > 0 && cpu > 0 && len(res.lat) > 0 {
		fmt.Fprintf(stdout, "load: server pid %d CPU time %.1fs: %.2f ms per acknowledged submission (the database's CPU not counted)\n",
			cfg.tour.serverPID, cpu.Seconds(), float64(cpu.Microseconds())/1000/float64(len(res.lat)))
	}
	if res.failed > 0 {
		return fmt.Errorf("%d of %d submissions failed", res.failed, len(res.lat)+res.failed)
	}
	return nil
}

// loadClient talks JSON to the server.
type loadClient struct {
	base string
	http *http.Client
}

func (c *loadClient) send(ctx context.Context, method, path, token, ct string, body []byte) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != nil {
		req.Header.Set("Content-Type", ct)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp.StatusCode, out, err
}

// call sends JSON and decodes the answer, which must have status want.
func (c *loadClient) call(ctx context.Context, want int, out any, method, path, token, ct string, body []byte) error {
	status, b, err := c.send(ctx, method, path, token, ct, body)
	if err != nil {
		return err
	}
	if status != want {
		return fmt.Errorf("%s %s = %d %s", method, path, status, b)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(b, out)
}

// loadJob is one game submission; due is when it is planned (open loop).
type loadJob struct {
	path, code string
	record     []byte
	due        time.Time
}

// prepareLoad sets up the tournament and builds the submissions.
func prepareLoad(ctx context.Context, cl *loadClient, cfg *loadConfig, stdout io.Writer) ([]loadJob, error) {
	var t struct {
		ID    string `json:"id"`
		Token string `json:"organizer_token"`
	}
	spec := fmt.Sprintf(`{"name":"load %s","format":"swiss","rounds":1,"games_per_round":%d}`, time.Now().UTC().Format(time.RFC3339), cfg.games)
	if err := cl.call(ctx, 201, &t, "POST", "/tournaments", cfg.adminToken, "application/json", []byte(spec)); err != nil {
		return nil, fmt.Errorf("creating the tournament: %w", err)
	}
	var csv strings.Builder
	for i := range 4 * cfg.tables {
		fmt.Fprintf(&csv, "Load %d,Club %d\n", i+1, i%20)
	}
	if err := cl.call(ctx, 201, nil, "POST", "/tournaments/"+t.ID+"/players:import", t.Token, "text/csv", []byte(csv.String())); err != nil {
		return nil, fmt.Errorf("registering players: %w", err)
	}
	var round struct {
		Tables []struct {
			Number      int      `json:"number"`
			Players     []string `json:"players"`
			FirstDealer string   `json:"first_dealer"`
			Code        string   `json:"code"`
		} `json:"tables"`
	}
	if err := cl.call(ctx, 201, &round, "POST", "/tournaments/"+t.ID+"/rounds", t.Token, "application/json", []byte(`{"seed":1}`)); err != nil {
		return nil, fmt.Errorf("drawing the round: %w", err)
	}
	fmt.Fprintf(stdout, "load: tournament %s, %d tables, simulating games\n", t.ID, len(round.Tables))
	s := sim.NewWithOptions(cfg.seed, engine.SM(), sim.DefaultOptions())
	var jobs []loadJob
	for g := 1; g <= cfg.games && len(jobs) < cfg.max; g++ {
		for _, tb := range round.Tables {
			if len(jobs) == cfg.max {
				break
			}
			first := engine.DealerOf(tb.Players, tb.FirstDealer, g-1)
			rec, err := json.Marshal(s.SheetGame(tb.Players, first))
			if err != nil {
				return nil, err
			}
			path := fmt.Sprintf("/tournaments/%s/rounds/1/tables/%d/games/%d", t.ID, tb.Number, g)
			jobs = append(jobs, loadJob{path: path, code: tb.Code, record: rec})
		}
	}
	return jobs, nil
}

// loadResult is what the clients saw.
type loadResult struct {
	lat      []time.Duration // successful submissions
	failed   int
	statuses map[int]int
	elapsed  time.Duration
	firstErr error
}

// submitAll runs the clients over the jobs until they are done or the
// duration ends.
// maxGameRetries bounds the retries of a whole game answered 429.
const maxGameRetries = 20

func submitAll(ctx context.Context, cl *loadClient, jobs []loadJob, cfg *loadConfig) *loadResult {
	// The run's duration stops new submissions; those in flight finish under
	// the command's own context, so the end of the run is not counted as a
	// failure, and queued jobs not started by then are not sent at all.
	reqCtx := ctx
	ctx, cancel := context.WithTimeout(ctx, cfg.duration)
	defer cancel()
	ch := make(chan loadJob, len(jobs))
	res := &loadResult{statuses: map[int]int{}}
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for range cfg.clients {
		wg.Go(func() {
			for j := range ch {
				if ctx.Err() != nil {
					continue // the run is over: drain the queue unsent
				}
				t0 := time.Now()
				if !j.due.IsZero() {
					t0 = j.due // waiting for a free client counts too
				}
				status, body, err := cl.send(reqCtx, "PUT", j.path, j.code, "application/json", j.record)
				// 429 (the address's budget of tries while the first
				// lookups of the codes are under way): wait and send the
				// game again, as a table's phone does; the wait counts.
				for try := 1; err == nil && status == http.StatusTooManyRequests && try <= maxGameRetries; try++ {
					time.Sleep(time.Duration(try) * 50 * time.Millisecond)
					status, body, err = cl.send(reqCtx, "PUT", j.path, j.code, "application/json", j.record)
				}
				d := time.Since(t0)
				mu.Lock()
				res.statuses[status]++
				if err == nil && (status == 201 || status == 200) {
					res.lat = append(res.lat, d)
				} else {
					res.failed++
					if res.firstErr == nil {
						res.firstErr = errors.Join(err, fmt.Errorf("%s: %d %s", j.path, status, body))
					}
				}
				mu.Unlock()
			}
		})
	}
feed:
	for i, j := range jobs {
		if cfg.rate > 0 {
			j.due = start.Add(time.Duration(float64(i) / cfg.rate * float64(time.Second)))
			select {
			case <-time.After(time.Until(j.due)):
			case <-ctx.Done():
				break feed
			}
		}
		select {
		case ch <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(ch)
	wg.Wait()
	res.elapsed = time.Since(start)
	return res
}

func (r *loadResult) print(w io.Writer) {
	slices.Sort(r.lat)
	pct := func(p float64) time.Duration {
		if len(r.lat) == 0 {
			return 0
		}
		return r.lat[min(len(r.lat)-1, int(p*float64(len(r.lat))))]
	}
	n := len(r.lat) + r.failed
	fmt.Fprintf(w, "load: %d submissions in %.1fs (%.0f/s), %d failed, statuses %v\n",
		n, r.elapsed.Seconds(), float64(n)/r.elapsed.Seconds(), r.failed, r.statuses)
	fmt.Fprintf(w, "load: latency p50 %s p90 %s p99 %s max %s\n",
		pct(0.50).Round(10*time.Microsecond), pct(0.90).Round(10*time.Microsecond),
		pct(0.99).Round(10*time.Microsecond), pct(1).Round(10*time.Microsecond))
	if r.firstErr != nil {
		fmt.Fprintf(w, "load: first failure: %v\n", r.firstErr)
	}
}
