// Counting what a benchmark sends the database: round trips per op.
package postgres_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/revisor-sm/revisor/internal/dbtest"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/postgres"
)

// traced is e's database through a pool that counts its round trips, with
// a service of opts on it.
func traced(b *testing.B, e *env, opts ...play.Option) (*env, *dbtest.RoundTrips) {
	b.Helper()
	cfg, err := pgxpool.ParseConfig(e.pool.Config().ConnString())
	if err != nil {
		b.Fatal(err)
	}
	trips := &dbtest.RoundTrips{}
	cfg.ConnConfig.Tracer = trips
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(pool.Close)
	store := postgres.NewStore(pool)
	svc := tournament.NewService(store)
	return &env{pool: pool, store: store, svc: svc, plays: play.New(svc, store, opts...), ctx: e.ctx}, trips
}
