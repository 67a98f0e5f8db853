package httpx

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
)

// TestDrainEndsEventStreams: Drain cancels the context of a request that
// asked for an event stream, and only of such a request.
func TestDrainEndsEventStreams(t *testing.T) {
	t.Parallel()
	metrics, err := NewMetrics(prometheus.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewMiddleware(MiddlewareConfig{Metrics: metrics})
	if err != nil {
		t.Fatal(err)
	}
	e := echo.New()
	s.Use(e)
	ended := make(chan string, 2)
	e.GET("/test/wait", func(c echo.Context) error {
		select {
		case <-c.Request().Context().Done():
			ended <- c.Request().Header.Get("Accept") + ": canceled"
		case <-time.After(500 * time.Millisecond):
			ended <- c.Request().Header.Get("Accept") + ": finished"
		}
		return c.NoContent(http.StatusNoContent)
	})
	hs := httptest.NewServer(e)
	defer hs.Close()
	for _, accept := range []string{"text/event-stream", "application/json"} {
		go func() {
			req, _ := http.NewRequest("GET", hs.URL+"/test/wait", nil)
			req.Header.Set("Accept", accept)
			if resp, err := http.DefaultClient.Do(req); err == nil {
				resp.Body.Close()
			}
		}()
	}
	time.Sleep(100 * time.Millisecond)
	s.Drain()
	s.Drain() // twice is harmless
	got := map[string]bool{<-ended: true, <-ended: true}
	for _, want := range []string{"text/event-stream: canceled", "application/json: finished"} {
		if !got[want] {
			t.Errorf("after Drain: %v, want %q", got, want)
		}
	}
}
