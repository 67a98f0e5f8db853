package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/internal/dbtest"
)

// TestServe starts the real program on a free port against a fresh
// database: it migrates, generates and prints an admin token once, and is
// ready.
func TestServe(t *testing.T) {
	t.Parallel()
	env := mapEnv{"DATABASE_URL": dbtest.NewEmptyURL(t)}
	r := startRun(t, []string{"serve", "--addr", "127.0.0.1:0"}, env)
	if status, body := get(t, r.url+"/readyz", ""); status != http.StatusOK {
		t.Fatalf("GET /readyz = %d %s, want 200 (serve migrates on start)", status, body)
	}
	if r.adminToken == "" || role(t, r.url, r.adminToken) != "admin" {
		t.Fatalf("admin token %q printed on first start is not admin", r.adminToken)
	}
	_, metrics := get(t, r.url+"/metrics", "")
	for _, want := range []string{"revisor_db_pool_total_conns", "revisor_http_requests_total", "go_goroutines", "process_cpu_seconds_total"} {
		if !strings.Contains(string(metrics), want) {
			t.Errorf("GET /metrics has no %s", want)
		}
	}
	if err := r.stop(t); err != nil {
		t.Fatalf("serve after cancel = %v, want nil", err)
	}
	// A second start keeps the stored token and does not print it again.
	r2 := startRun(t, []string{"serve", "--addr", "127.0.0.1:0"}, env)
	if r2.adminToken != "" {
		t.Errorf("second start printed an admin token again")
	}
	if got := role(t, r2.url, r.adminToken); got != "admin" {
		t.Errorf("first token on second start: role %q, want admin", got)
	}
	if strings.Contains(r2.stderr.String(), r.adminToken) {
		t.Errorf("the admin token is in the log")
	}
}

func TestServeAdminTokenFromEnvironment(t *testing.T) {
	t.Parallel()
	env := mapEnv{"DATABASE_URL": dbtest.NewURL(t), "REVISOR_ADMIN_TOKEN": "my-own-admin-token"}
	r := startRun(t, []string{"serve", "--addr", "127.0.0.1:0"}, env)
	if r.adminToken != "" {
		t.Errorf("a token was generated although REVISOR_ADMIN_TOKEN is set")
	}
	if got := role(t, r.url, "my-own-admin-token"); got != "admin" {
		t.Errorf("REVISOR_ADMIN_TOKEN: role %q, want admin", got)
	}
}

// TestServeNoMigrate: with --no-migrate an empty database stays empty, and
// /readyz says the schema is not current.
func TestServeNoMigrate(t *testing.T) {
	t.Parallel()
	u := dbtest.NewEmptyURL(t)
	r := startRun(t, []string{"serve", "--addr", "127.0.0.1:0", "--no-migrate"}, mapEnv{"DATABASE_URL": u, "REVISOR_ADMIN_TOKEN": "x"})
	status, body := get(t, r.url+"/readyz", "")
	var p struct{ Code string }
	json.Unmarshal(body, &p)
	if status != http.StatusServiceUnavailable || p.Code != "schema_not_current" {
		t.Errorf("GET /readyz with --no-migrate on an empty database = %d %s, want 503 schema_not_current", status, body)
	}
}

// TestGracefulShutdown: a request in flight when shutdown begins is
// finished and answered; run then returns nil and the port is closed.
func TestGracefulShutdown(t *testing.T) {
	t.Parallel()
	r := startRun(t, []string{"serve", "--addr", "127.0.0.1:0"}, mapEnv{"DATABASE_URL": dbtest.NewURL(t), "REVISOR_ADMIN_TOKEN": "x"})
	pr, pw := io.Pipe()
	req, _ := http.NewRequestWithContext(context.Background(), "POST", r.url+"/api/v1/validate/game", pr)
	req.Header.Set("Content-Type", "application/json")
	type answer struct {
		status int
		err    error
	}
	answered := make(chan answer, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			answered <- answer{err: err}
			return
		}
		resp.Body.Close()
		answered <- answer{status: resp.StatusCode}
	}()
	io.WriteString(pw, `{"players":["a","b","c","d"],`) // the request is now in flight
	time.Sleep(200 * time.Millisecond)
	stopped := make(chan error, 1)
	go func() { stopped <- r.stop(t) }()
	time.Sleep(300 * time.Millisecond) // shutdown has begun and waits for the request
	select {
	case err := <-stopped:
		t.Fatalf("run returned %v while a request was in flight", err)
	default:
	}
	io.WriteString(pw, `"first_dealer":"a","deals":[]}`)
	pw.Close()
	if a := <-answered; a.err != nil || a.status != http.StatusOK {
		t.Fatalf("request in flight during shutdown = %d, %v; want 200", a.status, a.err)
	}
	if err := <-stopped; err != nil {
		t.Fatalf("run after graceful shutdown = %v, want nil", err)
	}
	if _, err := http.Get(r.url + "/healthz"); err == nil {
		t.Errorf("the server still accepts connections after shutdown")
	}
}

// TestDevWithDatabaseURL: dev with DATABASE_URL set uses it, seeds, serves.
func TestDevWithDatabaseURL(t *testing.T) {
	t.Parallel()
	r := startRun(t, []string{"dev", "--addr", "127.0.0.1:0"}, mapEnv{"DATABASE_URL": dbtest.NewEmptyURL(t)})
	if status, body := get(t, r.url+"/readyz", ""); status != http.StatusOK {
		t.Errorf("dev: GET /readyz = %d %s, want 200", status, body)
	}
}
