// Package dbtest gives each test its own PostgreSQL database: created with a
// random name, migrated with the project's migrations, and dropped when the
// test ends. Tests run against real PostgreSQL, never a mock.
//
// The server is DATABASE_URL when set, else
// postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable. scripts/test.sh
// starts one when none is running.
package dbtest

import (
	"context"
	"crypto/rand"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/revisor-sm/revisor/migrations"
	"github.com/revisor-sm/revisor/tournament/postgres"
)

// DefaultURL is the server used when DATABASE_URL is not set.
const DefaultURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// New returns a pool on a fresh, migrated database that is dropped when tb
// ends.
func New(tb testing.TB) *pgxpool.Pool {
	tb.Helper()
	pool, err := pgxpool.New(context.Background(), NewURL(tb))
	if err != nil {
		tb.Fatalf("dbtest: connect: %v", err)
	}
	tb.Cleanup(pool.Close) // runs before the database is dropped
	return pool
}

// NewURL returns the URL of a fresh, migrated database that is dropped when
// tb ends; use it to start a real server.
func NewURL(tb testing.TB) string {
	tb.Helper()
	u := NewEmptyURL(tb)
	if _, err := postgres.Migrate(u, migrations.FS); err != nil {
		tb.Fatalf("dbtest: migrate: %v", err)
	}
	return u
}

// NewEmptyURL returns the URL of a fresh database without any migration,
// dropped when tb ends; for tests of migrations themselves.
func NewEmptyURL(tb testing.TB) string {
	tb.Helper()
	base := serverURL()
	name := "revisor_test_" + strings.ToLower(rand.Text()[:16])
	admin(tb, base, "CREATE DATABASE "+name)
	tb.Cleanup(func() { admin(tb, base, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)") })
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatalf("dbtest: DATABASE_URL: %v", err)
	}
	u.Path = "/" + name
	return u.String()
}

// serverURL returns the URL of the server that holds the test databases.
func serverURL() string {
	if u := strings.TrimSpace(os.Getenv("DATABASE_URL")); u != "" {
		return u
	}
	return DefaultURL
}

// admin runs one statement on the server's maintenance database.
func admin(tb testing.TB, base, sql string) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		tb.Fatalf("dbtest: connect to %s: %v (is PostgreSQL running? scripts/test.sh starts it)", redacted(base), err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		tb.Fatalf("dbtest: %s: %v", sql, err)
	}
}

func redacted(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "DATABASE_URL"
	}
	return u.Redacted()
}
