package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/revisor-sm/revisor/tournament"
)

// PutQueueReport implements tournament.QueueReportStore: one upsert and
// the deletes that keep the reports within b.
func (s *Store) PutQueueReport(ctx context.Context, tid string, n, t int, r tournament.QueueReport, b tournament.QueueReportBounds) error {
	return s.Write(ctx, "queue report", func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO queue_reports (tournament_id, round, table_no, phone, conflicts, refused, at)
			VALUES ($1, $2, $3, $4, $5, $6, $7)
			ON CONFLICT (tournament_id, round, table_no, phone)
			DO UPDATE SET conflicts = EXCLUDED.conflicts, refused = EXCLUDED.refused, at = EXCLUDED.at`,
			tid, n, t, r.Phone, r.Conflicts, r.Refused, r.At)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM queue_reports WHERE at < $1`, r.At.Add(-b.For)); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM queue_reports WHERE tournament_id = $1 AND round = $2 AND table_no = $3
			AND phone NOT IN (SELECT phone FROM queue_reports WHERE tournament_id = $1 AND round = $2 AND table_no = $3
				ORDER BY at DESC, phone LIMIT $4)`, tid, n, t, b.Phones)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM queue_reports WHERE ctid IN (SELECT ctid FROM queue_reports
			ORDER BY at DESC OFFSET $1)`, b.All)
		return err
	})
}

// QueueReports implements tournament.QueueReportStore.
func (s *Store) QueueReports(ctx context.Context, tid string, n int, since time.Time) (map[int]tournament.QueueCounts, error) {
	out := map[int]tournament.QueueCounts{}
	err := s.Read(ctx, "queue report", func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT table_no, sum(conflicts), sum(refused) FROM queue_reports
			WHERE tournament_id = $1 AND round = $2 AND at >= $3 GROUP BY table_no`, tid, n, since)
		if err != nil {
			return err
		}
		var table int
		var q tournament.QueueCounts
		_, err = pgx.ForEachRow(rows, []any{&table, &q.Conflicts, &q.Refused}, func() error {
			out[table] = q
			return nil
		})
		return err
	})
	return out, err
}
