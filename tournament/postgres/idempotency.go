package postgres

import (
	"bytes"
	"context"
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
	return s.claimKey(ctx, s.claim(scope, key, fingerprint))
}

// keyClaim is a claim of a client's key: its scope, the key and the
// fingerprint of the command it came with.
type keyClaim struct {
	scope, key  string
	fingerprint []byte
}

func (s *Idempotency) claim(scope, key string, fingerprint []byte) keyClaim {
	return keyClaim{scope: scope, key: key, fingerprint: fingerprint}
}

// claimKeySQL claims a key in one statement: it inserts the claim (or
// takes over one that expired or went stale) and otherwise reads the
// claim there is, answering whether the key is now the caller's, and the
// other claim's fingerprint and response. The other claim's row is NULL
// when it was committed after the statement's snapshot began (the
// statement is then sent again).
const claimKeySQL = `WITH ins AS (
		INSERT INTO idempotency_keys AS k (scope, key, fingerprint) VALUES ($1, $2, $3)
		ON CONFLICT (scope, key) DO UPDATE
			SET fingerprint = EXCLUDED.fingerprint, response = NULL, created_at = now()
			WHERE k.created_at < now() - make_interval(secs => $4)
			   OR (k.response IS NULL AND k.created_at < now() - make_interval(secs => $5))
		RETURNING 1)
	SELECT EXISTS (SELECT 1 FROM ins), k.fingerprint, k.response
	FROM (SELECT 1) one LEFT JOIN idempotency_keys k ON k.scope = $1 AND k.key = $2 AND NOT EXISTS (SELECT 1 FROM ins)`

// asyncCommitSQL lets the transaction it runs in commit without waiting
// for its WAL to reach the disk (set_config's true: this transaction only).
const asyncCommitSQL = `SELECT set_config('synchronous_commit', 'off', true)`

func (s *Idempotency) claimKeyArgs(c keyClaim) []any {
	return []any{c.scope, c.key, c.fingerprint, s.ttl.Seconds(), s.stale.Seconds()}
}

// claimOutcome reads claimKeySQL's answer: the stored response (nil when
// the key is now the caller's), or the error the claim answers; retry
// says the other claim was not visible (send the statement again).
func claimOutcome(row pgx.Row, c keyClaim) (response []byte, retry bool, err error) {
	var (
		claimed bool
		stored  []byte
	)
	if err := row.Scan(&claimed, &stored, &response); err != nil {
		return nil, false, MapError(err, "idempotency key")
	}
	switch {
	case claimed:
		return nil, false, nil
	case stored == nil:
		return nil, true, nil
	case !bytes.Equal(stored, c.fingerprint):
		return nil, false, tournament.Errorf(tournament.KindRejected, tournament.CodeIdempotencyKeyReused,
			"the Idempotency-Key %q was already used with a different request", c.key)
	case response == nil:
		return nil, false, tournament.Errorf(tournament.KindConflict, tournament.CodeIdempotencyKeyInUse,
			"a request with the Idempotency-Key %q is still being handled; retry later", c.key)
	}
	return response, false, nil
}

// claimKey claims c's key: nil when the caller owns it now, the
// response stored before, or the error of a refused claim.
func (s *Idempotency) claimKey(ctx context.Context, c keyClaim) ([]byte, error) {
	for attempt := 0; ; attempt++ {
		response, retry, err := claimOutcome(s.pool.QueryRow(ctx, claimKeySQL, s.claimKeyArgs(c)...), c)
		if !retry || attempt == 3 {
			if retry {
				err = tournament.Errorf(tournament.KindConflict, tournament.CodeIdempotencyKeyInUse,
					"a request with the Idempotency-Key %q is still being handled; retry later", c.key)
			}
			return response, err
		}
	}
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
