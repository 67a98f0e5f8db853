package main

import (
	"bytes"
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/internal/dbtest"
)

// TestLoadTournament plays a whole 16-player SM tournament deal by deal
// (and a third of the games whole) against a real server: every
// submission is acknowledged, the final is closed and the per-endpoint
// percentiles are printed.
func TestLoadTournament(t *testing.T) {
	const admin = "load-admin-token-0123456789"
	r := startRun(t, []string{"serve", "--addr", "127.0.0.1:0"}, mapEnv{"DATABASE_URL": dbtest.NewURL(t), "REVISOR_ADMIN_TOKEN": admin})
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"load", "--url", r.url, "--players", "16", "--clients", "4",
		"--games-per-round", "2", "--put-share", "0.3", "--duration", "2m"},
		mapEnv{"REVISOR_ADMIN_TOKEN": admin}.get, strings.NewReader(""), &out, &errOut)
	if err != nil {
		t.Fatalf("load: %v\n%s%s", err, out.String(), errOut.String())
	}
	for _, want := range []string{`(?m)^deal +\d+ .* 201:\d+$`, `(?m)^game +\d+ .* 201:\d+$`, `finished after \d rounds, champion \w+`,
		`; 0 given up`, `p99`} {
		if !regexp.MustCompile(want).MatchString(out.String()) {
			t.Errorf("load --players 16 printed\n%s\nwant a match for %s", out.String(), want)
		}
	}
}

func TestLoadTournamentFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--players", "16", "--put-share", "1.5"},
		{"--players", "16", "--rounds", "-1"},
		{"--players", "2"},
	} {
		err := run(context.Background(), append([]string{"load", "--url", "http://127.0.0.1:1", "--admin-token", "x"}, args...),
			mapEnv{}.get, strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{})
		if !errors.Is(err, errUsage) {
			t.Errorf("load %v = %v, want a usage error", args, err)
		}
	}
}
