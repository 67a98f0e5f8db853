package postgres_test

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/postgres"
)

func TestSecrets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := postgres.NewSecrets(dbtest.New(t))
	if _, err := s.Hash(ctx, "admin_token"); tournament.ErrorCode(err) != "secret_not_found" {
		t.Fatalf("Hash before any Put = %v, want secret_not_found", err)
	}
	first := []byte("first-hash")
	got, err := s.PutHashIfAbsent(ctx, "admin_token", first)
	if err != nil || !bytes.Equal(got, first) {
		t.Fatalf("PutHashIfAbsent(first) = %q, %v; want %q", got, err, first)
	}
	got, err = s.PutHashIfAbsent(ctx, "admin_token", []byte("second-hash"))
	if err != nil || !bytes.Equal(got, first) {
		t.Fatalf("PutHashIfAbsent(second) = %q, %v; want the first %q kept", got, err, first)
	}
	got, err = s.Hash(ctx, "admin_token")
	if err != nil || !bytes.Equal(got, first) {
		t.Fatalf("Hash = %q, %v; want %q", got, err, first)
	}
}

func TestIdempotency(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := postgres.NewIdempotency(dbtest.New(t), time.Hour, time.Minute)
	fp, other := []byte("body-a"), []byte("body-b")

	resp, err := s.Claim(ctx, "scope", "k1", fp)
	if resp != nil || err != nil {
		t.Fatalf("first Claim = %q, %v; want nil, nil", resp, err)
	}
	if _, err := s.Claim(ctx, "scope", "k1", fp); tournament.ErrorCode(err) != "idempotency_key_in_use" {
		t.Errorf("Claim while in progress = %v, want idempotency_key_in_use", err)
	}
	if _, err := s.Claim(ctx, "scope", "k1", other); tournament.ErrorCode(err) != "idempotency_key_reused" {
		t.Errorf("Claim with another body = %v, want idempotency_key_reused", err)
	}
	if err := s.Complete(ctx, "scope", "k1", []byte("answer")); err != nil {
		t.Fatal(err)
	}
	resp, err = s.Claim(ctx, "scope", "k1", fp)
	if string(resp) != "answer" || err != nil {
		t.Errorf("Claim after Complete = %q, %v; want answer, nil", resp, err)
	}
	// The same key in another scope is another key.
	if resp, err := s.Claim(ctx, "other scope", "k1", other); resp != nil || err != nil {
		t.Errorf("Claim in other scope = %q, %v; want nil, nil", resp, err)
	}
	// A released key can be claimed again with any body.
	if err := s.Release(ctx, "other scope", "k1"); err != nil {
		t.Fatal(err)
	}
	if resp, err := s.Claim(ctx, "other scope", "k1", fp); resp != nil || err != nil {
		t.Errorf("Claim after Release = %q, %v; want nil, nil", resp, err)
	}
}

func TestIdempotencyExpiry(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	// A zero time to live and staleness: every key is expired at once.
	s := postgres.NewIdempotency(pool, 0, 0)
	if _, err := s.Claim(ctx, "s", "k", []byte("a")); err != nil {
		t.Fatal(err)
	}
	if resp, err := s.Claim(ctx, "s", "k", []byte("b")); resp != nil || err != nil {
		t.Errorf("Claim of a stale key = %q, %v; want nil, nil (taken over)", resp, err)
	}
	n, err := s.Prune(ctx)
	if err != nil || n != 1 {
		t.Errorf("Prune() = %d, %v; want 1, nil", n, err)
	}
}

func TestPoolCollector(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(postgres.NewPoolCollector(pool))
	if err := pool.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
	n, err := testutil.GatherAndCount(reg)
	if err != nil || n != 8 {
		t.Fatalf("GatherAndCount = %d, %v; want 8 metrics", n, err)
	}
	want := `# HELP revisor_db_pool_max_conns Largest size the pool may reach.
# TYPE revisor_db_pool_max_conns gauge
revisor_db_pool_max_conns ` + strconv.Itoa(int(pool.Config().MaxConns)) + "\n"
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "revisor_db_pool_max_conns"); err != nil {
		t.Error(err)
	}
}
