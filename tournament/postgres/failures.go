package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// FailureCounts counts wrong tokens per client address in PostgreSQL (table
// auth_failures, migration 000040), so that the limit on guessing holds
// across every process behind one address. It satisfies
// ratelimit.Shared. Only failures reach it: good tokens cost nothing here.
type FailureCounts struct {
	pool *pgxpool.Pool
}

// NewFailureCounts returns the store on pool.
func NewFailureCounts(pool *pgxpool.Pool) *FailureCounts { return &FailureCounts{pool: pool} }

// CountFailure takes one try from addr's bucket (burst tries, refilled one
// per every) in one statement, so that failures counted at once by several
// processes are all counted, and returns the tries left.
func (f *FailureCounts) CountFailure(ctx context.Context, addr string, burst int, every time.Duration, now time.Time) (float64, error) {
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	const count = `
		INSERT INTO auth_failures AS f (addr, tokens, at) VALUES ($1, $2 - 1, $4)
		ON CONFLICT (addr) DO UPDATE SET
			tokens = LEAST($2, f.tokens + GREATEST(0, extract(epoch FROM $4 - f.at)) / $3) - 1,
			at = GREATEST(f.at, $4)
		RETURNING tokens`
	var left float64
	if err := f.pool.QueryRow(ctx, count, addr, float64(burst), every.Seconds(), now).Scan(&left); err != nil {
		return 0, MapError(err, "failure count")
	}
	return left, nil
}

// Prune deletes the rows of addresses whose bucket has filled up again
// (nothing is remembered of them then), and returns how many.
func (f *FailureCounts) Prune(ctx context.Context, burst int, every time.Duration, now time.Time) (int64, error) {
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	tag, err := f.pool.Exec(ctx, `DELETE FROM auth_failures WHERE tokens + extract(epoch FROM $3 - at) / $2 >= $1`,
		float64(burst), every.Seconds(), now)
	if err != nil {
		return 0, MapError(err, "failure counts")
	}
	return tag.RowsAffected(), nil
}
