package api

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/tournament"
)

// TestBindGivesProblems: handlers that use c.Bind get the API's own
// problems for bad bodies, not echo's messages.
func TestBindGivesProblems(t *testing.T) {
	t.Parallel()
	s := &Server{log: slog.New(slog.DiscardHandler)} // its HandleError only
	type body struct {
		Name  string `json:"name" param:"name"`
		Count int    `json:"count"`
	}
	var got body
	e := echo.New()
	e.HTTPErrorHandler, e.Binder = s.HandleError, httpx.Binder{}
	e.POST("/test/bind/:name", func(c echo.Context) error {
		got = body{}
		if err := c.Bind(&got); err != nil {
			return err
		}
		return c.JSON(http.StatusOK, got)
	})
	tests := []struct {
		contentType, body string
		status            int
		code              string
	}{
		{"application/json", `{"count": 3}`, http.StatusOK, ""},
		{"application/json", `{"count": "three"}`, http.StatusBadRequest, "invalid_field_type"},
		{"application/json", `{"count": 3`, http.StatusBadRequest, "malformed_json"},
		{"text/plain", `{"count": 3}`, http.StatusUnsupportedMediaType, "unsupported_media_type"},
	}
	for _, tt := range tests {
		req := httptest.NewRequest(http.MethodPost, "/test/bind/anna", strings.NewReader(tt.body))
		req.Header.Set("Content-Type", tt.contentType)
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		code := ""
		if rec.Code != http.StatusOK {
			code = problemCode(t, rec)
		}
		if rec.Code != tt.status || code != tt.code {
			t.Errorf("Bind(%s %s) = %d %q, want %d %q", tt.contentType, tt.body, rec.Code, code, tt.status, tt.code)
		}
		if tt.status == http.StatusOK && (got.Name != "anna" || got.Count != 3) {
			t.Errorf("Bind(%s) = %+v, want name from the path and count from the body", tt.body, got)
		}
	}
}

func problemCode(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	if ct := rec.Header().Get("Content-Type"); ct != problemContentType {
		t.Errorf("Content-Type = %q, want %s", ct, problemContentType)
	}
	var p struct{ Code string }
	if err := httpx.UnmarshalJSON(rec.Body.Bytes(), &p); err != nil {
		t.Fatalf("problem %s: %v", rec.Body, tournament.ErrorMessage(err))
	}
	return p.Code
}
