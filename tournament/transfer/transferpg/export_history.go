package transferpg

import (
	"context"
	"encoding/json"

	"github.com/jackc/pgx/v5"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/postgres"
	"github.com/revisor-sm/revisor/tournament/referee"
	"github.com/revisor-sm/revisor/tournament/referee/refereepg"
	"github.com/revisor-sm/revisor/tournament/transfer"
)

// ExportHistory reads everything of a tournament besides its effective
// results, in one snapshot, each kind of row oldest first.
func (s *Store) ExportHistory(ctx context.Context, tid string) (*transfer.ExportHistory, error) {
	h := &transfer.ExportHistory{}
	err := s.db.Read(ctx, "tournament", func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `SELECT correction_minutes FROM tournaments WHERE id = $1`, tid).Scan(&h.CorrectionMinutes); err != nil {
			return postgres.MapError(err, "tournament")
		}
		for _, read := range []func(context.Context, pgx.Tx, string, *transfer.ExportHistory) error{
			exportResultRows, exportDeals, exportDealCorrections, exportConfirmations, exportDisputes,
			exportReopenings, exportAudit,
		} {
			if err := read(ctx, tx, tid, h); err != nil {
				return err
			}
		}
		return nil
	})
	return h, err
}

// collect runs q and scans each row with scan into a new T.
func collect[T any](ctx context.Context, tx pgx.Tx, q string, tid string, scan func(pgx.Row, *T) error) ([]T, error) {
	rows, err := tx.Query(ctx, q, tid)
	if err != nil {
		return nil, err
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (T, error) {
		var v T
		err := scan(r, &v)
		return v, err
	})
	if out == nil {
		out = []T{}
	}
	return out, err
}

func exportResultRows(ctx context.Context, tx pgx.Tx, tid string, h *transfer.ExportHistory) (err error) {
	h.Results, err = collect(ctx, tx, `SELECT id, supersedes, round, table_no, game, kind, record, places, submitted_by,
		created_at FROM game_results WHERE tournament_id = $1 ORDER BY id`, tid,
		func(r pgx.Row, x *transfer.ExportResultRow) error {
			var places []byte
			err := r.Scan(&x.ID, &x.Supersedes, &x.Round, &x.Table, &x.Game, &x.Kind, &x.Record, &places, &x.SubmittedBy, &x.CreatedAt)
			if err != nil {
				return err
			}
			ps, err := postgres.DecodePlaces(places)
			x.Places, x.CreatedAt = make([]transfer.ExportPlace, len(ps)), x.CreatedAt.UTC()
			for i, p := range ps {
				x.Places[i] = transfer.ExportPlace{Player: p.Player, Place: p.Place, Score: p.Score, Points: p.Points, Forfeit: p.Forfeit}
			}
			return err
		})
	return err
}

func exportDeals(ctx context.Context, tx pgx.Tx, tid string, h *transfer.ExportHistory) (err error) {
	h.Deals, err = collect(ctx, tx, `SELECT round, table_no, game, seq, deal, created_at FROM game_deals
		WHERE tournament_id = $1 ORDER BY round, table_no, game, seq`, tid,
		func(r pgx.Row, x *transfer.ExportDeal) error {
			err := r.Scan(&x.Round, &x.Table, &x.Game, &x.Seq, &x.Deal, &x.CreatedAt)
			x.CreatedAt = x.CreatedAt.UTC()
			return err
		})
	return err
}

func exportDealCorrections(ctx context.Context, tx pgx.Tx, tid string, h *transfer.ExportHistory) (err error) {
	h.DealCorrections, err = collect(ctx, tx, `SELECT round, table_no, game, seq, deal, reason, corrected_by, created_at
		FROM deal_corrections WHERE tournament_id = $1 ORDER BY id`, tid,
		func(r pgx.Row, x *transfer.ExportDealCorrection) error {
			err := r.Scan(&x.Round, &x.Table, &x.Game, &x.Seq, &x.Deal, &x.Reason, &x.CorrectedBy, &x.CreatedAt)
			x.CreatedAt = x.CreatedAt.UTC()
			return err
		})
	return err
}

func exportConfirmations(ctx context.Context, tx pgx.Tx, tid string, h *transfer.ExportHistory) (err error) {
	h.Confirmations, err = collect(ctx, tx, `SELECT result_id, player_id, confirmed_by, created_at FROM game_confirmations
		WHERE tournament_id = $1 ORDER BY created_at, result_id, player_id`, tid,
		func(r pgx.Row, x *transfer.ExportConfirmation) error {
			err := r.Scan(&x.Result, &x.Player, &x.ConfirmedBy, &x.CreatedAt)
			x.CreatedAt = x.CreatedAt.UTC()
			return err
		})
	return err
}

func exportDisputes(ctx context.Context, tx pgx.Tx, tid string, h *transfer.ExportHistory) error {
	rows, err := tx.Query(ctx, `SELECT `+refereepg.DisputeColumns+` FROM disputes WHERE tournament_id = $1 ORDER BY id`, tid)
	if err != nil {
		return err
	}
	ds, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (referee.Dispute, error) {
		d, err := refereepg.ScanDispute(r)
		return *d, err
	})
	if err != nil {
		return err
	}
	if err := refereepg.AttachRulings(ctx, tx, tid, ds); err != nil {
		return err
	}
	h.Disputes = make([]transfer.ExportDispute, len(ds))
	for i, d := range ds {
		h.Disputes[i] = transfer.ExportDispute{Round: d.Key.Round, Table: d.Key.Table, Game: d.Key.Game,
			Description: d.Description, Record: d.Record, Result: d.ResultID, Deal: d.Deal, Status: string(d.Status),
			OpenedRole: string(d.OpenedRole), OpenedBy: d.OpenedBy, CreatedAt: d.CreatedAt}
		if ru := d.Ruling; ru != nil {
			x := &transfer.ExportRuling{Decision: ru.Decision, Reason: ru.Reason, Correction: ru.CorrectionID,
				Disqualified: postgres.NonNil(ru.Disqualified), Adjustments: []transfer.ExportAdjustment{}, RuledRole: string(ru.RuledRole),
				RuledBy: ru.RuledBy, CreatedAt: ru.CreatedAt}
			for _, a := range ru.Adjustments {
				x.Adjustments = append(x.Adjustments, transfer.ExportAdjustment{Player: a.Player, Points: a.Points,
					Scale: a.Scale, Reason: a.Reason, CreatedAt: a.CreatedAt})
			}
			h.Disputes[i].Ruling = x
		}
	}
	return nil
}

func exportReopenings(ctx context.Context, tx pgx.Tx, tid string, h *transfer.ExportHistory) (err error) {
	h.Reopenings, err = collect(ctx, tx, `SELECT round, reason, until, opened_by, created_at FROM round_reopenings
		WHERE tournament_id = $1 ORDER BY id`, tid,
		func(r pgx.Row, x *transfer.ExportReopening) error {
			err := r.Scan(&x.Round, &x.Reason, &x.Until, &x.By, &x.CreatedAt)
			x.Until, x.CreatedAt = x.Until.UTC(), x.CreatedAt.UTC()
			return err
		})
	return err
}

func exportAudit(ctx context.Context, tx pgx.Tx, tid string, h *transfer.ExportHistory) (err error) {
	h.Audit, err = collect(ctx, tx, `SELECT at, actor_role, actor_token, reason, kind, subject, operation,
		coalesce(round, 0), coalesce(table_no, 0), players, before, after FROM audit_log WHERE tournament_id = $1 ORDER BY id`, tid,
		func(r pgx.Row, x *transfer.ExportAuditEntry) error {
			var before, after []byte
			err := r.Scan(&x.At, &x.Role, &x.Token, &x.Reason, &x.Kind, &x.Subject, &x.Operation, &x.Round, &x.Table,
				&x.Players, &before, &after)
			x.At, x.Before, x.After = x.At.UTC(), nullable(before), nullable(after)
			return err
		})
	return err
}

func nullable(b []byte) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	return b
}

// importHistory writes a checked history but its audit log (which
// ImportTournament writes first, so that the carried entries come before
// the import's own): every result row with a new id, the deals, corrections, confirmations,
// disputes with rulings and adjustments, and reopenings.
func importHistory(ctx context.Context, tx pgx.Tx, tid string, h *transfer.ImportedHistory) error {
	if _, err := tx.Exec(ctx, `UPDATE tournaments SET correction_minutes = $2 WHERE id = $1`, tid, h.CorrectionMinutes); err != nil {
		return err
	}
	ids := map[int64]int64{} // the file's result ids → this server's
	for _, step := range []func() error{
		func() error { return importResultRows(ctx, tx, tid, h.Rows, ids) },
		func() error { return importDeals(ctx, tx, tid, h) },
		func() error { return importConfirmations(ctx, tx, tid, h.Confirmations, ids) },
		func() error { return importDisputes(ctx, tx, tid, h, ids) },
		func() error { return importReopenings(ctx, tx, tid, h.Reopenings) },
	} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

func importAudit(ctx context.Context, tx pgx.Tx, tid string, es []transfer.ExportAuditEntry) error {
	rows := make([][]any, len(es))
	for i, e := range es {
		var round, table any
		if e.Round != 0 {
			round = e.Round
		}
		if e.Table != 0 {
			table = e.Table
		}
		rows[i] = []any{tid, e.At, e.Role, e.Token, e.Reason, e.Kind, e.Subject, e.Operation, round, table,
			postgres.NonNil(e.Players), postgres.JSONOrNil(e.Before), postgres.JSONOrNil(e.After)}
	}
	_, err := tx.CopyFrom(ctx, pgx.Identifier{"audit_log"}, []string{"tournament_id", "at", "actor_role", "actor_token",
		"reason", "kind", "subject", "operation", "round", "table_no", "players", "before", "after"}, pgx.CopyFromRows(rows))
	return err
}

func importResultRows(ctx context.Context, tx pgx.Tx, tid string, rows []tournament.GameResult, ids map[int64]int64) error {
	for _, r := range rows {
		places, err := postgres.EncodePlaces(r.Places)
		if err != nil {
			return err
		}
		var supersedes *int64
		if r.Supersedes != nil {
			id := ids[*r.Supersedes]
			supersedes = &id
		}
		var id int64
		err = tx.QueryRow(ctx, `INSERT INTO game_results (tournament_id, round, table_no, game, kind, supersedes, record,
			record_hash, result, places, submitted_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
			RETURNING id`, tid, r.Key.Round, r.Key.Table, r.Key.Game, r.Kind, supersedes, string(r.Record), r.RecordHash,
			string(r.Result), string(places), r.SubmittedBy, r.CreatedAt).Scan(&id)
		if err != nil {
			return err
		}
		ids[r.ID] = id
	}
	return nil
}

func importDeals(ctx context.Context, tx pgx.Tx, tid string, h *transfer.ImportedHistory) error {
	deals := make([][]any, len(h.Deals))
	for i, d := range h.Deals {
		deals[i] = []any{tid, d.Round, d.Table, d.Game, d.Seq, string(d.Deal), d.CreatedAt}
	}
	_, err := tx.CopyFrom(ctx, pgx.Identifier{"game_deals"}, []string{"tournament_id", "round", "table_no", "game", "seq",
		"deal", "created_at"}, pgx.CopyFromRows(deals))
	if err != nil {
		return err
	}
	for _, c := range h.DealCorrections {
		_, err := tx.Exec(ctx, `INSERT INTO deal_corrections (tournament_id, round, table_no, game, seq, deal, reason,
			corrected_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, tid, c.Round, c.Table, c.Game, c.Seq,
			string(c.Deal), c.Reason, c.CorrectedBy, c.CreatedAt)
		if err != nil {
			return err
		}
	}
	return nil
}

func importConfirmations(ctx context.Context, tx pgx.Tx, tid string, cs []transfer.ExportConfirmation, ids map[int64]int64) error {
	for _, c := range cs {
		_, err := tx.Exec(ctx, `INSERT INTO game_confirmations (tournament_id, round, table_no, game, result_id, player_id,
			confirmed_by, created_at) SELECT $1, round, table_no, game, id, $3, $4, $5 FROM game_results WHERE id = $2`,
			tid, ids[c.Result], c.Player, c.ConfirmedBy, c.CreatedAt)
		if err != nil {
			return err
		}
	}
	return nil
}

func importDisputes(ctx context.Context, tx pgx.Tx, tid string, h *transfer.ImportedHistory, ids map[int64]int64) error {
	mapped := func(id *int64) *int64 {
		if id == nil {
			return nil
		}
		n := ids[*id]
		return &n
	}
	for i, d := range h.Disputes {
		var id int64
		err := tx.QueryRow(ctx, `INSERT INTO disputes (tournament_id, round, table_no, game, description, record, verdict,
			result_id, status, opened_role, opened_by, created_at, deal)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
			tid, d.Round, d.Table, d.Game, d.Description, postgres.JSONOrNil(d.Record), postgres.JSONOrNil(h.Verdicts[i]), mapped(d.Result),
			d.Status, d.OpenedRole, d.OpenedBy, d.CreatedAt, d.Deal).Scan(&id)
		if err != nil {
			return err
		}
		if ru := d.Ruling; ru != nil {
			if err := importRuling(ctx, tx, tid, id, d, h.RulingVerdicts[i], mapped(ru.Correction)); err != nil {
				return err
			}
		}
	}
	return nil
}

func importRuling(ctx context.Context, tx pgx.Tx, tid string, dispute int64, d transfer.ExportDispute, verdict []byte, correction *int64) error {
	ru := d.Ruling
	var id int64
	err := tx.QueryRow(ctx, `INSERT INTO rulings (tournament_id, dispute_id, decision, reason, correction_id, verdict,
		disqualified, ruled_role, ruled_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
		tid, dispute, ru.Decision, ru.Reason, correction, postgres.JSONOrNil(verdict), postgres.NonNil(ru.Disqualified), ru.RuledRole,
		ru.RuledBy, ru.CreatedAt).Scan(&id)
	if err != nil {
		return err
	}
	for _, a := range ru.Adjustments {
		_, err := tx.Exec(ctx, `INSERT INTO adjustments (tournament_id, ruling_id, round, table_no, game, player_id, points,
			scale, reason, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
			tid, id, d.Round, d.Table, d.Game, a.Player, a.Points, a.Scale, a.Reason, a.CreatedAt)
		if err != nil {
			return err
		}
	}
	return nil
}

func importReopenings(ctx context.Context, tx pgx.Tx, tid string, rs []transfer.ExportReopening) error {
	for _, r := range rs {
		_, err := tx.Exec(ctx, `INSERT INTO round_reopenings (tournament_id, round, reason, until, opened_by, created_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, tid, r.Round, r.Reason, r.Until, r.By, r.CreatedAt)
		if err != nil {
			return err
		}
	}
	return nil
}
