// Tests of JSON request bodies: what a client sends wrong becomes a 4xx
// problem that names the field, never a 500.

package httpx_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/tournament"
)

// bodyContext is an echo context of a POST with body and content type ct.
func bodyContext(ct, body string) echo.Context {
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	if ct != "" {
		req.Header.Set(echo.HeaderContentType, ct)
	}
	return echo.New().NewContext(req, httptest.NewRecorder())
}

func TestDecodeJSON(t *testing.T) {
	t.Parallel()
	type body struct {
		Count int `json:"count"`
		Inner struct {
			Name string `json:"a/b~c"`
		} `json:"inner"`
	}
	for _, tc := range []struct {
		name, ct, body string
		status         int
		code, path     string
	}{
		{"valid", "application/json", `{"count": 3}`, 0, "", ""},
		{"a +json type", "application/problem+json; charset=utf-8", `{"count": 3}`, 0, "", ""},
		{"no content type", "", `{"count": 3}`, http.StatusUnsupportedMediaType, "", ""},
		{"text", "text/plain", `{"count": 3}`, http.StatusUnsupportedMediaType, "", ""},
		{"empty", "application/json", ``, http.StatusBadRequest, tournament.CodeMalformedJSON, ""},
		{"cut short", "application/json", `{"count": 3`, http.StatusBadRequest, tournament.CodeMalformedJSON, ""},
		{"not JSON", "application/json", `{count: 3}`, http.StatusBadRequest, tournament.CodeMalformedJSON, ""},
		{"trailing data", "application/json", `{"count": 3} {}`, http.StatusBadRequest, tournament.CodeMalformedJSON, ""},
		{"wrong type", "application/json", `{"count": "three"}`, http.StatusBadRequest, tournament.CodeInvalidFieldType, "/count"},
		{"wrong type deep", "application/json", `{"inner": {"a/b~c": 1}}`, http.StatusBadRequest, tournament.CodeInvalidFieldType, "/inner/a~1b~0c"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var v body
			err := httpx.DecodeJSON(bodyContext(tc.ct, tc.body), &v)
			if tc.status == 0 {
				if err != nil || v.Count != 3 {
					t.Fatalf("DecodeJSON(%s) = %v, %+v; want count 3", tc.body, err, v)
				}
				return
			}
			if got := httpx.StatusOf(err); got != tc.status {
				t.Fatalf("DecodeJSON(%s) = %v (status %d), want %d", tc.body, err, got, tc.status)
			}
			if tc.code != "" && tournament.ErrorCode(err) != tc.code {
				t.Errorf("DecodeJSON(%s) code = %q, want %q", tc.body, tournament.ErrorCode(err), tc.code)
			}
			if tc.path != "" {
				var te *tournament.Error
				if !errors.As(err, &te) {
					t.Fatalf("DecodeJSON(%s) = %T, want a *tournament.Error", tc.body, err)
				}
				fes, _ := te.Details["errors"].([]httpx.FieldError)
				if len(fes) != 1 || fes[0].Path != tc.path || !strings.Contains(te.Message, tc.path) {
					t.Errorf("DecodeJSON(%s) = %q with %+v, want the field %s named", tc.body, te.Message, fes, tc.path)
				}
			}
		})
	}
}

func TestBodyReadError(t *testing.T) {
	t.Parallel()
	c := bodyContext("application/json", `{"count": 1234567890}`)
	c.Request().Body = http.MaxBytesReader(c.Response(), c.Request().Body, 8)
	var v struct{ Count int }
	if err := httpx.DecodeJSON(c, &v); httpx.StatusOf(err) != http.StatusRequestEntityTooLarge {
		t.Errorf("a body past the limit = %v (status %d), want 413", err, httpx.StatusOf(err))
	}
	if err := httpx.BodyReadError(errors.New("connection reset")); tournament.ErrorCode(err) != tournament.CodeUnreadableBody {
		t.Errorf("BodyReadError(reset) = %v, want %s", err, tournament.CodeUnreadableBody)
	}
}

func TestBinder(t *testing.T) {
	t.Parallel()
	e := echo.New()
	e.Binder = httpx.Binder{}
	type body struct {
		Name  string `param:"name"`
		Count int    `json:"count" query:"count"`
	}
	for _, tc := range []struct {
		method, target, ct, body string
		want                     body
		status                   int
	}{
		{http.MethodPost, "/x/anna", "application/json", `{"count": 2}`, body{"anna", 2}, 0},
		{http.MethodPost, "/x/anna", "", ``, body{Name: "anna"}, 0},
		{http.MethodGet, "/x/bo?count=4", "", ``, body{"bo", 4}, 0},
		{http.MethodPost, "/x/anna", "text/plain", `{"count": 2}`, body{}, http.StatusUnsupportedMediaType},
		{http.MethodPut, "/x/anna", "application/json", `{"count": "2"}`, body{}, http.StatusBadRequest},
	} {
		req := httptest.NewRequest(tc.method, tc.target, strings.NewReader(tc.body))
		if tc.ct != "" {
			req.Header.Set(echo.HeaderContentType, tc.ct)
		}
		c := e.NewContext(req, httptest.NewRecorder())
		c.SetParamNames("name")
		c.SetParamValues(strings.SplitN(strings.TrimPrefix(req.URL.Path, "/x/"), "?", 2)[0])
		var got body
		err := c.Bind(&got)
		if tc.status != 0 {
			if httpx.StatusOf(err) != tc.status {
				t.Errorf("Bind(%s %s %s) = %v, want status %d", tc.method, tc.ct, tc.body, err, tc.status)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Bind(%s %s %s) = %+v, %v; want %+v", tc.method, tc.target, tc.body, got, err, tc.want)
		}
	}
}

// refusing is a body whose own decoding fails with an error of its own.
type refusing struct{}

func (*refusing) UnmarshalJSON([]byte) error { return errors.New("no") }

// TestDecodeJSONNamesTheWantedType: a value of the wrong JSON type is
// answered with the type the field wants in a client's words, and the
// field (the body itself when the whole value is wrong); a value its own
// decoding refuses is malformed JSON.
func TestDecodeJSONNamesTheWantedType(t *testing.T) {
	t.Parallel()
	type body struct {
		S string         `json:"s"`
		B bool           `json:"b"`
		L []int          `json:"l"`
		M map[string]int `json:"m"`
		C chan int       `json:"c"`
	}
	for _, tc := range []struct{ body, want string }{
		{`{"s": 1}`, "/s: want a string, got JSON number"},
		{`{"b": 1}`, "/b: want true or false, got JSON number"},
		{`{"l": 1}`, "/l: want an array, got JSON number"},
		{`{"m": 1}`, "/m: want an object, got JSON number"},
		{`{"c": 1}`, "/c: want another type, got JSON number"},
		{`"x"`, "the body: want an object, got JSON string"},
	} {
		t.Run(tc.body, func(t *testing.T) {
			t.Parallel()
			var v body
			err := httpx.DecodeJSON(bodyContext("application/json", tc.body), &v)
			if tournament.ErrorCode(err) != tournament.CodeInvalidFieldType || message(err) != tc.want {
				t.Errorf("DecodeJSON(%s) = %v (%s), want %q", tc.body, err, tournament.ErrorCode(err), tc.want)
			}
		})
	}
	var r refusing
	err := httpx.DecodeJSON(bodyContext("application/json", `{}`), &r)
	if tournament.ErrorCode(err) != tournament.CodeMalformedJSON || message(err) != "the body is not valid JSON" {
		t.Errorf("a value its decoding refuses: %v (%s), want malformed JSON", err, tournament.ErrorCode(err))
	}
}

// message is the message of a *tournament.Error, without its code.
func message(err error) string {
	var te *tournament.Error
	if !errors.As(err, &te) {
		return ""
	}
	return te.Message
}
