package main

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/internal/assemble"
	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/migrations"
	"github.com/revisor-sm/revisor/server"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/postgres"
)

// mapEnv is an environment for tests.
type mapEnv map[string]string

func (m mapEnv) get(k string) string { return m[k] }

// startServer serves the real router over a fresh database, wired as
// cmd/revisor wires it, with admin as the admin token, and returns its URL.
func startServer(t *testing.T, admin string) string {
	t.Helper()
	pool := dbtest.New(t)
	latest, err := migrations.Latest(migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	deps := assemble.Services(pool, assemble.Options{Keys: postgres.NewIdempotency(pool, time.Hour, time.Minute)})
	deps.Ready = postgres.Readiness(pool, latest)
	deps.Events = tournament.NewBroker()
	srv, err := server.New(api.Config{AdminTokenHash: api.HashToken(admin)}, deps)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return hs.URL
}
