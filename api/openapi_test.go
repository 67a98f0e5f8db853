package api_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/internal/servertest"
	"github.com/revisor-sm/revisor/server"
)

// openAPIDoc is the part of the OpenAPI document the tests read.
type openAPIDoc struct {
	OpenAPI    string                               `json:"openapi"`
	Paths      map[string]map[string]map[string]any `json:"paths"`
	Components map[string]map[string]any            `json:"components"`
}

func fetchOpenAPI(t *testing.T, s *testServer) (openAPIDoc, []byte) {
	t.Helper()
	resp, body := s.do(t, request{method: "GET", path: "/api/v1/openapi.json"})
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("GET /api/v1/openapi.json = %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var doc openAPIDoc
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatalf("the OpenAPI document is not JSON: %v", err)
	}
	return doc, body
}

// TestOpenAPIMatchesRoutes holds the document and the router together:
// every route echo serves is documented, and every documented operation is
// served. When it fails, it lists exactly what to add where.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	t.Parallel()
	srv, err := server.New(api.Config{}, servertest.Complete(server.Deps{}))
	if err != nil {
		t.Fatal(err)
	}
	s := startServer(t, api.Config{}, server.Deps{})
	doc, _ := fetchOpenAPI(t, s)
	documented := map[api.Route]bool{}
	for path, ops := range doc.Paths {
		for method := range ops {
			if isHTTPMethod(method) {
				documented[api.Route{Method: strings.ToUpper(method), Path: path}] = true
			}
		}
	}
	served := map[api.Route]bool{}
	for _, r := range srv.Routes() {
		served[r] = true
		if !documented[r] {
			t.Errorf("route %s %s is served but not documented: add paths[%q].%s to api/openapi.json", r.Method, r.Path, r.Path, strings.ToLower(r.Method))
		}
	}
	for r := range documented {
		if !served[r] {
			t.Errorf("operation %s %s is documented in api/openapi.json but no route serves it: register it in a xRoutes function (api/server.go routes)", r.Method, r.Path)
		}
	}
}

// TestOpenAPIDocument checks the document's form: OpenAPI 3.1, every
// operation with an operationId and responses, and every $ref resolving.
func TestOpenAPIDocument(t *testing.T) {
	t.Parallel()
	s := startServer(t, api.Config{}, server.Deps{})
	doc, body := fetchOpenAPI(t, s)
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi = %q, want 3.1.0", doc.OpenAPI)
	}
	var ids []string
	for path, ops := range doc.Paths {
		for method, op := range ops {
			if !isHTTPMethod(method) {
				continue
			}
			id, _ := op["operationId"].(string)
			if id == "" || slices.Contains(ids, id) {
				t.Errorf("%s %s: operationId %q missing or repeated", method, path, id)
			}
			ids = append(ids, id)
			if _, ok := op["responses"].(map[string]any); !ok {
				t.Errorf("%s %s: no responses", method, path)
			}
		}
	}
	var all any
	if err := json.Unmarshal(body, &all); err != nil {
		t.Fatal(err)
	}
	walkRefs(all, func(ref string) {
		if !resolves(all, ref) {
			t.Errorf("$ref %q does not resolve", ref)
		}
	})
	resp, yaml := s.do(t, request{method: "GET", path: "/api/v1/openapi.yaml"})
	if resp.StatusCode != http.StatusOK || string(yaml) != string(body) {
		t.Errorf("GET /api/v1/openapi.yaml = %d, want 200 with the same document", resp.StatusCode)
	}
}

func isHTTPMethod(m string) bool {
	return slices.Contains([]string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}, m)
}

// walkRefs calls f with every "$ref" value in v.
func walkRefs(v any, f func(string)) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && k == "$ref" {
				f(s)
			}
			walkRefs(x, f)
		}
	case []any:
		for _, x := range v {
			walkRefs(x, f)
		}
	}
}

// resolves reports whether a local "#/a/b" reference points at something.
func resolves(doc any, ref string) bool {
	p, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return false
	}
	cur := doc
	for _, part := range strings.Split(p, "/") {
		m, ok := cur.(map[string]any)
		if !ok {
			return false
		}
		if cur, ok = m[strings.NewReplacer("~1", "/", "~0", "~").Replace(part)]; !ok {
			return false
		}
	}
	return true
}
