package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/postgres"
)

func TestMapError(t *testing.T) {
	appErr := tournament.Errorf(tournament.KindRejected, "bad_move", "no")
	tests := []struct {
		in   error
		kind tournament.Kind
		code string
	}{
		{pgx.ErrNoRows, tournament.KindNotFound, "player_not_found"},
		{fmt.Errorf("select: %w", pgx.ErrNoRows), tournament.KindNotFound, "player_not_found"},
		{&pgconn.PgError{Code: "23505"}, tournament.KindConflict, "player_exists"},
		{&pgconn.PgError{Code: "23503"}, tournament.KindConflict, "reference_violation"},
		{&pgconn.PgError{Code: "23514"}, tournament.KindRejected, "constraint_violation"},
		{&pgconn.PgError{Code: "40001"}, tournament.KindConflict, "concurrent_update"},
		{&pgconn.PgError{Code: "40P01"}, tournament.KindConflict, "concurrent_update"},
		{&pgconn.PgError{Code: "08006"}, tournament.KindUnavailable, "database_unavailable"},
		{&pgconn.PgError{Code: "57P01"}, tournament.KindUnavailable, "database_unavailable"},
		{&pgconn.PgError{Code: "53300"}, tournament.KindUnavailable, "database_unavailable"},
		{context.DeadlineExceeded, tournament.KindUnavailable, "database_unavailable"},
		{&pgconn.PgError{Code: "25006"}, tournament.KindUnavailable, "database_unavailable"},
		{fmt.Errorf("failed to receive message: %w", io.ErrUnexpectedEOF), tournament.KindUnavailable, "database_unavailable"},
		{fmt.Errorf("commit: %w", io.EOF), tournament.KindUnavailable, "database_unavailable"},
		{fmt.Errorf("query: %w", pgconn.ErrConnClosed), tournament.KindUnavailable, "database_unavailable"},
		{&pgconn.PgError{Code: "22021"}, tournament.KindInvalid, "invalid_text"},
		{&pgconn.PgError{Code: "22P05"}, tournament.KindInvalid, "invalid_text"},
		{&pgconn.PgError{Code: "42601"}, tournament.KindInternal, "internal"},
		{errors.New("boom"), tournament.KindInternal, "internal"},
		{appErr, tournament.KindRejected, "bad_move"},
	}
	for _, tt := range tests {
		err := postgres.MapError(tt.in, "player")
		if k, c := tournament.ErrorKind(err), tournament.ErrorCode(err); k != tt.kind || c != tt.code {
			t.Errorf("MapError(%v) = %s/%s, want %s/%s", tt.in, k, c, tt.kind, tt.code)
		}
		if !errors.Is(err, tt.in) {
			t.Errorf("MapError(%v) lost its cause: errors.Is = false", tt.in)
		}
	}
	if err := postgres.MapError(nil, "player"); err != nil {
		t.Errorf("MapError(nil) = %v, want nil", err)
	}
}

// TestMapErrorFromRealDatabase checks the mapping on errors PostgreSQL really
// returns, not only on hand-made ones.
func TestMapErrorFromRealDatabase(t *testing.T) {
	ctx := context.Background()
	pool := dbtest.New(t)
	if _, err := pool.Exec(ctx, `CREATE TABLE t (id int PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO t VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	_, err := pool.Exec(ctx, `INSERT INTO t VALUES (1)`)
	if got := tournament.ErrorCode(postgres.MapError(err, "thing")); got != "thing_exists" {
		t.Errorf("duplicate insert: code %q, want thing_exists", got)
	}
	var id int
	err = pool.QueryRow(ctx, `SELECT id FROM t WHERE id = 2`).Scan(&id)
	if got := tournament.ErrorCode(postgres.MapError(err, "thing")); got != "thing_not_found" {
		t.Errorf("missing row: code %q, want thing_not_found", got)
	}
	// Text PostgreSQL cannot hold is the caller's mistake (issue 13, item 6).
	for _, bad := range []string{"a\x00b", "\xff"} {
		var s string
		err = pool.QueryRow(ctx, `SELECT $1::text`, bad).Scan(&s)
		if got := tournament.ErrorCode(postgres.MapError(err, "thing")); got != "invalid_text" {
			t.Errorf("text %q: code %q (%v), want invalid_text", bad, got, err)
		}
	}
	err = pool.QueryRow(ctx, `SELECT $1::jsonb ->> 'a'`, `{"a":"\u0000"}`).Scan(new(string))
	if got := tournament.ErrorCode(postgres.MapError(err, "thing")); got != "invalid_text" {
		t.Errorf("jsonb with \\u0000: code %q (%v), want invalid_text", got, err)
	}
}
