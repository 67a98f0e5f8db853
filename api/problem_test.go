package api_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/server"
)

// A deal record that is valid JSON for the tests of bad requests below.
const minimalDeal = `{"players":["a","b","c","d"],"dealer":"a","hands":{},"exchanges":[[],[],[]],"announcements":[[],[]],"tricks":[]}`

func TestUnknownRouteIsProblem(t *testing.T) {
	t.Parallel()
	s := startWithDB(t, api.Config{})
	for _, path := range []string{"/api/v1/nope", "/nope", "/api/v2/validate/deal", "/api/v1/"} {
		resp, body := s.do(t, request{method: "GET", path: path})
		p := wantProblem(t, "GET "+path, resp, body, http.StatusNotFound, "route_not_found")
		if !strings.Contains(p.Detail, path) {
			t.Errorf("GET %s: detail %q does not name the path", path, p.Detail)
		}
	}
}

func TestWrongMethodIsProblem(t *testing.T) {
	t.Parallel()
	s := startWithDB(t, api.Config{})
	for _, r := range []request{{method: "GET", path: "/api/v1/validate/deal"}, {method: "DELETE", path: "/healthz"}} {
		resp, body := s.do(t, r)
		wantProblem(t, r.method+" "+r.path, resp, body, http.StatusMethodNotAllowed, "method_not_allowed")
		if resp.Header.Get("Allow") == "" {
			t.Errorf("%s %s: no Allow header", r.method, r.path)
		}
	}
}

func TestMalformedJSONIsProblem(t *testing.T) {
	t.Parallel()
	s := startWithDB(t, api.Config{})
	for _, body := range []string{`{"players": [`, `hello`, ``, `{"players": ["a"],}`, `[1, 2`} {
		for _, path := range []string{"/api/v1/validate/deal", "/api/v1/validate/game"} {
			resp, got := s.postJSON(t, path, body)
			wantProblem(t, "POST "+path+" "+body, resp, got, http.StatusBadRequest, "malformed_json")
		}
	}
}

func TestWrongFieldTypeIsProblem(t *testing.T) {
	t.Parallel()
	s := startWithDB(t, api.Config{})
	tests := []struct{ path, body, pointer string }{
		{"/api/v1/validate/deal", strings.Replace(minimalDeal, `"dealer":"a"`, `"dealer":7`, 1), "/dealer"},
		{"/api/v1/validate/deal", strings.Replace(minimalDeal, `["a","b","c","d"]`, `"abcd"`, 1), "/players"},
		{"/api/v1/validate/game", `{"players":["a","b","c","d"],"first_dealer":"a","deals":{}}`, "/deals"},
	}
	for _, tt := range tests {
		resp, body := s.postJSON(t, tt.path, tt.body)
		p := wantProblem(t, "POST "+tt.path+" "+tt.body, resp, body, http.StatusBadRequest, "invalid_field_type")
		found := false
		for _, e := range p.Errors {
			found = found || e["path"] == tt.pointer
		}
		if !found {
			t.Errorf("POST %s %s: errors %v do not name %s", tt.path, tt.body, p.Errors, tt.pointer)
		}
	}
}

func TestWrongContentTypeIsProblem(t *testing.T) {
	t.Parallel()
	s := startWithDB(t, api.Config{})
	for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonx", "not a media type"} {
		resp, body := s.do(t, request{method: "POST", path: "/api/v1/validate/deal", contentType: ct, body: strings.NewReader(minimalDeal)})
		wantProblem(t, "Content-Type "+ct, resp, body, http.StatusUnsupportedMediaType, "unsupported_media_type")
	}
	// JSON with parameters and +json types are JSON.
	for _, ct := range []string{"application/json; charset=utf-8", "application/vnd.revisor+json"} {
		resp, body := s.do(t, request{method: "POST", path: "/api/v1/validate/deal", contentType: ct, body: strings.NewReader(minimalDeal)})
		if resp.StatusCode != http.StatusOK {
			t.Errorf("Content-Type %s = %d %s, want 200", ct, resp.StatusCode, body)
		}
	}
}

func TestOversizedBodyIsProblem(t *testing.T) {
	t.Parallel()
	s := startWithDB(t, api.Config{})
	big := `{"players": ["` + strings.Repeat("a", api.DefaultBodyLimit) + `"]}`
	// With Content-Length the server refuses before reading; without it
	// (chunked), when the handler reads past the limit.
	sized := request{method: "POST", path: "/api/v1/validate/deal", contentType: "application/json", body: strings.NewReader(big)}
	chunked := sized
	chunked.body = io.MultiReader(strings.NewReader(big)) // no length known: sent chunked
	for name, r := range map[string]request{"sized": sized, "chunked": chunked} {
		resp, body := s.do(t, r)
		wantProblem(t, name+" body of 1 MiB+", resp, body, http.StatusRequestEntityTooLarge, "body_too_large")
	}
	// Just under the limit is read (and is a wrong record, not a 413).
	under := `{"x":"` + strings.Repeat("a", api.DefaultBodyLimit-10) + `"}`
	resp, body := s.postJSON(t, "/api/v1/validate/deal", under)
	if resp.StatusCode == http.StatusRequestEntityTooLarge {
		t.Errorf("body of %d bytes = 413, want it read: %.200s", len(under), body)
	}
}

// TestOversizedBodyOnGetIsProblem: the body limit holds on every route, so
// the probes and the OpenAPI document answer the 413 their operations
// document (their one 4xx) to a GET that announces a body over the limit.
func TestOversizedBodyOnGetIsProblem(t *testing.T) {
	t.Parallel()
	s := startServer(t, api.Config{}, server.Deps{})
	big := strings.Repeat("a", api.DefaultBodyLimit+1)
	for _, path := range []string{"/healthz", "/readyz", "/metrics", "/api/v1/openapi.json", "/api/v1/openapi.yaml"} {
		resp, body := s.do(t, request{method: "GET", path: path, contentType: "text/plain", body: strings.NewReader(big)})
		wantProblem(t, "GET "+path+" with a body of 1 MiB+", resp, body, http.StatusRequestEntityTooLarge, "body_too_large")
	}
}

func TestPanicIsProblemWithoutInternals(t *testing.T) {
	t.Parallel()
	s := startServer(t, api.Config{}, server.Deps{Ready: func(context.Context) error { panic("secret internals 1234") }})
	resp, body := s.do(t, request{method: "GET", path: "/readyz"})
	wantProblem(t, "panicking handler", resp, body, http.StatusInternalServerError, "internal")
	if strings.Contains(string(body), "secret") || strings.Contains(string(body), "goroutine") {
		t.Errorf("500 body leaks internals: %s", body)
	}
	if !strings.Contains(s.logs.String(), "secret internals 1234") {
		t.Errorf("the panic is not in the log: %s", s.logs.String())
	}
	// The server still answers afterwards.
	if resp, _ := s.do(t, request{method: "GET", path: "/healthz"}); resp.StatusCode != http.StatusOK {
		t.Errorf("GET /healthz after a panic = %d, want 200", resp.StatusCode)
	}
}
