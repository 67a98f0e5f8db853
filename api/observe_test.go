package api_test

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/server"
)

func TestRequestID(t *testing.T) {
	t.Parallel()
	s := startServer(t, api.Config{NewRequestID: func() string { return "generated" }}, server.Deps{})
	tests := []struct{ sent, want string }{
		{"", "generated"},
		{"abc-123", "abc-123"},
		{"has space", "generated"},
		{strings.Repeat("x", 65), "generated"},
	}
	for _, tt := range tests {
		resp, _ := s.do(t, request{method: "GET", path: "/healthz", header: map[string]string{"X-Request-ID": tt.sent}})
		if got := resp.Header.Get("X-Request-ID"); got != tt.want {
			t.Errorf("X-Request-ID %q: response ID = %q, want %q", tt.sent, got, tt.want)
		}
	}
	resp, body := s.do(t, request{method: "GET", path: "/nope", header: map[string]string{"X-Request-ID": "trace-me"}})
	if p := wantProblem(t, "GET /nope", resp, body, http.StatusNotFound, "route_not_found"); p.RequestID != "trace-me" {
		t.Errorf("problem request_id = %q, want trace-me", p.RequestID)
	}
}

// TestAccessLog checks one JSON line per request with the fields operators
// need, and that the Authorization header never reaches the log.
func TestAccessLog(t *testing.T) {
	t.Parallel()
	s := startServer(t, api.Config{}, server.Deps{})
	const secret = "very-secret-token-value"
	s.do(t, request{method: "GET", path: "/api/v1/whoami?x=1", header: map[string]string{
		"Authorization": "Bearer " + secret, "X-Request-ID": "req-1", "User-Agent": "test-agent"}})
	if strings.Contains(s.logs.String(), secret) {
		t.Fatalf("the log contains the token: %s", s.logs.String())
	}
	var line map[string]any
	for sc := bufio.NewScanner(strings.NewReader(s.logs.String())); sc.Scan(); {
		var l map[string]any
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("log line is not JSON: %s", sc.Text())
		}
		if l["msg"] == "http request" && l["request_id"] == "req-1" {
			line = l
		}
	}
	if line == nil {
		t.Fatalf("no access log line for request req-1 in %s", s.logs.String())
	}
	want := map[string]any{"method": "GET", "path": "/api/v1/whoami", "route": "/api/v1/whoami",
		"status": float64(401), "user_agent": "test-agent", "remote_ip": "127.0.0.1"}
	for k, v := range want {
		if line[k] != v {
			t.Errorf("access log %s = %v, want %v", k, line[k], v)
		}
	}
	if _, ok := line["duration_ms"].(float64); !ok {
		t.Errorf("access log has no duration_ms: %v", line)
	}
}

func TestMetrics(t *testing.T) {
	t.Parallel()
	s := startServer(t, api.Config{}, server.Deps{})
	s.postJSON(t, "/api/v1/validate/deal", minimalDeal)
	s.postJSON(t, "/api/v1/validate/deal", minimalDeal)
	s.do(t, request{method: "GET", path: "/no/such/route/42"})
	checks := []struct {
		labels []string
		want   float64
	}{
		{[]string{"POST", "/api/v1/validate/deal", "200"}, 2},
		{[]string{"GET", "unmatched", "404"}, 1},
	}
	for _, c := range checks {
		got := requestCount(t, s, c.labels)
		if got != c.want {
			t.Errorf("revisor_http_requests_total%v = %v, want %v", c.labels, got, c.want)
		}
	}
	resp, body := s.do(t, request{method: "GET", path: "/metrics"})
	text := string(body)
	for _, want := range []string{
		`revisor_http_request_duration_seconds_bucket{method="POST",route="/api/v1/validate/deal",le="0.005"}`,
		`revisor_http_request_duration_seconds_count{method="POST",route="/api/v1/validate/deal"} 2`,
		`revisor_http_requests_in_flight`,
	} {
		if resp.StatusCode != http.StatusOK || !strings.Contains(text, want) {
			t.Errorf("GET /metrics = %d, missing %s", resp.StatusCode, want)
		}
	}
	if strings.Contains(text, "/no/such/route/42") {
		t.Errorf("an unknown path became a metric label")
	}
}

// requestCount reads revisor_http_requests_total for method, route, status.
func requestCount(t *testing.T, s *testServer, labels []string) float64 {
	t.Helper()
	families, err := s.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != "revisor_http_requests_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			got := map[string]string{}
			for _, l := range m.GetLabel() {
				got[l.GetName()] = l.GetValue()
			}
			if got["method"] == labels[0] && got["route"] == labels[1] && got["status"] == labels[2] {
				return m.GetCounter().GetValue()
			}
		}
	}
	return 0
}
