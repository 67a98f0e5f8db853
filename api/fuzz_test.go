package api_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/internal/servertest"
	"github.com/revisor-sm/revisor/server"
)

// FuzzRequests sends arbitrary bodies, content types and Authorization
// headers to the public endpoints. Whatever comes in, the answer is never a
// server error and is always JSON: a result, or a problem with a code.
// Seeds are below and in testdata/fuzz/FuzzRequests.
func FuzzRequests(f *testing.F) {
	f.Add("/api/v1/validate/deal", "application/json", "", minimalDeal)
	f.Add("/api/v1/validate/game", "application/json", "Bearer x", `{"players":["a","b","c","d"],"first_dealer":"a","deals":[{"sheet":{"a":{"hand1":2}}}]}`)
	f.Add("/api/v1/validate/deal", "text/plain", "Basic abc", `{"players": [`)
	f.Add("/api/v1/whoami", "", "Bearer admin", "")
	f.Add("/api/v1/validate/bridge", "application/json", "", `{"game":"bridge_chicago","players":["a","b","c","d"],"first_dealer":"a","deals":[{"auction":["1NT","P","3NT","P","P","P"],"tricks":9}]}`)
	f.Add("/api/v1/validate/deal", "application/json; charset=utf-8", "bearer  ", `{"hands":{"a":["10h","♠A"]}}`)
	srv, err := server.New(api.Config{AdminTokenHash: api.HashToken("admin")}, servertest.Complete(server.Deps{}))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, path, contentType, auth, body string) {
		method := http.MethodPost
		if path == "/api/v1/whoami" {
			method = http.MethodGet
		}
		req, err := http.NewRequest(method, "http://revisor.test"+path, strings.NewReader(body))
		if err != nil || req.URL.Path != path || !strings.HasPrefix(path, "/api/") {
			return // not a request path net/http would pass on, or not the JSON API (web pages are HTML)
		}
		req.Header.Set("Content-Type", contentType)
		req.Header.Set("Authorization", auth)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s %s (%q, %q) %q = %d %s, want no server error", method, path, contentType, auth, body, rec.Code, rec.Body)
		}
		var v map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
			t.Fatalf("%s %s %q = %d with a body that is not a JSON object: %q", method, path, body, rec.Code, rec.Body)
		}
		if rec.Code >= 400 && (v["code"] == nil || rec.Header().Get("Content-Type") != "application/problem+json") {
			t.Fatalf("%s %s %q = %d without a problem+json code: %s", method, path, body, rec.Code, rec.Body)
		}
	})
}
