package api

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/tournament"
)

// maxRequestIDLength bounds a client's X-Request-ID that the server adopts.
const maxRequestIDLength = 64

// observe is the outermost middleware: it gives the request an ID, turns a
// returned error into its problem response (so the status is final), and
// then writes the access log line and the metrics. The Authorization header
// and bodies are never logged.
func (s *Server) observe(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		req, res := c.Request(), c.Response()
		id := req.Header.Get(echo.HeaderXRequestID)
		if !validRequestID(id) {
			id = s.cfg.NewRequestID()
		}
		res.Header().Set(echo.HeaderXRequestID, id)
		s.metrics.inFlight.Inc()
		defer s.metrics.inFlight.Dec()
		if isEventStream(req) {
			ctx, cancel := s.drain.context(req.Context())
			defer cancel()
			c.SetRequest(req.WithContext(ctx))
		}

		if err := next(c); err != nil {
			c.Error(err)
		}

		elapsed := time.Since(start)
		route := routeLabel(c)
		status := res.Status
		s.metrics.observe(req.Method, route, status, elapsed)
		s.log.LogAttrs(req.Context(), slog.LevelInfo, "http request",
			slog.String("request_id", id),
			slog.String("method", req.Method),
			slog.String("path", req.URL.Path),
			slog.String("route", route),
			slog.Int("status", status),
			slog.Float64("duration_ms", float64(elapsed.Microseconds())/1000),
			slog.Int64("bytes_in", req.ContentLength),
			slog.Int64("bytes_out", res.Size),
			slog.String("remote_ip", c.RealIP()),
			slog.String("user_agent", req.UserAgent()),
		)
		return nil
	}
}

// validRequestID accepts a client's request ID only when it is short and
// printable, so that it cannot forge log lines.
func validRequestID(id string) bool { return printableToken(id, maxRequestIDLength) }

// printableToken reports whether s is 1 to max printable ASCII characters
// without spaces.
func printableToken(s string, max int) bool {
	if s == "" || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// routeLabel is the route template a request matched ("/api/v1/x/:id"), or
// "unmatched" for a path no route knows, keeping metric labels few.
func routeLabel(c echo.Context) string {
	p := c.Path()
	if p == "" || p == "/*" || c.Response().Status == http.StatusNotFound && isCatchAll(p) {
		return "unmatched"
	}
	return p
}

func isCatchAll(p string) bool { return len(p) > 0 && p[len(p)-1] == '*' }

// recover turns a panic in a handler into an internal error: the client gets
// a 500 problem that tells nothing; the log gets the panic and its stack.
func (s *Server) recover(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			r := recover()
			if r == nil {
				return
			}
			if r == http.ErrAbortHandler { //nolint:errorlint // net/http's sentinel is compared, not wrapped
				panic(r) // net/http's way to abort a response; it handles it
			}
			stack := make([]byte, 8<<10)
			stack = stack[:runtime.Stack(stack, false)]
			s.log.Error("panic in handler", "request_id", c.Response().Header().Get(echo.HeaderXRequestID),
				"panic", fmt.Sprint(r), "stack", string(stack))
			err = &tournament.Error{Kind: tournament.KindInternal, Code: "internal",
				Message: tournament.ErrorMessage(nil), Err: fmt.Errorf("panic: %v", r)}
		}()
		return next(c)
	}
}

// limitBody answers 413 to a body larger than the limit: at once when
// Content-Length says so, else when a handler reads past the limit.
func (s *Server) limitBody(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if req.ContentLength > s.cfg.BodyLimit {
			return bodyTooLarge(s.cfg.BodyLimit)
		}
		if req.Body != nil && req.Body != http.NoBody {
			req.Body = http.MaxBytesReader(c.Response(), req.Body, s.cfg.BodyLimit)
		}
		return next(c)
	}
}

func bodyTooLarge(limit int64) error {
	return tournament.Errorf(tournament.KindTooLarge, "body_too_large",
		"the request body is larger than the limit of %s bytes", strconv.FormatInt(limit, 10))
}

// drain ends long-lived responses when the server shuts down. A graceful
// shutdown waits for every request to finish; an event stream (Server-Sent
// Events) never does by itself, so its context is canceled when the drain
// begins, while ordinary requests in flight keep theirs and complete.
type drain struct {
	once sync.Once
	done chan struct{}
}

func newDrain() *drain { return &drain{done: make(chan struct{})} }

// context returns ctx canceled also when the drain begins.
func (d *drain) context(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-d.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// Drain tells event streams to end; call it when shutdown begins
// (http.Server.RegisterOnShutdown). Ordinary requests are not affected.
func (s *Server) Drain() { s.drain.once.Do(func() { close(s.drain.done) }) }

// isEventStream reports whether the client asks for Server-Sent Events.
func isEventStream(r *http.Request) bool {
	return strings.Contains(r.Header.Get(echo.HeaderAccept), "text/event-stream")
}
