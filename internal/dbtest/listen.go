package dbtest

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/postgres"
)

// Listen runs a listener of pool's database (postgres.Listener) that hands
// each event it hears to heard, until tb ends; it returns once the
// listener listens (tb fails after 10 s without).
func Listen(tb testing.TB, pool *pgxpool.Pool, heard func(tournament.Event)) {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	l := postgres.NewListener(pool, heard, nil)
	done := make(chan struct{})
	go func() { l.Run(ctx); close(done) }()
	tb.Cleanup(func() { cancel(); <-done })
	select {
	case <-l.Ready():
	case <-time.After(10 * time.Second):
		tb.Fatal("listener not ready after 10s")
	}
}
