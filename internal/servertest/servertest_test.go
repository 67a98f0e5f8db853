package servertest_test

import (
	"context"
	"testing"

	"github.com/revisor-sm/revisor/internal/servertest"
	"github.com/revisor-sm/revisor/server"
	"github.com/revisor-sm/revisor/tournament"
)

// TestStandIns: the stand-ins do what the package says: no database to be
// ready, an idempotency store that remembers nothing (every claim is the
// first), a token resolver that knows no token, and services for the rest.
func TestStandIns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := servertest.Complete(server.Deps{})
	if err := d.Ready(ctx); tournament.ErrorCode(err) != tournament.CodeDatabaseUnavailable {
		t.Errorf("Ready = %v, want the database unavailable", err)
	}
	for range 2 {
		if stored, err := d.Idempotency.Claim(ctx, "s", "k", []byte("f")); stored != nil || err != nil {
			t.Errorf("Claim = %q, %v; want every claim the first", stored, err)
		}
		if err := d.Idempotency.Complete(ctx, "s", "k", []byte("answer")); err != nil {
			t.Errorf("Complete = %v", err)
		}
	}
	if err := d.Idempotency.Release(ctx, "s", "k"); err != nil {
		t.Errorf("Release = %v", err)
	}
	if err := d.Idempotency.Renew(ctx, "s", "k"); err != nil {
		t.Errorf("Renew = %v", err)
	}
	if _, err := d.Tokens.ResolveToken(ctx, "t1", "token"); tournament.ErrorCode(err) != tournament.CodeUnknownToken {
		t.Errorf("ResolveToken = %v, want the token unknown", err)
	}
	if d.Tournaments == nil || d.Play == nil || d.Referees == nil || d.Register == nil || d.Transfer == nil || d.Events == nil {
		t.Errorf("Complete left a service out: %+v", d)
	}
	own := tournament.NewService(nil)
	if servertest.Complete(server.Deps{Tournaments: own}).Tournaments != own {
		t.Error("Complete replaced a service the test gave")
	}
}
