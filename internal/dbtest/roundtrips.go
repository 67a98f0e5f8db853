// RoundTrips: a pgx tracer that counts what a pool sends the database.
package dbtest

import (
	"context"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
)

// RoundTrips counts what a pool sends the database: each statement sent
// on its own (BEGIN and COMMIT included) and each batch is one round trip.
// (The one-time preparation of a statement on a connection is not
// counted.) Set it as the pool's ConnConfig.Tracer.
//
// With Marked, it counts only what is sent under a context from Mark: a
// request's own round trips, not those the server makes meanwhile in the
// background on the same pool (the live pages' cache reloading after a
// change). Without it, a request measured while such a reload of the
// request before ran counted that too: a clean clone's run read 12 round
// trips for a correction answered from its key, whose own is 1.
type RoundTrips struct {
	N      atomic.Int64
	Marked bool
}

// markKey is the context key of Mark.
type markKey struct{}

// Mark returns ctx marked for the RoundTrips that count only marked
// round trips.
func Mark(ctx context.Context) context.Context { return context.WithValue(ctx, markKey{}, true) }

// count counts one round trip sent under ctx.
func (r *RoundTrips) count(ctx context.Context) {
	if !r.Marked || ctx.Value(markKey{}) != nil {
		r.N.Add(1)
	}
}

func (r *RoundTrips) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	r.count(ctx)
	return ctx
}
func (r *RoundTrips) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (r *RoundTrips) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	r.count(ctx)
	return ctx
}
func (r *RoundTrips) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (r *RoundTrips) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData)     {}
