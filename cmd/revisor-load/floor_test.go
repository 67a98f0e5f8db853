package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/revisor-sm/revisor/internal/dbtest"
)

// startFloorServer runs `revisor-load floor-server` on a free port over a
// fresh database until the test ends, and returns its URL and the
// database's.
func startFloorServer(t *testing.T) (url, dbURL string) {
	t.Helper()
	dbURL = dbtest.NewEmptyURL(t)
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"floor-server", "--addr", "127.0.0.1:0"}, mapEnv{"DATABASE_URL": dbURL}.get, pw)
		pw.Close()
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("floor-server: %v", err)
		}
	})
	line, err := bufio.NewReader(pr).ReadString('\n')
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	m := regexp.MustCompile(`serving (http://\S+) \(pid \d+\)`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("floor-server printed %q (%v), want the address it serves", line, err)
	}
	return m[1], dbURL
}

// TestFloor loads the floor server in both variants: every deal is
// entered with its answer stored under its key, the percentiles and the
// server's CPU time per request are printed.
func TestFloor(t *testing.T) {
	url, dbURL := startFloorServer(t)
	for _, trips := range []string{"1", "2"} {
		var out bytes.Buffer
		err := run(context.Background(), []string{"floor", "--url", url, "--round-trips", trips, "--clients", "4",
			"--max", "30", "--deals-per-game", "4", "--duration", "1m", "--server-pid", strconv.Itoa(os.Getpid())}, mapEnv{}.get, &out)
		if err != nil {
			t.Fatalf("floor --round-trips %s: %v\n%s", trips, err, out.String())
		}
		for _, want := range []string{`(?m)^deal +30 .* 201:30$`, `floor: 30 deals in`, `ms per request`, `p99`} {
			if !regexp.MustCompile(want).MatchString(out.String()) {
				t.Errorf("floor --round-trips %s printed\n%s\nwant a match for %s", trips, out.String(), want)
			}
		}
	}
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var deals, answered int
	err = conn.QueryRow(context.Background(), `SELECT (SELECT count(*) FROM floor_deals),
		(SELECT count(*) FROM floor_keys WHERE response IS NOT NULL)`).Scan(&deals, &answered)
	if err != nil || deals != 60 || answered != 60 {
		t.Errorf("floor tables hold %d deals and %d answered keys (%v), want 60 and 60", deals, answered, err)
	}
}

// TestFloorPaced: with --pace a table waits between its deals as in the
// tournament mode, at least half the pace after its first.
func TestFloorPaced(t *testing.T) {
	const pace = 40 * time.Millisecond
	url, _ := startFloorServer(t)
	var out bytes.Buffer
	start := time.Now()
	err := run(context.Background(), []string{"floor", "--url", url, "--clients", "1", "--max", "6", "--pace", pace.String()},
		mapEnv{}.get, &out)
	if elapsed, least := time.Since(start), 5*pace/2; err != nil || elapsed < least || !strings.Contains(out.String(), "paced 40ms") {
		t.Errorf("floor --pace %s: %v after %s, want 6 deals in at least %s\n%s", pace, err, elapsed, least, out.String())
	}
}

// TestFloorRefusesRepeats: a key or a deal sent again is refused (409),
// in both variants, as the first entry was stored.
func TestFloorRefusesRepeats(t *testing.T) {
	t.Parallel()
	url, _ := startFloorServer(t)
	for _, tc := range []struct {
		trips, key, deal string
		want             int
	}{
		{"one", "k1", "1", 201}, {"one", "k1", "2", 409}, {"one", "k2", "1", 409}, {"one", "k5", "3", 409},
		{"one", "k6", "2", 201},
		{"two", "k1", "1", 201}, {"two", "k1", "2", 409}, {"two", "k2", "1", 409}, {"two", "k3", "3", 409},
		{"three", "k4", "1", 404},
	} {
		req, _ := http.NewRequest("POST", url+"/floor/"+tc.trips+"/runs/"+tc.trips+"/tables/1/games/1/deals?deal="+tc.deal,
			strings.NewReader(`{"deal":1}`))
		req.Header.Set("Idempotency-Key", tc.key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("floor %s key %s deal %s = %d, want %d", tc.trips, tc.key, tc.deal, resp.StatusCode, tc.want)
		}
	}
}

func TestFloorFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"floor", "--round-trips", "3"},
		{"floor", "--clients", "0"},
		{"floor", "--body-size", "8"},
		{"floor", "--pace", "-1s"},
		{"floor", "--url", "http://10.0.0.1:8090"},
		{"floor-server"},
		{"floor-server", "--database-url", "postgres://x", "--addr", "0.0.0.0:8090"},
	} {
		if err := run(context.Background(), args, mapEnv{}.get, &bytes.Buffer{}); !errors.Is(err, errUsage) {
			t.Errorf("revisor-load %v = %v, want a usage error", args, err)
		}
	}
}

// TestFloorBody: the deal bodies are JSON of the size asked.
func TestFloorBody(t *testing.T) {
	t.Parallel()
	for _, size := range []int{32, 100, 1024, 5000} {
		if b := floorBody(size); len(b) != size || !json.Valid(b) {
			t.Errorf("floorBody(%d) = %d bytes, valid JSON %v, want %d bytes of JSON", size, len(b), json.Valid(b), size)
		}
	}
}
