package api_test

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/internal/servertest"
	"github.com/revisor-sm/revisor/server"
)

// BenchmarkValidateDeal measures POST /api/v1/validate/deal inside the
// process: every middleware (request ID, access log as JSON, metrics,
// recover, body limit) and the engine, without the network. The load
// script (scripts/load-validate.sh) measures the same over HTTP.
func BenchmarkValidateDeal(b *testing.B) {
	deal, err := os.ReadFile("../scripts/load/deal.json")
	if err != nil {
		b.Fatal(err)
	}
	srv, err := server.New(api.Config{Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))}, servertest.Complete(server.Deps{}))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(deal)))
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest(http.MethodPost, "/api/v1/validate/deal", bytes.NewReader(deal))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				b.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
		}
	})
}
