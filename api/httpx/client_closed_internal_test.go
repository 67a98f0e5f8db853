package httpx

import (
	"bytes"
	"fmt"
	"log/slog"
	"net"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestClientClosedIs499: a client that hangs up while its request is being
// answered is counted as 499, logged below WARN, and kept out of the 5xx
// series and the error handler (issue 25, point 7: 100 hang-ups on the
// standings were 100 × 500 and ERROR lines).
func TestClientClosedIs499(t *testing.T) {
	reg := prometheus.NewRegistry()
	metrics, err := NewMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	s, err := NewMiddleware(MiddlewareConfig{Metrics: metrics, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	e := echo.New()
	handled := make(chan struct{}, 1)
	e.HTTPErrorHandler = func(err error, c echo.Context) {
		log.Error("request failed", "error", err.Error())
		_ = c.NoContent(StatusOf(err))
	}
	s.Use(e)
	e.GET("/standings", func(c echo.Context) error {
		<-c.Request().Context().Done()
		defer func() { handled <- struct{}{} }()
		return fmt.Errorf("read standings: %w", c.Request().Context().Err())
	})
	hs := httptest.NewServer(e)
	defer hs.Close()
	conn, err := net.Dial("tcp", hs.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "GET /standings HTTP/1.1\r\nHost: x\r\n\r\n")
	time.Sleep(50 * time.Millisecond)
	conn.Close()
	select {
	case <-handled:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler never heard that the client left")
	}
	hs.Close() // waits for the request's middleware to finish
	if got := testutil.ToFloat64(metrics.requests.WithLabelValues("GET", "/standings", "499")); got != 1 {
		t.Errorf("requests{status=499} = %v, want 1", got)
	}
	if got := testutil.ToFloat64(metrics.requests.WithLabelValues("GET", "/standings", "500")); got != 0 {
		t.Errorf("requests{status=500} = %v, want 0", got)
	}
	if strings.Contains(logs.String(), "level=ERROR") || strings.Contains(logs.String(), "level=WARN") {
		t.Errorf("log of a hang-up at WARN or above:\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), "status=499") {
		t.Errorf("log does not record 499:\n%s", logs.String())
	}
}
