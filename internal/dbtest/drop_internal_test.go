package dbtest

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// exists reports whether the database name is on the server.
func exists(t *testing.T, name string) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn := maintenance(ctx, t, serverURL())
	defer conn.Release()
	var ok bool
	if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&ok); err != nil {
		t.Fatal(err)
	}
	return ok
}

// nameOf is the database of a URL newURL made.
func nameOf(t *testing.T, u string) string {
	t.Helper()
	cfg, err := pgx.ParseConfig(u)
	if err != nil {
		t.Fatal(err)
	}
	return cfg.Database
}

// TestEndedDatabasesDroppedTogether: as Main runs them, an ended test's
// database stays until a batch of them is full (then all are dropped,
// a connection left open too), and the rest are dropped at the end. Without
// Main each is dropped as its test ends. Serial: it sets the package's
// state that Main sets.
func TestEndedDatabasesDroppedTogether(t *testing.T) {
	fsys, _ := ownTemplate(t)
	var alone string
	t.Run("without Main", func(t *testing.T) { alone = nameOf(t, newURL(t, fsys)) })
	if exists(t, alone) {
		t.Errorf("without Main, %s outlived its test", alone)
	}

	ended.Lock()
	batch := dropBatch
	ended.deferred, dropBatch = true, 3
	ended.Unlock()
	t.Cleanup(func() {
		ended.Lock()
		ended.deferred, dropBatch, ended.names = false, batch, nil
		ended.Unlock()
	})
	var names []string
	for i := range 2 {
		t.Run("kept", func(t *testing.T) {
			u := newURL(t, fsys)
			names = append(names, nameOf(t, u))
			if i == 1 { // a connection the test leaves open
				conn, err := pgx.Connect(context.Background(), u)
				if err != nil {
					t.Fatal(err)
				}
				_ = conn
			}
		})
	}
	for _, n := range names {
		if !exists(t, n) {
			t.Errorf("%s was dropped before its batch was full", n)
		}
	}
	t.Run("third", func(t *testing.T) { names = append(names, nameOf(t, newURL(t, fsys))) })
	for _, n := range names {
		if exists(t, n) {
			t.Errorf("%s was left when its batch of %d was full", n, dropBatch)
		}
	}
	var last string
	t.Run("last", func(t *testing.T) { last = nameOf(t, newURL(t, fsys)) })
	ended.Lock()
	rest := ended.names
	ended.names = nil
	ended.Unlock()
	if !exists(t, last) || len(rest) != 1 {
		t.Fatalf("the last database %s: exists %v, waiting %v", last, exists(t, last), rest)
	}
	if err := dropAll(serverURL(), rest); err != nil {
		t.Fatal(err)
	}
	if exists(t, last) {
		t.Errorf("%s was left at the end", last)
	}
}
