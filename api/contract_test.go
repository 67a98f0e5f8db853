package api_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	verrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/helpers"
)

// The OpenAPI document (api/openapi.json) is the API's contract, and the
// API's own tests hold the handlers to it: every answer that a test of
// this package reads through testServer.do is checked against the
// document by libopenapi-validator (OpenAPI 3.1, JSON Schema 2020-12), as
// is every request the server accepted (a 2xx answer). A handler that
// answers a status, a field or a type the document does not describe, or
// that accepts a request the document does not allow, fails the test that
// sent it, so the document cannot drift from the code unnoticed.

var (
	contractOnce sync.Once
	contract     validator.Validator
	contractErr  error
)

// contractValidator builds the validator of api/openapi.json once per
// test binary.
func contractValidator(t *testing.T) validator.Validator {
	t.Helper()
	contractOnce.Do(func() {
		spec, err := os.ReadFile("openapi.json")
		if err != nil {
			contractErr = err
			return
		}
		doc, err := libopenapi.NewDocument(spec)
		if err != nil {
			contractErr = err
			return
		}
		v, errs := validator.NewValidator(doc)
		if len(errs) > 0 {
			contractErr = errs[0]
			return
		}
		contract = v
	})
	if contractErr != nil {
		t.Fatalf("api/openapi.json: %v", contractErr)
	}
	return contract
}

// checkContract reports, as errors of t, what the document says is wrong
// with an exchange of the JSON API (contractViolations).
func checkContract(t *testing.T, req *http.Request, reqBody []byte, resp *http.Response, body []byte) {
	t.Helper()
	for _, v := range contractViolations(t, req, reqBody, resp, body) {
		t.Error("contract: " + v)
	}
}

// contractViolations returns what the document says is wrong with an
// exchange of the JSON API: reqBody is what was sent, body what came back.
// Paths outside /api/v1/ (the pages, /healthz, /metrics) are the web
// adapter's and are not part of the document.
func contractViolations(t *testing.T, req *http.Request, reqBody []byte, resp *http.Response, body []byte) []string {
	t.Helper()
	if !strings.HasPrefix(req.URL.Path, "/api/v1/") || strings.HasPrefix(req.URL.Path, "/api/v1/openapi.") {
		return nil
	}
	if req.Method == http.MethodOptions || resp.StatusCode == http.StatusNotFound && !documentedPath(t, req) || resp.StatusCode == http.StatusMethodNotAllowed {
		return nil // CORS preflights, and probes of paths and methods the API does not have
	}
	v := contractValidator(t)
	var out []string
	// The validator reads the bodies; give it copies.
	r := req.Clone(req.Context())
	r.Body = io.NopCloser(bytes.NewReader(reqBody))
	w := *resp
	w.Body = io.NopCloser(bytes.NewReader(body))
	w.Request = r
	if ok, errs := v.ValidateHttpResponse(r, &w); !ok {
		for _, e := range errs {
			out = append(out, fmt.Sprintf("%s %s answered %d: %s", req.Method, req.URL.Path, resp.StatusCode, describeViolation(e)))
		}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 || !checksRequest(req) {
		return out
	}
	r = req.Clone(req.Context())
	r.Body = io.NopCloser(bytes.NewReader(reqBody))
	if ok, errs := v.ValidateHttpRequestSync(r); !ok {
		for _, e := range errs {
			out = append(out, fmt.Sprintf("%s %s was accepted (%d) but the document does not allow the request: %s", req.Method, req.URL.Path, resp.StatusCode, describeViolation(e)))
		}
	}
	return out
}

// describeViolation says what the validator found, with the fields it names.
func describeViolation(e *verrors.ValidationError) string {
	var b strings.Builder
	b.WriteString(e.Message)
	if e.Reason != "" {
		b.WriteString(": " + e.Reason)
	}
	for _, f := range e.SchemaValidationErrors {
		b.WriteString("; " + f.FieldPath + ": " + f.Reason)
	}
	return b.String()
}

// documentedPath reports whether the document has an operation for the
// request's method and path (a 404 for a missing tournament is the
// document's; one for a path it does not have is the router's).
func documentedPath(t *testing.T, req *http.Request) bool {
	t.Helper()
	r := req.Clone(req.Context())
	r.Body = http.NoBody
	_, errs := contractValidator(t).ValidateHttpRequestSync(r)
	for _, e := range errs {
		if e.ValidationType == helpers.PathValidation { // no such path, or no such operation on it
			return false
		}
	}
	return true
}

// checksRequest reports whether an accepted request is held to the
// document's request schema. The record checkers (/api/v1/validate/…)
// answer 200 for any JSON object, with what is wrong with it as a record:
// their schema describes a good record, not what they accept. And the
// document describes JSON bodies; a request in another JSON media type
// (application/vnd.revisor+json, which the API takes as JSON) is checked
// by the tests that send it.
func checksRequest(req *http.Request) bool {
	if strings.HasPrefix(req.URL.Path, "/api/v1/validate/") {
		return false
	}
	ct := req.Header.Get("Content-Type")
	return ct == "" || strings.HasPrefix(ct, "application/json")
}

// TestContractCatchesDrift holds the check itself to what it is for: an
// answer or an accepted request that the document does not describe is
// reported, and one it describes is not.
func TestContractCatchesDrift(t *testing.T) {
	t.Parallel()
	const path = "/api/v1/tournaments/abc/standings"
	problem := `{"type":"urn:revisor:problem:tournament_not_found","title":"Not Found","status":404,"detail":"tournament \"abc\" not found","code":"tournament_not_found"}`
	cases := []struct {
		name, method, path, ct, sent string
		status                       int
		answer, answerType           string
		want                         bool
	}{
		{"a documented problem", "GET", path, "", "", 404, problem, "application/problem+json", false},
		{"an undocumented status", "GET", path, "", "", 418, problem, "application/problem+json", true},
		{"a body of the wrong shape", "GET", path, "", "", 200, `{"standings":"none"}`, "application/json", true},
		{"an accepted request the document refuses", "POST", "/api/v1/tournaments", "application/json", `{"name":17}`, 201, `{}`, "application/json", true},
		{"a probe of a path the API does not have", "GET", "/api/v1/nowhere", "", "", 404, problem, "application/problem+json", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			req := httptest.NewRequest(c.method, c.path, strings.NewReader(c.sent))
			if c.ct != "" {
				req.Header.Set("Content-Type", c.ct)
			}
			resp := &http.Response{StatusCode: c.status, Header: http.Header{"Content-Type": {c.answerType}}}
			got := contractViolations(t, req, []byte(c.sent), resp, []byte(c.answer))
			if (len(got) > 0) != c.want {
				t.Errorf("contractViolations(%s) = %q, want violations: %v", c.name, got, c.want)
			}
			if c.method == "POST" && !strings.Contains(strings.Join(got, "\n"), "does not allow the request") {
				t.Errorf("contractViolations(%s) = %q, want the request named", c.name, got)
			}
		})
	}
}
