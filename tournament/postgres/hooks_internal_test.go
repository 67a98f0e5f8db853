package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// ReadTx and WriteTx let the tests run the store's two kinds of
// transaction.
func (s *Store) ReadTx(ctx context.Context, fn func(pgx.Tx) error) error {
	return s.Read(ctx, "test", fn)
}

func (s *Store) WriteTx(ctx context.Context, fn func(pgx.Tx) error) error {
	return s.Write(ctx, "test", fn)
}

// SubmitResultSQL and SubmitResultParams are the submission statement and
// the number of its own parameters.
var SubmitResultSQL, SubmitResultParams = submitResultSQL, submitResultParams
