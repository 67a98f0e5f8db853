package postgres_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/postgres"
)

// TestIdempotencyRenew: a renewed claim stays in use past the stale time;
// a claim left unrenewed (its server died) is taken over.
func TestIdempotencyRenew(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const stale = 1500 * time.Millisecond
	s := postgres.NewIdempotency(dbtest.New(t), time.Hour, stale)
	fp := []byte("body")
	for _, key := range []string{"renewed", "abandoned"} {
		if resp, err := s.Claim(ctx, "scope", key, fp); resp != nil || err != nil {
			t.Fatalf("Claim(%s) = %q, %v; want nil, nil", key, resp, err)
		}
	}
	for range 3 {
		time.Sleep(stale / 2)
		if err := s.Renew(ctx, "scope", "renewed"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Claim(ctx, "scope", "renewed", fp); tournament.ErrorCode(err) != "idempotency_key_in_use" {
		t.Errorf("Claim(renewed) after 1.5 stale times = %v, want idempotency_key_in_use", err)
	}
	if resp, err := s.Claim(ctx, "scope", "abandoned", fp); resp != nil || err != nil {
		t.Errorf("Claim(abandoned) after 1.5 stale times = %q, %v; want nil, nil (taken over)", resp, err)
	}
}

// TestIdempotencyClaimWhileReleased races claims of a key against the
// release of its holder: a claim never fails with "not found" because the
// key vanished between its statements; it owns the key or sees it in use.
func TestIdempotencyClaimWhileReleased(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := postgres.NewIdempotency(dbtest.New(t), time.Hour, time.Minute)
	fp := []byte("body")
	for i := range 200 {
		if _, err := s.Claim(ctx, "scope", "k", fp); err != nil && tournament.ErrorCode(err) != "idempotency_key_in_use" {
			t.Fatalf("round %d: holder's Claim = %v", i, err)
		}
		var wg sync.WaitGroup
		var claimErr error
		wg.Go(func() { _ = s.Release(ctx, "scope", "k") })
		wg.Go(func() { _, claimErr = s.Claim(ctx, "scope", "k", fp) })
		wg.Wait()
		if claimErr != nil && tournament.ErrorCode(claimErr) != "idempotency_key_in_use" {
			t.Fatalf("round %d: Claim racing a Release = %v, want success or idempotency_key_in_use", i, claimErr)
		}
		_ = s.Release(ctx, "scope", "k")
	}
}
