package main

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/migrations"
	"github.com/revisor-sm/revisor/server"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/postgres"
	"github.com/revisor-sm/revisor/tournament/referee"
	"github.com/revisor-sm/revisor/tournament/referee/refereepg"
	"github.com/revisor-sm/revisor/tournament/registry"
	"github.com/revisor-sm/revisor/tournament/registry/registrypg"
	"github.com/revisor-sm/revisor/tournament/transfer"
	"github.com/revisor-sm/revisor/tournament/transfer/transferpg"
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
	store := postgres.NewStore(pool)
	svc := tournament.NewService(store)
	plays := play.New(svc, store)
	refs := referee.New(svc, plays, refereepg.New(store))
	srv, err := server.New(api.Config{AdminTokenHash: api.HashToken(admin)}, server.Deps{
		Ready:       postgres.Readiness(pool, latest),
		Idempotency: postgres.NewIdempotency(pool, time.Hour, time.Minute),
		Tokens:      api.NewRefereeTokenResolver(api.NewTokenResolver(svc), refs),
		Tournaments: svc,
		Play:        plays,
		Referees:    refs,
		Register:    registry.New(registrypg.New(store), store, nil),
		Transfer:    transfer.New(svc, transferpg.New(store)),
		Events:      tournament.NewBroker(),
	})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return hs.URL
}
