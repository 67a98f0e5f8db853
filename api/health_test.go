package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/internal/servertest"
	"github.com/revisor-sm/revisor/migrations"
	"github.com/revisor-sm/revisor/server"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/postgres"
	"github.com/revisor-sm/revisor/tournament/referee"
	"github.com/revisor-sm/revisor/tournament/registry"
	"github.com/revisor-sm/revisor/web"
)

func TestHealthz(t *testing.T) {
	t.Parallel()
	s := startServer(t, api.Config{}, server.Deps{})
	resp, body := s.do(t, request{method: "GET", path: "/healthz"})
	if resp.StatusCode != http.StatusOK || string(body) != "{\"status\":\"ok\"}\n" {
		t.Errorf("GET /healthz = %d %q, want 200 {\"status\":\"ok\"}", resp.StatusCode, body)
	}
}

func TestReadyz(t *testing.T) {
	t.Parallel()
	latest, err := migrations.Latest(migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	migrated := dbtest.New(t)
	empty := openPool(t, dbtest.NewEmptyURL(t))
	// Nothing listens on port 1: the database is unreachable.
	unreachable := openPool(t, "postgres://postgres@127.0.0.1:1/x?sslmode=disable&connect_timeout=1")
	tests := []struct {
		name   string
		pool   *pgxpool.Pool
		status int
		code   string
	}{
		{"migrated", migrated, http.StatusOK, ""},
		{"never migrated", empty, http.StatusServiceUnavailable, "schema_not_current"},
		{"unreachable", unreachable, http.StatusServiceUnavailable, "database_unavailable"},
	}
	for _, tt := range tests {
		s := startServer(t, api.Config{}, server.Deps{Ready: postgres.Readiness(tt.pool, latest)})
		resp, body := s.do(t, request{method: "GET", path: "/readyz"})
		if tt.status == http.StatusOK {
			var st struct{ Status string }
			if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &st) != nil || st.Status != "ready" {
				t.Errorf("GET /readyz (%s) = %d %s, want 200 ready", tt.name, resp.StatusCode, body)
			}
			continue
		}
		wantProblem(t, "GET /readyz ("+tt.name+")", resp, body, tt.status, tt.code)
		if ra := resp.Header.Get("Retry-After"); ra == "" {
			t.Errorf("GET /readyz (%s) = 503 without Retry-After, want a delay in seconds", tt.name)
		}
	}
}

// TestRequiredDependencies: a server is never started without one of its
// services (it used to start and answer 503 where one was missing, such
// as /readyz without a readiness check); New names the missing one.
func TestRequiredDependencies(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		drop func(*server.Deps)
	}{
		{"Ready", func(d *server.Deps) { d.Ready = nil }},
		{"Idempotency", func(d *server.Deps) { d.Idempotency = nil }},
		{"Tokens", func(d *server.Deps) { d.Tokens = nil }},
		{"Tournaments", func(d *server.Deps) { d.Tournaments = nil }},
		{"Referees", func(d *server.Deps) { d.Referees = nil }},
		{"Register", func(d *server.Deps) { d.Register = nil }},
		{"Events", func(d *server.Deps) { d.Events = nil }},
	} {
		deps := servertest.Complete(server.Deps{})
		tt.drop(&deps)
		srv, err := server.New(api.Config{}, deps)
		if err == nil || !strings.Contains(err.Error(), tt.name) {
			t.Errorf("server.New without %s = %v, %v; want an error naming %s", tt.name, srv, err, tt.name)
		}
	}
	if _, err := server.New(api.Config{}, servertest.Complete(server.Deps{})); err != nil {
		t.Errorf("server.New with every dependency: %v", err)
	}
}

// TestConstructorsNameEachMissingService: api.New and web.New, which take
// the services through narrow interfaces, refuse a Deps without any one of
// its required fields and name it.
func TestConstructorsNameEachMissingService(t *testing.T) {
	t.Parallel()
	svc := tournament.NewService(nil)
	plays := play.New(svc, nil)
	refs, reg := referee.New(svc, plays, nil), registry.New(nil, nil, nil)
	full := servertest.Complete(server.Deps{})
	apiDeps := api.Deps{Ready: full.Ready, Idempotency: full.Idempotency, Tokens: full.Tokens,
		Tournaments: svc, Rounds: plays, Games: plays, Table: app.NewTable(plays, refs), Room: plays, Referees: refs, Disputes: refs, Register: reg}
	webDeps := web.Deps{Tournaments: svc, Snapshots: svc, Players: svc, Rounds: plays, Room: plays, Referees: refs, Register: reg,
		Events: tournament.NewBroker(), Table: app.NewTable(plays, refs), Once: app.NewOnce(full.Idempotency, nil), Transfer: full.Transfer}
	optional := map[string]bool{"Events": true, "Failures": true, "Registry": true}
	for _, tt := range []struct {
		deps     any
		optional map[string]bool
		build    func(deps any) error
	}{
		{&apiDeps, optional, func(d any) error { _, err := api.New(api.Config{}, *d.(*api.Deps)); return err }},
		{&webDeps, nil, func(d any) error { _, err := web.New(web.Config{}, *d.(*web.Deps)); return err }},
	} {
		if err := tt.build(tt.deps); err != nil {
			t.Fatalf("New with every dependency: %v", err)
		}
		v := reflect.ValueOf(tt.deps).Elem()
		for i := range v.NumField() {
			name := v.Type().Field(i).Name
			if tt.optional[name] {
				continue
			}
			f := v.Field(i)
			kept := reflect.ValueOf(f.Interface())
			f.SetZero()
			if err := tt.build(tt.deps); err == nil || !strings.Contains(err.Error(), "dependency "+name+" ") {
				t.Errorf("%s without %s: %v; want an error naming %s", v.Type(), name, err, name)
			}
			f.Set(kept)
		}
	}
}

func openPool(t *testing.T, url string) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}
