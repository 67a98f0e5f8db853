package dbtest_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/migrations"
)

// TestNewURL checks that each call gives another database, migrated to the
// latest version, and that the database is gone after the test.
func TestNewURL(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	latest, err := migrations.Latest(migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	t.Run("use", func(t *testing.T) {
		a, b := dbtest.NewURL(t), dbtest.NewURL(t)
		names = []string{dbName(t, a), dbName(t, b)}
		if names[0] == names[1] || !strings.HasPrefix(names[0], "revisor_test_") {
			t.Fatalf("NewURL twice = %s and %s, want two revisor_test_ databases", names[0], names[1])
		}
		conn, err := pgx.Connect(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		var v int64
		if err := conn.QueryRow(ctx, `SELECT version FROM schema_migrations`).Scan(&v); err != nil || v != int64(latest) {
			t.Errorf("schema version = %d, %v; want %d", v, err, latest)
		}
		var sc string
		if err := conn.QueryRow(ctx, `SHOW synchronous_commit`).Scan(&sc); err != nil || sc != "off" {
			t.Errorf("synchronous_commit = %q, %v; want off (a test's database need not survive a crash)", sc, err)
		}
	})
	pool := dbtest.New(t)
	for _, name := range names {
		var exists bool
		if err := pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists); err != nil {
			t.Fatal(err)
		}
		if exists {
			t.Errorf("database %s still exists after its test ended", name)
		}
	}
}

func dbName(t *testing.T, u string) string {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(p.Path, "/")
}
