package loadgen_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/internal/loadgen"
)

func TestPercentile(t *testing.T) {
	t.Parallel()
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = i + 1
	}
	for _, c := range []struct {
		in   []time.Duration
		p    float64
		want time.Duration
	}{
		{nil, 0.5, 0},
		{ms(7), 0.99, 7 * time.Millisecond},
		{ms(hundred...), 0.50, 50 * time.Millisecond},
		{ms(hundred...), 0.90, 90 * time.Millisecond},
		{ms(hundred...), 0.99, 99 * time.Millisecond},
		{ms(hundred...), 1, 100 * time.Millisecond},
		{ms(1, 2, 3), 0, 1 * time.Millisecond},
	} {
		if got := loadgen.Percentile(c.in, c.p); got != c.want {
			t.Errorf("Percentile(%d values, %v) = %s, want %s", len(c.in), c.p, got, c.want)
		}
	}
}

func TestCheckLoopback(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		url string
		ok  bool
	}{
		{"http://127.0.0.1:8080", true},
		{"http://[::1]:8080", true},
		{"http://localhost:1", true},
		{"https://127.0.0.2", true},
		{"http://10.0.0.1:8080", false},
		{"http://example.com", false},
		{"ftp://127.0.0.1", false},
		{"127.0.0.1:8080", false},
	} {
		if err := loadgen.CheckLoopback(c.url); (err == nil) != c.ok {
			t.Errorf("CheckLoopback(%q) = %v, want ok %v", c.url, err, c.ok)
		}
	}
}

// TestRunRefusesBadConfig: nothing is sent for a configuration out of
// bounds or another host.
func TestRunRefusesBadConfig(t *testing.T) {
	t.Parallel()
	good := loadgen.Config{BaseURL: "http://127.0.0.1:1", Players: 8, GamesPerRound: 1, Clients: 1}
	for _, c := range []struct {
		name string
		edit func(*loadgen.Config)
	}{
		{"remote host", func(c *loadgen.Config) { c.BaseURL = "http://192.0.2.1" }},
		{"3 players", func(c *loadgen.Config) { c.Players = 3 }},
		{"0 games", func(c *loadgen.Config) { c.GamesPerRound = 0 }},
		{"0 clients", func(c *loadgen.Config) { c.Clients = 0 }},
		{"negative rounds", func(c *loadgen.Config) { c.Rounds = -1 }},
	} {
		cfg := good
		c.edit(&cfg)
		if res, err := loadgen.Run(context.Background(), cfg); err == nil || res != nil {
			t.Errorf("Run(%s) = %v, %v; want no result and an error", c.name, res, err)
		}
	}
}

// TestStatsPrint: one line per endpoint with its statuses, 0 for requests
// that got no answer.
func TestStatsPrint(t *testing.T) {
	t.Parallel()
	cfg := loadgen.Config{BaseURL: "http://127.0.0.1:1", AdminToken: "x", Players: 8, GamesPerRound: 1, Clients: 1,
		Retries: 1, RetryWait: time.Millisecond, Stats: loadgen.NewStats()}
	res, err := loadgen.Run(context.Background(), cfg) // nothing listens on port 1
	if err == nil {
		t.Fatal("Run against a closed port succeeded")
	}
	var out bytes.Buffer
	res.Stats.Print(&out, time.Second)
	if !strings.Contains(out.String(), "setup") || !strings.Contains(out.String(), "0:2") {
		t.Errorf("Print after two unanswered tries =\n%s\nwant a setup line with 0:2", out.String())
	}
}
