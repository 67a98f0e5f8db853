// Package postgres implements Revisor's storage on PostgreSQL with pgx v5:
// opening the connection pool, running the embedded migrations with
// golang-migrate, checking that the schema is current, and turning pgx errors
// into tournament errors so that the API can answer with the right status.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"strings"
	"time"

	"github.com/golang-migrate/migrate/v4"
	_ "github.com/golang-migrate/migrate/v4/database/pgx/v5" // registers the pgx5:// driver
	"github.com/golang-migrate/migrate/v4/source/iofs"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/revisor-sm/revisor/tournament"
)

// PoolOption changes a pool's settings from those of the URL.
type PoolOption func(*pgxpool.Config)

// MaxConns makes the pool at most n connections, whatever pool_max_conns
// says: a second pool of the same URL (the pages' own) has its own size.
func MaxConns(n int32) PoolOption {
	return func(c *pgxpool.Config) {
		c.MaxConns = n
		c.MinConns, c.MinIdleConns = min(c.MinConns, n), min(c.MinIdleConns, n)
	}
}

// Open connects a pool to the database at databaseURL (pool settings such as
// pool_max_conns come from the URL, then from opts) and checks that the
// database answers.
func Open(ctx context.Context, databaseURL string, opts ...PoolOption) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(databaseURL)
	if err != nil {
		return nil, &tournament.Error{Kind: tournament.KindInvalid, Code: tournament.CodeInvalidDatabaseURL,
			Message: "DATABASE_URL is not a valid PostgreSQL URL", Err: err}
	}
	for _, o := range opts {
		o(cfg)
	}
	// Times are RFC 3339 UTC (docs/api.md), also in JSON the database writes
	// itself (the audit log's before and after), whatever the server's zone.
	cfg.ConnConfig.RuntimeParams["timezone"] = "UTC"
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, MapError(err, "database")
	}
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := pool.Ping(pingCtx); err != nil {
		pool.Close()
		return nil, MapError(err, "database")
	}
	return pool, nil
}

// Migrator runs the numbered migrations of an fs.FS (normally
// migrations.FS) against one database. golang-migrate takes an advisory lock,
// so several servers starting at once do not run a migration twice.
type Migrator struct {
	m *migrate.Migrate
}

// NewMigrator returns a Migrator for the database at databaseURL, a
// postgres:// or postgresql:// URL.
func NewMigrator(databaseURL string, fsys fs.FS) (*Migrator, error) {
	u, err := migrateURL(databaseURL)
	if err != nil {
		return nil, err
	}
	src, err := iofs.New(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("read migrations: %w", err)
	}
	m, err := migrate.NewWithSourceInstance("iofs", src, u)
	if err != nil {
		return nil, MapError(fmt.Errorf("open database for migration: %w", err), "database")
	}
	return &Migrator{m: m}, nil
}

// migrateURL turns a PostgreSQL URL into the pgx5:// URL golang-migrate's
// pgx v5 driver is registered under.
func migrateURL(databaseURL string) (string, error) {
	u, err := url.Parse(databaseURL)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return "", tournament.Errorf(tournament.KindInvalid, tournament.CodeInvalidDatabaseURL,
			"DATABASE_URL must be a postgres:// URL")
	}
	u.Scheme = "pgx5"
	// The pool's settings (pool_max_conns, …) are pgxpool's, not the
	// server's: sent to PostgreSQL as run-time parameters they would
	// refuse the migration's connection.
	q := u.Query()
	for k := range q {
		if strings.HasPrefix(k, "pool_") {
			q.Del(k)
		}
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// Up applies every migration not yet applied. It is not an error when the
// schema is already current.
func (m *Migrator) Up() error {
	if err := m.m.Up(); err != nil && !errors.Is(err, migrate.ErrNoChange) {
		return fmt.Errorf("migrate up: %w", err)
	}
	return nil
}

// Down reverts the last n applied migrations.
func (m *Migrator) Down(n int) error {
	if n < 1 {
		return tournament.Errorf(tournament.KindInvalid, tournament.CodeInvalidSteps, "down needs a number of migrations ≥ 1, not %d", n)
	}
	if err := m.m.Steps(-n); err != nil {
		return fmt.Errorf("migrate down %d: %w", n, err)
	}
	return nil
}

// Version reports the schema version (0 when no migration was applied) and
// whether the last migration failed half-way (dirty).
func (m *Migrator) Version() (version uint, dirty bool, err error) {
	version, dirty, err = m.m.Version()
	if errors.Is(err, migrate.ErrNilVersion) {
		return 0, false, nil
	}
	return version, dirty, err
}

// Close releases the migrator's database connection.
func (m *Migrator) Close() error {
	srcErr, dbErr := m.m.Close()
	return errors.Join(srcErr, dbErr)
}

// Migrate applies every pending migration of fsys to the database at
// databaseURL and returns the resulting version.
func Migrate(databaseURL string, fsys fs.FS) (uint, error) {
	m, err := NewMigrator(databaseURL, fsys)
	if err != nil {
		return 0, err
	}
	defer m.Close()
	if err := m.Up(); err != nil {
		return 0, err
	}
	v, _, err := m.Version()
	return v, err
}

// SchemaVersion reads the version golang-migrate recorded in the database:
// 0 and not dirty when nothing was migrated yet.
func SchemaVersion(ctx context.Context, pool *pgxpool.Pool) (version int64, dirty bool, err error) {
	var exists bool
	err = pool.QueryRow(ctx, `SELECT to_regclass('schema_migrations') IS NOT NULL`).Scan(&exists)
	if err != nil || !exists {
		return 0, false, MapError(err, "schema version")
	}
	err = pool.QueryRow(ctx, `SELECT version, dirty FROM schema_migrations LIMIT 1`).Scan(&version, &dirty)
	if err != nil {
		return 0, false, MapError(err, "schema version")
	}
	return version, dirty, nil
}

// Readiness returns a check that the database answers and its schema is at
// exactly version want; /readyz calls it. A failed check is an unavailable
// tournament error saying what is wrong.
func Readiness(pool *pgxpool.Pool, want uint) func(context.Context) error {
	return func(ctx context.Context) error {
		got, dirty, err := SchemaVersion(ctx, pool)
		if err != nil {
			return err
		}
		if dirty || got != int64(want) {
			state := ""
			if dirty {
				state = " (dirty: a migration failed half-way)"
			}
			return tournament.Errorf(tournament.KindUnavailable, tournament.CodeSchemaNotCurrent,
				"database schema is at version %d%s; this server needs version %d", got, state, want)
		}
		return nil
	}
}
