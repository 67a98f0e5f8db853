package postgres

import (
	"bytes"
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/revisor-sm/revisor/tournament"
)

// opTimeout bounds each statement of the store. The API calls it with
// contexts that outlive the request (a claim must be completed or released
// even when the client hung up), so a database that hangs must not hold
// them for ever.
const opTimeout = 5 * time.Second

// Idempotency stores the first response to each request that carried an
// Idempotency-Key header (table idempotency_keys, migration 000001). It
// satisfies the API's IdempotencyStore.
type Idempotency struct {
	pool *pgxpool.Pool
	// ttl is how long a key is remembered; stale is how long a claim may stay
	// without a response before another request may take it over (the first
	// server died while handling it).
	ttl, stale time.Duration
}

// NewIdempotency returns the store on pool. Keys are remembered for ttl; a
// claim left without a response for longer than stale can be taken over.
func NewIdempotency(pool *pgxpool.Pool, ttl, stale time.Duration) *Idempotency {
	return &Idempotency{pool: pool, ttl: ttl, stale: stale}
}

// Claim marks key (within scope) as being handled for a request whose body
// hashes to fingerprint. It returns (nil, nil) when the caller now owns the
// key and should handle the request; the stored response when the same
// request was answered before; a rejected error (code
// "idempotency_key_reused") when the key was used with a different request;
// and a conflict error (code "idempotency_key_in_use") while the first request
// with the key is still being handled.
func (s *Idempotency) Claim(ctx context.Context, scope, key string, fingerprint []byte) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	const claim = `
		INSERT INTO idempotency_keys AS k (scope, key, fingerprint) VALUES ($1, $2, $3)
		ON CONFLICT (scope, key) DO UPDATE
			SET fingerprint = EXCLUDED.fingerprint, response = NULL, created_at = now()
			WHERE k.created_at < now() - make_interval(secs => $4)
			   OR (k.response IS NULL AND k.created_at < now() - make_interval(secs => $5))`
	var stored, response []byte
	for attempt := 0; ; attempt++ {
		tag, err := s.pool.Exec(ctx, claim, scope, key, fingerprint, s.ttl.Seconds(), s.stale.Seconds())
		if err != nil {
			return nil, MapError(err, "idempotency key")
		}
		if tag.RowsAffected() == 1 {
			return nil, nil
		}
		err = s.pool.QueryRow(ctx, `SELECT fingerprint, response FROM idempotency_keys WHERE scope = $1 AND key = $2`,
			scope, key).Scan(&stored, &response)
		if errors.Is(err, pgx.ErrNoRows) && attempt < 3 {
			continue // the holder released the key between the two statements: claim it again
		}
		if err != nil {
			return nil, MapError(err, "idempotency key")
		}
		break
	}
	switch {
	case !bytes.Equal(stored, fingerprint):
		return nil, tournament.Errorf(tournament.KindRejected, tournament.CodeIdempotencyKeyReused,
			"the Idempotency-Key %q was already used with a different request", key)
	case response == nil:
		return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeIdempotencyKeyInUse,
			"a request with the Idempotency-Key %q is still being handled; retry later", key)
	}
	return response, nil
}

// Complete stores the response to the request that claimed key.
func (s *Idempotency) Complete(ctx context.Context, scope, key string, response []byte) error {
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	_, err := s.pool.Exec(ctx, `UPDATE idempotency_keys SET response = $3 WHERE scope = $1 AND key = $2`,
		scope, key, response)
	return MapError(err, "idempotency key")
}

// Release forgets a claimed key whose request failed without an answer worth
// repeating (a server error), so that a retry is handled afresh.
func (s *Idempotency) Release(ctx context.Context, scope, key string) error {
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	_, err := s.pool.Exec(ctx, `DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND response IS NULL`,
		scope, key)
	return MapError(err, "idempotency key")
}

// Renew tells other servers that the claim on key is alive: it restarts
// the stale clock of a claim still without a response. The API renews the
// claims of its requests in flight, so that only the claims of a server
// that died (SIGKILL, power loss) go stale and are taken over.
func (s *Idempotency) Renew(ctx context.Context, scope, key string) error {
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	_, err := s.pool.Exec(ctx, `UPDATE idempotency_keys SET created_at = now()
		WHERE scope = $1 AND key = $2 AND response IS NULL`, scope, key)
	return MapError(err, "idempotency key")
}

// Prune deletes keys older than the store's time to live and returns how many.
func (s *Idempotency) Prune(ctx context.Context) (int64, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(secs => $1)`,
		s.ttl.Seconds())
	return tag.RowsAffected(), MapError(err, "idempotency key")
}
