// Package dbtest gives each test its own PostgreSQL database: created with a
// random name, at the project's latest migration, and dropped when the test
// ends. Tests run against real PostgreSQL, never a mock.
//
// A test's database is dropped when the test ends, unless the package's
// TestMain runs its tests with Main: then the databases of ended tests are
// dropped together, a batch at a time and at the end of the package (see
// Main for why).
//
// A migrated database is a copy of a template (CREATE DATABASE … TEMPLATE,
// file by file: fileCopy), which is migrated once per set of migrations and
// kept on the server: a copy takes about a tenth of a second where running
// every migration took about two thirds of one. The template's name carries
// the latest version and a hash of the migration files, so that test runs
// of different branches on one server never share a template, and a
// changed migration gets a new one.
// Builds are serialised by an advisory lock, so parallel tests and parallel
// test binaries build each template once; a build that died half-way is
// dropped and done again.
//
// The server is DATABASE_URL when set, else
// postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable. scripts/test.sh
// starts one when none is running.
package dbtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/revisor-sm/revisor/migrations"
	"github.com/revisor-sm/revisor/tournament/postgres"
)

// DefaultURL is the server used when DATABASE_URL is not set.
const DefaultURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// templatePrefix starts the name of every template database dbtest builds.
const templatePrefix = "revisor_tmpl_"

// buildLock is the advisory lock key held while a template is built.
const buildLock = 0x7265766973 // "revis"

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
	return newURL(tb, migrations.FS)
}

// newURL returns the URL of a fresh database copied from the template of the
// migrations in fsys, dropped when tb ends.
func newURL(tb testing.TB, fsys fs.FS) string {
	tb.Helper()
	base := serverURL()
	tmpl, err := TemplateName(fsys)
	if err != nil {
		tb.Fatalf("dbtest: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := maintenance(ctx, tb, base)
	defer c.Release()
	conn := c.Conn()
	if err := ensureTemplate(ctx, conn, base, tmpl, fsys); err != nil {
		tb.Fatalf("dbtest: template %s: %v", tmpl, err)
	}
	return create(ctx, tb, conn, base, "TEMPLATE "+tmpl+fileCopy(conn))
}

// fileCopy is the clause that has PostgreSQL 15 and later copy the template
// by its files, as the versions before did (their only way), not block by
// block through the shared buffers and the WAL (15's default, WAL_LOG):
// the API's and the store's tests (a database of 9 MB each) took 117 s
// of the machine's CPU and 71 s with WAL_LOG, 90-95 s and 51-55 s with
// FILE_COPY (PostgreSQL's own CPU 65-67 s against 45-49 s; 7 December
// 2026, two cores). FILE_COPY's two checkpoints cost less than the pages
// the copies wrote through the WAL and then out of the buffers.
func fileCopy(conn *pgx.Conn) string {
	if major(conn.PgConn().ParameterStatus("server_version")) < 15 {
		return ""
	}
	return " STRATEGY FILE_COPY"
}

// major reads a server_version's major number: "15.10 (Debian …)" 15,
// "16beta1" 16.
func major(version string) int {
	n := 0
	for _, r := range version {
		if r < '0' || r > '9' {
			break
		}
		n = n*10 + int(r-'0')
	}
	return n
}

// NewEmptyURL returns the URL of a fresh database without any migration,
// dropped when tb ends; for tests of migrations themselves.
func NewEmptyURL(tb testing.TB) string {
	tb.Helper()
	base := serverURL()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := maintenance(ctx, tb, base)
	defer c.Release()
	return create(ctx, tb, c.Conn(), base, "")
}

// TemplateName returns the name of the template database for the migrations
// in fsys: the latest version and a hash of every file's name and content.
func TemplateName(fsys fs.FS) (string, error) {
	latest, err := migrations.Latest(fsys)
	if err != nil {
		return "", err
	}
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, name := range names { // fs.Glob sorts
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(data))
		h.Write(data)
	}
	return fmt.Sprintf("%s%d_%s", templatePrefix, latest, hex.EncodeToString(h.Sum(nil))[:12]), nil
}

// create makes a database with a random name (with extra, such as a
// TEMPLATE clause) and drops it when tb ends.
func create(ctx context.Context, tb testing.TB, conn *pgx.Conn, base, extra string) string {
	tb.Helper()
	name := "revisor_test_" + strings.ToLower(rand.Text()[:16])
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name+" "+extra); err != nil {
		tb.Fatalf("dbtest: CREATE DATABASE %s %s: %v", name, extra, err)
	}
	tb.Cleanup(func() { drop(tb, base, name) })
	return withDatabase(tb, base, name)
}

// ensureTemplate makes sure the template database tmpl exists and is
// complete: marked as a template, which happens only after its migrations
// succeeded. Others wait on the advisory lock while one process builds it.
func ensureTemplate(ctx context.Context, conn *pgx.Conn, base, tmpl string, fsys fs.FS) error {
	if ready, err := templateReady(ctx, conn, tmpl); err != nil || ready {
		return err
	}
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, int64(buildLock)); err != nil {
		return err
	}
	defer conn.Exec(context.Background(), `SELECT pg_advisory_unlock($1)`, int64(buildLock)) //nolint:errcheck // the lock ends with the session anyway
	if ready, err := templateReady(ctx, conn, tmpl); err != nil || ready {
		return err
	}
	// A database by that name that is not a template is a build that died.
	if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+tmpl+" WITH (FORCE)"); err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+tmpl); err != nil {
		return err
	}
	u, err := url.Parse(base)
	if err != nil {
		return err
	}
	u.Path = "/" + tmpl
	if _, err := postgres.Migrate(u.String(), fsys); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	// No connections: a copy fails while anyone is connected to the template.
	_, err = conn.Exec(ctx, "ALTER DATABASE "+tmpl+" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false")
	return err
}

// templateReady reports whether tmpl exists and is marked as a template.
func templateReady(ctx context.Context, conn *pgx.Conn, tmpl string) (bool, error) {
	var ready bool
	err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1 AND datistemplate)`, tmpl).Scan(&ready)
	return ready, err
}

// serverURL returns the URL of the server that holds the test databases.
func serverURL() string {
	if u := strings.TrimSpace(os.Getenv("DATABASE_URL")); u != "" {
		return u
	}
	return DefaultURL
}

// withDatabase returns base with its database replaced by name.
func withDatabase(tb testing.TB, base, name string) string {
	tb.Helper()
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatalf("dbtest: DATABASE_URL: %v", err)
	}
	u.Path = "/" + name
	// A test's database need not outlive a crash of PostgreSQL: commits do
	// not wait for the disk (pgx sends the setting when it connects; the
	// fault tests, which crash servers, run clusters of their own).
	q := u.Query()
	q.Set("synchronous_commit", "off")
	u.RawQuery = q.Encode()
	return u.String()
}

// maintenances are the process's pools of connections to the servers'
// maintenance databases (one server, but for tests of other URLs), by URL.
var maintenances sync.Map

// maintenance takes a connection to the server's maintenance database from
// the process's pool; Release gives it back. A connection is a process of
// the server's: one a database created and one a database dropped was 145
// of the API tests' 211 connections, some 30 ms of the server's CPU each
// (7 December 2026, two cores).
func maintenance(ctx context.Context, tb testing.TB, base string) *pgxpool.Conn {
	tb.Helper()
	p, err := maintenancePool(base)
	if err != nil {
		tb.Fatalf("dbtest: DATABASE_URL: %v", err)
	}
	c, err := p.Acquire(ctx)
	if err != nil {
		tb.Fatalf("dbtest: connect to %s: %v (is PostgreSQL running? scripts/test.sh starts it)", redacted(base), err)
	}
	return c
}

// maintenancePool returns the pool for base, made on the first call (it
// connects on the first Acquire).
func maintenancePool(base string) (*pgxpool.Pool, error) {
	if p, ok := maintenances.Load(base); ok {
		return p.(*pgxpool.Pool), nil
	}
	cfg, err := pgxpool.ParseConfig(base)
	if err != nil {
		return nil, err
	}
	cfg.MaxConns = dropWorkers
	p, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		return nil, err
	}
	if q, loaded := maintenances.LoadOrStore(base, p); loaded {
		p.Close()
		return q.(*pgxpool.Pool), nil
	}
	return p, nil
}

// admin runs one statement on the server's maintenance database.
func admin(tb testing.TB, base, sql string) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := maintenance(ctx, tb, base)
	defer c.Release()
	if _, err := c.Exec(ctx, sql); err != nil {
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
