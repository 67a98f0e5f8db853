package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/internal/ratelimit"
	"github.com/revisor-sm/revisor/tournament"
)

// problemContentType is the media type of error responses (RFC 9457).
const problemContentType = "application/problem+json"

// problemTypeBase prefixes a problem's code to make its type URI. The URIs
// identify problems; they are not meant to be fetched.
const problemTypeBase = "urn:revisor:problem:"

// codeOfStatus gives echo's own errors (unknown route, wrong method, …)
// stable codes.
var codeOfStatus = map[int]string{
	http.StatusBadRequest:            "bad_request",
	http.StatusUnauthorized:          "unauthorized",
	http.StatusForbidden:             "forbidden",
	http.StatusNotFound:              "route_not_found",
	http.StatusMethodNotAllowed:      "method_not_allowed",
	http.StatusRequestEntityTooLarge: tournament.CodeBodyTooLarge,
	http.StatusUnsupportedMediaType:  "unsupported_media_type",
	http.StatusTooManyRequests:       "too_many_requests",
	http.StatusServiceUnavailable:    tournament.CodeServiceUnavailable,
}

// problem is an RFC 9457 problem document with Revisor's code and, for
// application errors with details, extra members (such as errors).
type problem struct {
	Type, Title, Detail, Code, RequestID string
	Status                               int
	details                              map[string]any
	cause                                error // logged for server errors, never sent
}

// MarshalJSON writes the details, then the standard members over them.
func (p problem) MarshalJSON() ([]byte, error) {
	m := make(map[string]any, len(p.details)+6)
	maps.Copy(m, p.details)
	m["type"], m["title"], m["status"], m["detail"], m["code"] = p.Type, p.Title, p.Status, p.Detail, p.Code
	if p.RequestID != "" {
		m["request_id"] = p.RequestID
	}
	return json.Marshal(m)
}

// problemOf turns any error a handler returns into a problem; errors that
// are neither application nor echo errors become a 500 that tells nothing.
func problemOf(err error) problem {
	var te *tournament.Error
	var he *echo.HTTPError
	switch {
	case errors.As(err, &te):
		status := httpx.Status(te.Kind) // the one Kind→status table
		p := newProblem(status, te.Code, te.Message)
		if status == http.StatusInternalServerError {
			p.Detail = tournament.ErrorMessage(nil)
		}
		p.details, p.cause = te.Details, err
		return p
	case errors.As(err, &he):
		return echoProblem(he)
	}
	p := newProblem(http.StatusInternalServerError, tournament.CodeInternal, tournament.ErrorMessage(nil))
	p.cause = err
	return p
}

// echoProblem describes an error raised by echo itself: routing, or an
// HTTPError made by a handler.
func echoProblem(he *echo.HTTPError) problem {
	code, ok := codeOfStatus[he.Code]
	if !ok {
		code = strings.ReplaceAll(strings.ToLower(http.StatusText(he.Code)), " ", "_")
	}
	detail := http.StatusText(he.Code)
	if msg, ok := he.Message.(string); ok && msg != detail {
		detail = msg
	}
	p := newProblem(he.Code, code, detail)
	if he.Code >= 500 {
		p.Detail, p.cause = tournament.ErrorMessage(nil), he
	}
	return p
}

func newProblem(status int, code, detail string) problem {
	if code == "" {
		code = "error"
	}
	return problem{Type: problemTypeBase + code, Title: http.StatusText(status), Status: status,
		Detail: detail, Code: code}
}

// HandleError answers an error of the API's requests (the router's
// HTTPErrorHandler sends it those): every error leaves as problem+json.
// Causes of server errors are logged, never sent.
func (s *Server) HandleError(err error, c echo.Context) {
	p := problemOf(err)
	p.RequestID = c.Response().Header().Get(echo.HeaderXRequestID)
	if p.Code == "route_not_found" {
		p.Detail = fmt.Sprintf("there is no route %s %s", c.Request().Method, c.Request().URL.Path)
	}
	if p.Status >= 500 {
		level := slog.LevelError
		if errors.Is(err, context.Canceled) {
			level = slog.LevelWarn // the client went away
		}
		s.log.Log(c.Request().Context(), level, "request failed", "request_id", p.RequestID,
			"method", c.Request().Method, "route", c.Path(), "status", p.Status, "error", fmt.Sprint(p.cause))
	}
	if c.Response().Committed {
		return
	}
	writeProblem(c, p)
}

// retryAfterSeconds is the Retry-After of a 503: about the time a table's
// retry waits anyway, short beside a failover (docs/deploying.md).
const retryAfterSeconds = "2"

// writeProblem writes p as the response.
func writeProblem(c echo.Context, p problem) {
	h := c.Response().Header()
	switch p.Status {
	case http.StatusUnauthorized:
		h.Set(echo.HeaderWWWAuthenticate, `Bearer realm="revisor"`)
	case http.StatusServiceUnavailable:
		// A failover or a restart of the database lasts seconds: the
		// client is told when to try again rather than to give up.
		h.Set(echo.HeaderRetryAfter, retryAfterSeconds)
	}
	if p.Code == tournament.CodeBusy || p.Code == tournament.CodeTooManyStreams {
		h.Set("Retry-After", "5") // a budget spent for a moment
	}
	if p.Code == tournament.CodeTooManyAttempts { // the address's next try comes back after this
		h.Set("Retry-After", strconv.Itoa(int(ratelimit.DefaultEvery/time.Second)))
	}
	body, err := json.Marshal(p)
	if err != nil { // details that do not marshal: answer plainly
		body = []byte(`{"type":"` + problemTypeBase + `internal","title":"Internal Server Error","status":500,"detail":"An internal error occurred.","code":"internal"}`)
		p.Status = http.StatusInternalServerError
	}
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(p.Status)
		return
	}
	_ = c.Blob(p.Status, problemContentType, body)
}
