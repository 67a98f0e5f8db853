package httpx

import (
	"context"
	"crypto/rand"
	"errors"
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

// DefaultBodyLimit is the largest request body read by default: 1 MiB.
const DefaultBodyLimit = 1 << 20

// maxRequestIDLength bounds a client's X-Request-ID that the server adopts.
const maxRequestIDLength = 64

// MiddlewareConfig holds the settings of the shared request middleware.
type MiddlewareConfig struct {
	// Logger receives one JSON line per request and the panics. Nil
	// discards them.
	Logger *slog.Logger
	// Metrics counts the requests (NewMetrics); required.
	Metrics *Metrics
	// NewRequestID makes request IDs; nil means 16 random base32 characters.
	NewRequestID func() string
	// BodyLimit is the largest request body in bytes; 0 means
	// DefaultBodyLimit.
	BodyLimit int64
	// TrustProxy believes the proxy's X-Forwarded-Proto (HSTS).
	TrustProxy bool
}

// Middleware is the request middleware every response passes, the API's
// and the pages' alike, applied once by the router.
type Middleware struct {
	cfg   MiddlewareConfig
	drain *drain
}

// NewMiddleware returns the middleware with cfg's defaults filled in.
func NewMiddleware(cfg MiddlewareConfig) (*Middleware, error) {
	if cfg.Metrics == nil {
		return nil, fmt.Errorf("httpx.NewMiddleware: no Metrics")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.NewRequestID == nil {
		cfg.NewRequestID = func() string { return rand.Text()[:16] }
	}
	if cfg.BodyLimit <= 0 {
		cfg.BodyLimit = DefaultBodyLimit
	}
	return &Middleware{cfg: cfg, drain: newDrain()}, nil
}

// Use installs the middleware on e, outermost first: observe, recover,
// security headers, clean input (input.go), body limit.
func (m *Middleware) Use(e *echo.Echo) {
	e.Use(m.observe, m.recover, m.securityHeaders, m.cleanInput, m.limitBody)
}

// observe is the outermost middleware: it gives the request an ID, turns a
// returned error into its response (so the status is final), and then
// writes the access log line and the metrics. The Authorization header and
// bodies are never logged.
func (m *Middleware) observe(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		req, res := c.Request(), c.Response()
		id := req.Header.Get(echo.HeaderXRequestID)
		if !validRequestID(id) {
			id = m.cfg.NewRequestID()
		}
		res.Header().Set(echo.HeaderXRequestID, id)
		m.cfg.Metrics.inFlight.Inc()
		defer m.cfg.Metrics.inFlight.Dec()
		if isEventStream(req) {
			ctx, cancel := m.drain.context(req.Context())
			defer cancel()
			c.SetRequest(req.WithContext(ctx))
		}

		err := next(c)
		level := slog.LevelInfo
		switch {
		case clientGone(req, res):
			// The client hung up before its answer: no server error (the
			// handler's error is the canceled context), nothing to write.
			res.Status, level = StatusClientClosed, slog.LevelDebug
		case err != nil:
			c.Error(err)
		}

		elapsed := time.Since(start)
		route := routeLabel(c)
		status := res.Status
		m.cfg.Metrics.observe(req.Method, route, status, elapsed)
		if !m.cfg.Logger.Enabled(req.Context(), level) {
			return nil
		}
		m.cfg.Logger.LogAttrs(req.Context(), level, "http request",
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

// StatusClientClosed is the status counted for a request whose client
// closed the connection before its answer (nginx's 499): neither the
// client's fault nor the server's, and kept out of the 5xx series.
const StatusClientClosed = 499

// clientGone reports whether req's client went away before an answer was
// written. req is the request as it arrived: a stream's drain (shutdown)
// cancels only the context derived from it, and a request's deadline
// (cmd/revisor) ends in DeadlineExceeded, a 503, not here.
func clientGone(req *http.Request, res *echo.Response) bool {
	return !res.Committed && errors.Is(req.Context().Err(), context.Canceled)
}

// validRequestID accepts a client's request ID only when it is short and
// printable, so that it cannot forge log lines.
func validRequestID(id string) bool { return PrintableToken(id, maxRequestIDLength) }

// PrintableToken reports whether s is 1 to max printable ASCII characters
// without spaces.
func PrintableToken(s string, max int) bool {
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
// a 500 that tells nothing; the log gets the panic and its stack.
func (m *Middleware) recover(next echo.HandlerFunc) echo.HandlerFunc {
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
			m.cfg.Logger.Error("panic in handler", "request_id", c.Response().Header().Get(echo.HeaderXRequestID),
				"panic", fmt.Sprint(r), "stack", string(stack))
			err = &tournament.Error{Kind: tournament.KindInternal, Code: tournament.CodeInternal,
				Message: tournament.ErrorMessage(nil), Err: fmt.Errorf("panic: %v", r)}
		}()
		return next(c)
	}
}

// securityHeaders sets the headers every response carries: no MIME
// sniffing, no framing, no shared browsing context, and HSTS when the
// request came over TLS (directly, or by the trusted proxy's word). Each
// adapter adds its own Content-Security-Policy and Referrer-Policy.
func (m *Middleware) securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h["X-Content-Type-Options"] = noSniff
		h["X-Frame-Options"] = denyFrames
		h["Cross-Origin-Opener-Policy"] = sameOrigin
		if c.IsTLS() || (m.cfg.TrustProxy && strings.EqualFold(c.Request().Header.Get(echo.HeaderXForwardedProto), "https")) {
			h["Strict-Transport-Security"] = hsts
		}
		return next(c)
	}
}

// The values of securityHeaders, made once: every answer carries them, and
// a Header.Set allocates a slice each time (a thousand phones fetch a page
// after each result, issue 28). Each is a slice of one, never changed.
var (
	noSniff    = []string{"nosniff"}
	denyFrames = []string{"DENY"}
	sameOrigin = []string{"same-origin"}
	hsts       = []string{"max-age=31536000"}
)

// limitBody answers 413 to a body larger than the limit: at once when
// Content-Length says so, else when a handler reads past the limit.
func (m *Middleware) limitBody(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if req.ContentLength > m.cfg.BodyLimit {
			return BodyTooLarge(m.cfg.BodyLimit)
		}
		if req.Body != nil && req.Body != http.NoBody {
			req.Body = http.MaxBytesReader(c.Response(), req.Body, m.cfg.BodyLimit)
		}
		return next(c)
	}
}

// BodyTooLarge is the error of a request body over limit bytes (413).
func BodyTooLarge(limit int64) error {
	return tournament.Errorf(tournament.KindTooLarge, tournament.CodeBodyTooLarge,
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
func (m *Middleware) Drain() { m.drain.once.Do(func() { close(m.drain.done) }) }

// isEventStream reports whether the client asks for Server-Sent Events.
func isEventStream(r *http.Request) bool {
	return strings.Contains(r.Header.Get(echo.HeaderAccept), "text/event-stream")
}
