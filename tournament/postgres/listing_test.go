package postgres_test

import (
	"context"
	"regexp"
	"testing"

	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/migrations"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/postgres"
)

// TestMigrationListingGivesOldTournamentsACode: a tournament made before
// migration 000200 gets a short code of the alphabet and stays unlisted.
func TestMigrationListingGivesOldTournamentsACode(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	u := dbtest.NewEmptyURL(t)
	versions, err := migrations.Versions(migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	after := 0
	for _, v := range versions {
		if v >= 200 {
			after++
		}
	}
	m, err := postgres.NewMigrator(u, migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := m.Up(); err != nil {
		t.Fatal(err)
	}
	if err := m.Down(after); err != nil {
		t.Fatal(err)
	}
	pool, err := postgres.Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // committed below
	for _, q := range []string{
		`SELECT set_config('revisor.actor_role', 'admin', true)`,
		`INSERT INTO tournaments (id, name, format, games_per_round, placement_points, advance_per_table, rounds,
			final_size, tiebreaks, seating, status, organizer_token_hash, code_key, created_at)
			SELECT 'old' || i, 'Old ' || i, 'sm', 3, '{20,12,8,5}', '{2}', 0, 4, '{lot}', 'mixed', 'registration',
				decode(md5(i::text), 'hex'), '\x00', now() FROM generate_series(1, 30) i`,
	} {
		if _, err := tx.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := m.Up(); err != nil {
		t.Fatalf("Up over old tournaments: %v", err)
	}
	rows, err := pool.Query(ctx, `SELECT short_code, public FROM tournaments`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	code := regexp.MustCompile(`^[` + tournament.ShortCodeAlphabet + `]{6}$`)
	seen := map[string]bool{}
	for rows.Next() {
		var c string
		var public bool
		if err := rows.Scan(&c, &public); err != nil {
			t.Fatal(err)
		}
		if !code.MatchString(c) || seen[c] || public {
			t.Errorf("old tournament: short code %q (seen before: %v), public %v; want a new code of the alphabet, not public", c, seen[c], public)
		}
		seen[c] = true
	}
	if len(seen) != 30 {
		t.Errorf("%d codes, want 30", len(seen))
	}
}
