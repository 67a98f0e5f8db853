package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/migrations"
)

// TestMain lets the test binary run as the revisor program itself, for the
// test that sends it a real signal.
func TestMain(m *testing.M) {
	if os.Getenv("REVISOR_TEST_MAIN") == "1" {
		if n, err := strconv.ParseUint(os.Getenv("REVISOR_TEST_NOFILE"), 10, 64); err == nil {
			// The descriptor limit of a small host, soft and hard.
			if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
				panic(err)
			}
		}
		os.Args = append([]string{"revisor"}, strings.Fields(os.Getenv("REVISOR_TEST_ARGS"))...)
		main()
		os.Exit(0)
	}
	os.Exit(dbtest.Main(m))
}

func TestRunUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args    []string
		usage   bool
		wantOut string
	}{
		{nil, true, ""},
		{[]string{"frobnicate"}, true, ""},
		{[]string{"help"}, false, "serve"},
		{[]string{"serve", "--no-such-flag"}, true, ""},
		{[]string{"serve", "--log-level", "loud"}, true, ""},
		{[]string{"serve", "--max-players", "0"}, true, ""},
		{[]string{"serve", "--max-players", "10001"}, true, ""},
		{[]string{"serve", "--max-players", "many"}, true, ""},
		{[]string{"serve", "--page-conns", "-1"}, true, ""},
		{[]string{"serve", "--page-conns", "101"}, true, ""},
		{[]string{"serve", "--page-workers", "-1"}, true, ""},
		{[]string{"serve", "--page-workers", "few"}, true, ""},
		{[]string{"serve", "--idempotency-stale", "9s"}, true, ""},
		{[]string{"serve", "--idempotency-stale", "soon"}, true, ""},
		{[]string{"migrate", "sideways"}, true, ""},
		{[]string{"migrate", "down", "0"}, true, ""},
	}
	for _, tt := range tests {
		var stdout, stderr strings.Builder
		env := mapEnv{"DATABASE_URL": "postgres://postgres@127.0.0.1:1/x"}
		err := run(context.Background(), tt.args, env.get, strings.NewReader(""), &stdout, &stderr)
		if got := errors.Is(err, errUsage); got != tt.usage {
			t.Errorf("run(%q) = %v, want usage error %v", tt.args, err, tt.usage)
		}
		if !strings.Contains(stdout.String(), tt.wantOut) {
			t.Errorf("run(%q) printed %q, want it to contain %q", tt.args, stdout.String(), tt.wantOut)
		}
	}
}

func TestServeNeedsDatabaseURL(t *testing.T) {
	t.Parallel()
	err := run(context.Background(), []string{"serve"}, mapEnv{}.get, nil, io.Discard, io.Discard)
	if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "DATABASE_URL") {
		t.Errorf("serve without DATABASE_URL = %v, want a usage error naming DATABASE_URL", err)
	}
}

func TestVersion(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	if err := run(context.Background(), []string{"version"}, mapEnv{}.get, nil, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "revisor ") || !strings.Contains(out.String(), "go1.") {
		t.Errorf("version printed %q, want \"revisor <version> (go1.…)\"", out.String())
	}
}

// TestDescribeBuild: the version line names the module's version, the Go
// version, the commit (marked when the tree had changes) and its time;
// a build without a version is "(devel)". `version -h` prints the usage.
func TestDescribeBuild(t *testing.T) {
	t.Parallel()
	info := &debug.BuildInfo{GoVersion: "go1.26.8", Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.modified", Value: "true"}, {Key: "vcs.time", Value: "2026-12-06T22:00:00Z"}}}
	if got, want := describeBuild(info), "revisor (devel) (go1.26.8, commit abc123 modified, 2026-12-06T22:00:00Z)"; got != want {
		t.Errorf("describeBuild = %q, want %q", got, want)
	}
	info = &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.0"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}}}
	if got, want := describeBuild(info), "revisor v1.2.0 (go1.26.8, commit abc123)"; got != want {
		t.Errorf("describeBuild = %q, want %q", got, want)
	}
	var stderr strings.Builder
	if err := run(context.Background(), []string{"version", "-h"}, mapEnv{}.get, nil, io.Discard, &stderr); err != nil || !strings.Contains(stderr.String(), "version") {
		t.Errorf("version -h = %v, printed %q; want its usage", err, stderr.String())
	}
}

func TestMigrateCommand(t *testing.T) {
	t.Parallel()
	env := mapEnv{"DATABASE_URL": dbtest.NewEmptyURL(t)}
	versions, err := migrations.Versions(migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	latest, previous := versions[len(versions)-1], uint(0)
	if len(versions) > 1 {
		previous = versions[len(versions)-2]
	}
	at := func(v uint) string { return fmt.Sprintf("schema version %d of %d\n", v, latest) }
	steps := []struct {
		args []string
		want string
	}{
		{[]string{"migrate", "version"}, at(0)},
		{[]string{"migrate", "up"}, at(latest)},
		{[]string{"migrate", "down", "1"}, at(previous)},
		{[]string{"migrate", "up"}, at(latest)},
	}
	for _, s := range steps {
		var out strings.Builder
		if err := run(context.Background(), s.args, env.get, nil, &out, io.Discard); err != nil {
			t.Fatalf("run(%q) = %v", s.args, err)
		}
		if out.String() != s.want {
			t.Errorf("run(%q) printed %q, want %q", s.args, out.String(), s.want)
		}
	}
}

// mapEnv is an environment for tests.
type mapEnv map[string]string

func (m mapEnv) get(k string) string { return m[k] }

// running is a server started by run in a goroutine.
type running struct {
	url, adminToken string
	cancel          context.CancelFunc
	done            chan error
	stderr          *lockedBuffer
	lines           []string // what it printed up to serving
}

// startRun runs args (a serve or dev command with --addr 127.0.0.1:0) and
// waits until it prints its URL.
func startRun(t *testing.T, args []string, env mapEnv) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	r := &running{cancel: cancel, done: make(chan error, 1), stderr: &lockedBuffer{}}
	go func() {
		err := run(ctx, args, env.get, strings.NewReader(""), pw, r.stderr)
		pw.Close()
		r.done <- err
	}()
	lines := bufio.NewScanner(pr)
	for lines.Scan() {
		line := lines.Text()
		r.lines = append(r.lines, line)
		if tok, ok := strings.CutPrefix(line, "revisor: admin token"); ok {
			r.adminToken = tok[strings.LastIndex(tok, " ")+1:]
		}
		if u, ok := strings.CutPrefix(line, "revisor: serving on "); ok {
			r.url = u
			break
		}
	}
	if r.url == "" {
		cancel()
		t.Fatalf("run(%q) ended without serving: %v\n%s", args, <-r.done, r.stderr.String())
	}
	go io.Copy(io.Discard, pr)
	t.Cleanup(func() { r.stop(t) })
	return r
}

// stop cancels the server's context (as SIGTERM does) and returns run's error.
func (r *running) stop(t *testing.T) error {
	t.Helper()
	r.cancel()
	select {
	case err, ok := <-r.done:
		if ok {
			close(r.done)
		}
		return err
	case <-time.After(30 * time.Second):
		t.Fatalf("the server did not stop within 30s")
	}
	return nil
}

func get(t *testing.T, url, token string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, body
}

func role(t *testing.T, base, token string) string {
	t.Helper()
	_, body := get(t, base+"/api/v1/whoami", token)
	var w struct{ Role string }
	json.Unmarshal(body, &w)
	return w.Role
}

// lockedBuffer is a strings.Builder safe for concurrent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestMainStopsOnSIGTERM runs the real program in a child process and stops
// it with SIGTERM: it must exit 0 after a graceful shutdown.
func TestMainStopsOnSIGTERM(t *testing.T) {
	t.Parallel()
	cmd, stdout, stderr := startServe(t, "REVISOR_ADMIN_TOKEN=x")
	sc := bufio.NewScanner(stdout)
	for sc.Scan() && !strings.HasPrefix(sc.Text(), "revisor: serving on ") {
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, stdout)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("revisor serve after SIGTERM: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), `"msg":"stopped"`) {
		t.Errorf("no graceful stop in the log:\n%s", stderr.String())
	}
}

// startServe starts this test binary as `revisor serve` on a free port
// of 127.0.0.1 over a fresh database, with env added to its environment,
// and returns it with its standard output and error.
func startServe(t *testing.T, env ...string) (*exec.Cmd, io.ReadCloser, *lockedBuffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "REVISOR_TEST_MAIN=1", "REVISOR_TEST_ARGS=serve --addr 127.0.0.1:0", "DATABASE_URL="+dbtest.NewURL(t))
	cmd.Env = append(cmd.Env, env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := new(lockedBuffer)
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, stdout, stderr
}

// TestIdempotencyStaleSetting: the stale time of a claim is 30 s unless
// REVISOR_IDEMPOTENCY_STALE or --idempotency-stale says otherwise; the fault
// tests shorten it so that a killed server's claims are taken over sooner.
func TestIdempotencyStaleSetting(t *testing.T) {
	t.Parallel()
	tests := []struct {
		env  string
		args []string
		want time.Duration
	}{
		{"", nil, 30 * time.Second},
		{"12s", nil, 12 * time.Second},
		{"12s", []string{"--idempotency-stale", "1m"}, time.Minute},
	}
	for _, tt := range tests {
		fs := newFlagSet("serve", io.Discard)
		cfg, check := serverFlags(fs, mapEnv{"REVISOR_IDEMPOTENCY_STALE": tt.env}.get)
		if err := fs.Parse(tt.args); err != nil {
			t.Fatal(err)
		}
		if err := check(); err != nil || cfg.idemStale != tt.want {
			t.Errorf("env %q, args %q: stale %v, %v; want %v", tt.env, tt.args, cfg.idemStale, err, tt.want)
		}
	}
}
