package refereepg

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/postgres"
	"github.com/revisor-sm/revisor/tournament/referee"
)

// DisputeColumns are the columns ScanDispute reads, of the table disputes.
const DisputeColumns = `id, tournament_id, round, table_no, game, description, record, verdict, result_id, status,
	opened_role, opened_by, created_at, deal, seen_at, seen_by`

// ScanDispute scans a row of DisputeColumns (its ruling is not attached).
func ScanDispute(row pgx.Row) (*referee.Dispute, error) {
	var (
		d               referee.Dispute
		record, verdict []byte
	)
	k := &d.Key
	err := row.Scan(&d.ID, &k.TournamentID, &k.Round, &k.Table, &k.Game, &d.Description, &record, &verdict, &d.ResultID,
		&d.Status, &d.OpenedRole, &d.OpenedBy, &d.CreatedAt, &d.Deal, &d.SeenAt, &d.SeenBy)
	if len(record) > 0 {
		d.Record = record
	}
	if len(verdict) > 0 {
		d.Verdict = verdict
	}
	d.CreatedAt = d.CreatedAt.UTC()
	if d.SeenAt != nil {
		at := d.SeenAt.UTC()
		d.SeenAt = &at
	}
	return &d, err
}

// AttachRulings reads the rulings and adjustments of ds.
func AttachRulings(ctx context.Context, tx pgx.Tx, tid string, ds []referee.Dispute) error {
	ids := make([]int64, len(ds))
	for i := range ds {
		ids[i] = ds[i].ID
	}
	rows, err := tx.Query(ctx, `SELECT id, dispute_id, decision, reason, correction_id, verdict, disqualified,
		ruled_role, ruled_by, created_at FROM rulings WHERE tournament_id = $1 AND dispute_id = ANY($2) ORDER BY id`, tid, ids)
	if err != nil {
		return err
	}
	rulings, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (*referee.Ruling, error) {
		var (
			ru      referee.Ruling
			verdict []byte
		)
		err := r.Scan(&ru.ID, &ru.DisputeID, &ru.Decision, &ru.Reason, &ru.CorrectionID, &verdict, &ru.Disqualified,
			&ru.RuledRole, &ru.RuledBy, &ru.CreatedAt)
		if len(verdict) > 0 {
			ru.Verdict = verdict
		}
		ru.CreatedAt = ru.CreatedAt.UTC()
		return &ru, err
	})
	if err != nil {
		return err
	}
	adjs, err := rulingAdjustments(ctx, tx, tid, rulings)
	if err != nil {
		return err
	}
	byDispute := map[int64]*referee.Ruling{}
	byID := map[int64]*referee.Ruling{}
	for _, ru := range rulings {
		byDispute[ru.DisputeID], byID[ru.ID] = ru, ru
	}
	for _, a := range adjs {
		if ru := byID[a.RulingID]; ru != nil {
			ru.Adjustments = append(ru.Adjustments, a)
		}
	}
	for i := range ds {
		ds[i].Ruling = byDispute[ds[i].ID]
	}
	return nil
}

// rulingAdjustments reads the adjustments of rulings.
func rulingAdjustments(ctx context.Context, tx pgx.Tx, tid string, rulings []*referee.Ruling) ([]tournament.Adjustment, error) {
	if len(rulings) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(rulings))
	for i, ru := range rulings {
		ids[i] = ru.ID
	}
	rows, err := tx.Query(ctx, `SELECT id, ruling_id, round, table_no, game, player_id, points, scale, reason, created_at
		FROM adjustments WHERE tournament_id = $1 AND ruling_id = ANY($2) ORDER BY id`, tid, ids)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, postgres.ScanAdjustment(tid))
}
