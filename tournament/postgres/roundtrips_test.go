// Counting what a benchmark sends the database: round trips per op.
package postgres_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/postgres"
)

// tripCounter counts each statement sent on its own (BEGIN and COMMIT
// included) and each batch as one round trip, as api's roundTrips does.
type tripCounter struct{ n atomic.Int64 }

func (r *tripCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	r.n.Add(1)
	return ctx
}
func (r *tripCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (r *tripCounter) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	r.n.Add(1)
	return ctx
}
func (r *tripCounter) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (r *tripCounter) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData)     {}

// traced is e's database through a pool that counts its round trips, with
// a service of opts on it.
func traced(b *testing.B, e *env, opts ...tournament.Option) (*env, *tripCounter) {
	b.Helper()
	cfg, err := pgxpool.ParseConfig(e.pool.Config().ConnString())
	if err != nil {
		b.Fatal(err)
	}
	trips := &tripCounter{}
	cfg.ConnConfig.Tracer = trips
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(pool.Close)
	store := postgres.NewStore(pool)
	return &env{pool: pool, store: store, svc: tournament.NewService(store, opts...), ctx: e.ctx}, trips
}
