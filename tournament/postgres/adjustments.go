package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/revisor-sm/revisor/tournament"
)

// queryAdjustments reads the point adjustments of a tournament's rulings.
func queryAdjustments(ctx context.Context, tx Querier, tid string) ([]tournament.Adjustment, error) {
	rows, err := tx.Query(ctx, `SELECT id, ruling_id, round, table_no, game, player_id, points, scale, reason, created_at
		FROM adjustments WHERE tournament_id = $1 ORDER BY id`, tid)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, ScanAdjustment(tid))
}

// ScanAdjustment scans an adjustment row of tournament tid.
func ScanAdjustment(tid string) pgx.RowToFunc[tournament.Adjustment] {
	return func(r pgx.CollectableRow) (tournament.Adjustment, error) {
		a := tournament.Adjustment{Key: tournament.GameKey{TournamentID: tid}}
		err := r.Scan(&a.ID, &a.RulingID, &a.Key.Round, &a.Key.Table, &a.Key.Game, &a.Player, &a.Points, &a.Scale,
			&a.Reason, &a.CreatedAt)
		a.CreatedAt = a.CreatedAt.UTC()
		return a, err
	}
}
