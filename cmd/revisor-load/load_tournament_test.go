package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/internal/dbtest"
)

// TestLoadTournament plays a whole 16-player SM tournament deal by deal
// (and a third of the games whole) against a real server: every
// submission is acknowledged, the final is closed and the per-endpoint
// percentiles are printed.
func TestLoadTournament(t *testing.T) {
	const admin = "load-admin-token-0123456789"
	url := startServer(t, admin)
	var out bytes.Buffer
	prof := t.TempDir() + "/load.pprof"
	err := run(context.Background(), []string{"--url", url, "--players", "16", "--clients", "4",
		"--games-per-round", "2", "--put-share", "0.3", "--duration", "2m", "--cpuprofile", prof},
		mapEnv{"REVISOR_ADMIN_TOKEN": admin}.get, &out)
	if err != nil {
		t.Fatalf("revisor-load: %v\n%s", err, out.String())
	}
	// --cpuprofile: a pprof profile (gzip) of the tool's own run.
	if b, err := os.ReadFile(prof); err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("--cpuprofile wrote %d bytes (%v), want a gzipped profile", len(b), err)
	}
	for _, want := range []string{`(?m)^deal +\d+ .* 201:\d+$`, `(?m)^game +\d+ .* 201:\d+$`, `finished after \d rounds, champion \w+`,
		`; 0 given up`, `p99`, `this tool's CPU time \d+\.\ds`} {
		if !regexp.MustCompile(want).MatchString(out.String()) {
			t.Errorf("load --players 16 printed\n%s\nwant a match for %s", out.String(), want)
		}
	}
}

// TestLoadTournamentPaced: with --pace each table waits between its deals
// as players playing them do, so one table after another (one client)
// takes at least half the pace per deal after its first.
func TestLoadTournamentPaced(t *testing.T) {
	const admin = "load-admin-token-0123456789"
	const pace = 40 * time.Millisecond
	url := startServer(t, admin)
	var out bytes.Buffer
	start := time.Now()
	err := run(context.Background(), []string{"--url", url, "--players", "8", "--clients", "1", "--rounds", "1",
		"--games-per-round", "1", "--pace", pace.String(), "--duration", "2m"}, mapEnv{"REVISOR_ADMIN_TOKEN": admin}.get, &out)
	elapsed := time.Since(start)
	if err != nil {
		t.Fatalf("revisor-load --pace: %v\n%s", err, out.String())
	}
	m := regexp.MustCompile(`acknowledged (\d+) deals`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("revisor-load --pace printed\n%s\nwant the acknowledged deals", out.String())
	}
	deals, _ := strconv.Atoi(m[1])
	if least := time.Duration(deals-2) * pace / 2; deals < 2 || elapsed < least {
		t.Errorf("%d deals of 2 tables at --pace %s took %s, want at least %s", deals, pace, elapsed, least)
	}
}

func TestLoadTournamentFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--players", "16", "--put-share", "1.5"},
		{"--players", "16", "--rounds", "-1"},
		{"--players", "2"},
		{"--players", "16", "--pace", "-1s"},
		{"--players", "16", "--viewers", "5", "--viewers-nice", "10"}, // not apart
		{"--players", "16", "--viewers", "5", "--viewers-apart", "--viewers-nice", "20"},
	} {
		err := run(context.Background(), append([]string{"--url", "http://127.0.0.1:1", "--admin-token", "x"}, args...),
			mapEnv{}.get, &bytes.Buffer{})
		if !errors.Is(err, errUsage) {
			t.Errorf("load %v = %v, want a usage error", args, err)
		}
	}
}

// TestProcCPU reads this process's CPU time, which grows as it works.
func TestProcCPU(t *testing.T) {
	before := procCPU(os.Getpid())
	for start := time.Now(); time.Since(start) < 200*time.Millisecond; {
		_ = regexp.MustCompile(`a+b+c+`).MatchString(strings.Repeat("a", 1000))
	}
	if after := procCPU(os.Getpid()); after <= before {
		t.Errorf("procCPU(self) = %s after 200 ms of work, want more than %s", after, before)
	}
	if got := procCPU(0); got != 0 {
		t.Errorf("procCPU(0) = %s, want 0", got)
	}
}

// TestMain lets the test binary stand for revisor-load when a load run
// starts its viewers apart (os.Executable is then this binary).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "watch" {
		main()
		return
	}
	os.Exit(dbtest.Main(m))
}

// TestLoadTournamentViewersApart: with --viewers-apart the viewers run in
// a watch process of their own, which the run stops at its end and whose
// report it prints: every viewer's stream open (they arrive over 5 s: the
// round is paced to last longer), pages fetched, the process's own CPU
// time and the niceness --viewers-nice gave it.
func TestLoadTournamentViewersApart(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a round paced at 700 ms with its viewers in a process of their own takes 15 s")
	}
	t.Parallel()
	const admin = "load-admin-token-0123456789"
	url := startServer(t, admin)
	var out bytes.Buffer
	err := run(context.Background(), []string{"--url", url, "--players", "8", "--clients", "2", "--rounds", "1",
		"--games-per-round", "1", "--pace", "700ms", "--duration", "2m", "--viewers", "6", "--viewers-apart", "--viewers-nice", "10"},
		mapEnv{"REVISOR_ADMIN_TOKEN": admin}.get, &out)
	if err != nil {
		t.Fatalf("revisor-load --viewers-apart: %v\n%s", err, out.String())
	}
	for _, want := range []string{`in a process of their own`, `viewers: 6 viewers, 6 streams open; [1-9]\d* page fetches`,
		`their process's CPU time \d+\.\ds, niceness 10`, `; 0 given up`} {
		if !regexp.MustCompile(want).MatchString(out.String()) {
			t.Errorf("revisor-load --viewers-apart printed\n%s\nwant a match for %s", out.String(), want)
		}
	}
}
