// Package transfer moves tournaments between servers and lists of players
// into them: the export of a whole tournament as one file (its history
// included), the import of such a file as a new tournament of this server,
// every result judged again by the engine, and the players' lists of
// spreadsheets (CSV).
//
// It is a subdomain on top of package tournament: it reads and writes
// through its own small Store (which its PostgreSQL part, package
// transferpg beside it, implements with the optional ExportReader,
// HistoryStore and Importer; the in-memory store has Store's two reads)
// and makes the imported tournament one of this server through
// tournament.Service.Establish, as creating one does.
package transfer

import (
	"context"

	"github.com/revisor-sm/revisor/tournament"
)

// Store is what an export reads: the tournament's state and results.
// A store that can also read the records as stored (ExportReader) and
// the history (HistoryStore), and write an import (Importer), implements
// those beside it.
type Store interface {
	State(ctx context.Context, tid string) (*tournament.State, error)
	Results(ctx context.Context, tid string, round int) ([]tournament.GameResult, error)
}

// Service exports and imports tournaments.
type Service struct {
	core  *tournament.Service
	store Store
}

// New returns the service over store, making imported tournaments with
// core.
func New(core *tournament.Service, store Store) *Service {
	return &Service{core: core, store: store}
}
