package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/internal/servertest"
	"github.com/revisor-sm/revisor/migrations"
	"github.com/revisor-sm/revisor/server"
	"github.com/revisor-sm/revisor/tournament/postgres"
)

// testServer is a real API server on a free loopback port.
type testServer struct {
	URL  string
	logs *syncBuffer
	reg  *prometheus.Registry
}

// startServer starts the API with cfg and deps; a nil registry gets one,
// and the logs are kept for inspection.
func startServer(t *testing.T, cfg api.Config, deps server.Deps) *testServer {
	t.Helper()
	logs := &syncBuffer{}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewJSONHandler(logs, nil))
	}
	if deps.Registry == nil {
		deps.Registry = prometheus.NewRegistry()
	}
	srv, err := server.New(cfg, servertest.Complete(deps))
	if err != nil {
		t.Fatalf("server.New: %v", err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return &testServer{URL: hs.URL, logs: logs, reg: deps.Registry}
}

// startWithDB starts the API on a fresh migrated database with the real
// PostgreSQL readiness check and idempotency store.
func startWithDB(t *testing.T, cfg api.Config) *testServer {
	t.Helper()
	pool := dbtest.New(t)
	latest, err := migrations.Latest(migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	return startServer(t, cfg, server.Deps{
		Ready:       postgres.Readiness(pool, latest),
		Idempotency: postgres.NewIdempotency(pool, time.Hour, time.Minute),
	})
}

// request is one HTTP request of a test.
type request struct {
	method, path, contentType string
	body                      io.Reader
	header                    map[string]string
}

// do sends r and returns the response with its body read.
func (s *testServer) do(t *testing.T, r request) (*http.Response, []byte) {
	t.Helper()
	var sent []byte
	if r.body != nil {
		var err error
		if sent, err = io.ReadAll(r.body); err != nil {
			t.Fatal(err)
		}
	}
	req, err := http.NewRequestWithContext(context.Background(), r.method, s.URL+r.path, bytes.NewReader(sent))
	if err != nil {
		t.Fatal(err)
	}
	if r.contentType != "" {
		req.Header.Set("Content-Type", r.contentType)
	}
	for k, v := range r.header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", r.method, r.path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	checkContract(t, req, sent, resp, body)
	return resp, body
}

// postJSON posts body as application/json.
func (s *testServer) postJSON(t *testing.T, path, body string) (*http.Response, []byte) {
	t.Helper()
	return s.do(t, request{method: "POST", path: path, contentType: "application/json", body: strings.NewReader(body)})
}

// problemDoc is a decoded problem+json body.
type problemDoc struct {
	Type, Title, Detail, Code, RequestID string
	Status                               int
	Errors                               []map[string]any
}

// wantProblem checks that a response is problem+json with status and code,
// and returns the document.
func wantProblem(t *testing.T, what string, resp *http.Response, body []byte, status int, code string) problemDoc {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("%s: Content-Type = %q, want application/problem+json", what, ct)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		t.Fatalf("%s: body %q is not JSON: %v", what, body, err)
	}
	for _, m := range []string{"type", "title", "status", "detail", "code"} {
		if _, ok := raw[m]; !ok {
			t.Errorf("%s: problem has no %q member: %s", what, m, body)
		}
	}
	var p problemDoc
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&struct {
		Type      *string           `json:"type"`
		Title     *string           `json:"title"`
		Detail    *string           `json:"detail"`
		Code      *string           `json:"code"`
		RequestID *string           `json:"request_id"`
		Status    *int              `json:"status"`
		Errors    *[]map[string]any `json:"errors"`
	}{&p.Type, &p.Title, &p.Detail, &p.Code, &p.RequestID, &p.Status, &p.Errors}); err != nil {
		t.Fatalf("%s: decode problem: %v", what, err)
	}
	if resp.StatusCode != status || p.Status != status || p.Code != code {
		t.Errorf("%s = %d %q (status member %d), want %d %q; body %s", what, resp.StatusCode, p.Code, p.Status, status, code, body)
	}
	if p.Type != "urn:revisor:problem:"+p.Code {
		t.Errorf("%s: type = %q, want urn:revisor:problem:%s", what, p.Type, p.Code)
	}
	return p
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
