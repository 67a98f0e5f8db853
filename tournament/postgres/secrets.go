package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Secrets stores hashes of server-wide secrets such as the admin token. The
// secrets themselves are never stored.
type Secrets struct {
	pool *pgxpool.Pool
}

// NewSecrets returns the secret store on pool.
func NewSecrets(pool *pgxpool.Pool) *Secrets { return &Secrets{pool: pool} }

// Hash returns the stored hash of the secret called name; a not found error
// (code "secret_not_found") when there is none.
func (s *Secrets) Hash(ctx context.Context, name string) ([]byte, error) {
	var hash []byte
	err := s.pool.QueryRow(ctx, `SELECT hash FROM server_secrets WHERE name = $1`, name).Scan(&hash)
	return hash, MapError(err, "secret")
}

// PutHashIfAbsent stores hash for name unless a hash is stored already, and
// returns the hash that is stored afterwards. When two servers start at
// once, both get the winner's hash; the caller whose hash came back is the
// one that may show its secret.
func (s *Secrets) PutHashIfAbsent(ctx context.Context, name string, hash []byte) ([]byte, error) {
	const q = `
		WITH ins AS (
			INSERT INTO server_secrets (name, hash) VALUES ($1, $2)
			ON CONFLICT (name) DO NOTHING
			RETURNING hash
		)
		SELECT hash FROM ins
		UNION ALL
		SELECT hash FROM server_secrets WHERE name = $1
		LIMIT 1`
	var stored []byte
	err := s.pool.QueryRow(ctx, q, name, hash).Scan(&stored)
	if errors.Is(err, pgx.ErrNoRows) {
		// Another server inserted after this statement's snapshot was taken.
		return s.Hash(ctx, name)
	}
	return stored, MapError(err, "secret")
}
