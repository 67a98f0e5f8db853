// Package transferpg keeps what the export and the import of tournaments
// read and write in PostgreSQL: the records as stored, the history
// (results superseded, deals, confirmations, disputes and rulings,
// reopenings, the audit log) and the import of a whole tournament in one
// transaction. It implements transfer.Store and its optional parts on the
// tournament store of package postgres, whose transactions, error mapping
// and rows of results it uses, and reads disputes as refereepg does.
package transferpg

import (
	"context"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/postgres"
	"github.com/revisor-sm/revisor/tournament/transfer"
)

// Store implements transfer.Store, ExportReader, HistoryStore and
// Importer on PostgreSQL.
type Store struct {
	db *postgres.Store
}

var (
	_ transfer.Store        = (*Store)(nil)
	_ transfer.ExportReader = (*Store)(nil)
	_ transfer.HistoryStore = (*Store)(nil)
	_ transfer.Importer     = (*Store)(nil)
)

// New returns the export's and import's store beside db, on db's pool.
func New(db *postgres.Store) *Store { return &Store{db: db} }

// State returns the tournament's state, as the tournament store reads it.
func (s *Store) State(ctx context.Context, tid string) (*tournament.State, error) {
	return s.db.State(ctx, tid)
}

// Results returns round n's effective results, as the tournament store
// reads them.
func (s *Store) Results(ctx context.Context, tid string, round int) ([]tournament.GameResult, error) {
	return s.db.Results(ctx, tid, round)
}
