package postgres_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/migrations"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/postgres"
)

// TestMigrationsUpDownUp runs every migration up, all the way down and up
// again: each down file must undo its up file completely.
func TestMigrationsUpDownUp(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	u := dbtest.NewEmptyURL(t)
	versions, err := migrations.Versions(migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	latest, count := versions[len(versions)-1], len(versions)
	m, err := postgres.NewMigrator(u, migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	pool, err := postgres.Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()

	checkVersion(t, m, 0)
	if err := m.Up(); err != nil {
		t.Fatalf("first Up: %v", err)
	}
	checkVersion(t, m, latest)
	if n := tables(t, pool); n == 0 {
		t.Fatalf("after Up: %d tables besides schema_migrations, want some", n)
	}
	if err := m.Down(count); err != nil {
		t.Fatalf("Down(%d): %v", count, err)
	}
	checkVersion(t, m, 0)
	if n := tables(t, pool); n != 0 {
		t.Fatalf("after Down: %d tables besides schema_migrations, want 0 (a down file leaves something behind)", n)
	}
	if err := m.Up(); err != nil {
		t.Fatalf("second Up: %v", err)
	}
	checkVersion(t, m, latest)
	if err := m.Up(); err != nil {
		t.Fatalf("Up on a current schema = %v, want nil", err)
	}
}

// TestMigrateWithPoolSettings migrates a database whose URL carries the
// pool's settings (pool_max_conns, …): they size the pool and are not sent
// to PostgreSQL, which would refuse them as unknown parameters.
func TestMigrateWithPoolSettings(t *testing.T) {
	t.Parallel()
	u := dbtest.NewEmptyURL(t)
	sep := "?"
	if strings.Contains(u, "?") {
		sep = "&"
	}
	u += sep + "pool_max_conns=7&pool_min_conns=1"
	if _, err := postgres.Migrate(u, migrations.FS); err != nil {
		t.Fatalf("Migrate(URL with pool settings) = %v, want the schema migrated", err)
	}
	pool, err := postgres.Open(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if got := pool.Config().MaxConns; got != 7 {
		t.Errorf("pool's MaxConns = %d, want 7 from the URL", got)
	}
}

func TestMigratorDownNeedsPositiveSteps(t *testing.T) {
	t.Parallel()
	m, err := postgres.NewMigrator(dbtest.NewURL(t), migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for _, n := range []int{0, -1} {
		if err := m.Down(n); tournament.ErrorCode(err) != "invalid_steps" {
			t.Errorf("Down(%d) = %v, want invalid_steps", n, err)
		}
	}
}

func TestNewMigratorRejectsNonURL(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"host=localhost dbname=x", "mysql://x/y", "://"} {
		_, err := postgres.NewMigrator(in, migrations.FS)
		if got := tournament.ErrorCode(err); got != "invalid_database_url" {
			t.Errorf("NewMigrator(%q) code = %q, want invalid_database_url", in, got)
		}
	}
}

func TestOpenUnreachableIsUnavailable(t *testing.T) {
	t.Parallel()
	// Port 1 on loopback: nothing listens there, the connection is refused.
	_, err := postgres.Open(context.Background(), "postgres://postgres@127.0.0.1:1/x?sslmode=disable&connect_timeout=2")
	if got := tournament.ErrorKind(err); got != tournament.KindUnavailable {
		t.Fatalf("Open(unreachable) kind = %q (%v), want unavailable", got, err)
	}
}

func TestReadiness(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	latest, err := migrations.Latest(migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	migrated := dbtest.New(t)
	empty, err := postgres.Open(ctx, dbtest.NewEmptyURL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer empty.Close()
	tests := []struct {
		name string
		pool *pgxpool.Pool
		want uint
		code string
	}{
		{"current", migrated, latest, ""},
		{"behind", migrated, latest + 1, "schema_not_current"},
		{"never migrated", empty, latest, "schema_not_current"},
	}
	for _, tt := range tests {
		err := postgres.Readiness(tt.pool, tt.want)(ctx)
		got := ""
		if err != nil {
			got = tournament.ErrorCode(err)
		}
		if got != tt.code {
			t.Errorf("Readiness(%s, %d) = %v, want code %q", tt.name, tt.want, err, tt.code)
		}
	}
}

func checkVersion(t *testing.T, m *postgres.Migrator, want uint) {
	t.Helper()
	got, dirty, err := m.Version()
	if err != nil || dirty || got != want {
		t.Fatalf("Version() = %d, dirty %v, %v; want %d, clean, nil", got, dirty, err, want)
	}
}

// tables counts the tables and sequences in schema public other than
// golang-migrate's own.
func tables(t *testing.T, pool *pgxpool.Pool) int {
	t.Helper()
	var n int
	err := pool.QueryRow(context.Background(), `
		SELECT count(*) FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
		WHERE s.nspname = 'public' AND c.relkind IN ('r', 'S', 'v', 'm', 'p')
		  AND c.relname <> 'schema_migrations'`).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
