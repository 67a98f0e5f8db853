// Small conversions of values on their way into SQL, and the correction
// row both a table's correction and a ruling write.
package postgres

import (
	"context"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/referee"
)

func NonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// InsertCorrection appends a result row: a correction that supersedes the
// game's effective result, or the first result of a game that had none.
func InsertCorrection(ctx context.Context, tx pgx.Tx, c *tournament.GameResult) error {
	places, err := encodePlaces(c.Places)
	if err != nil {
		return err
	}
	k := c.Key
	return tx.QueryRow(ctx, `INSERT INTO game_results (tournament_id, round, table_no, game, kind, supersedes, record,
		record_hash, result, places, submitted_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
		RETURNING id`, k.TournamentID, k.Round, k.Table, k.Game, c.Kind, c.Supersedes, string(c.Record), c.RecordHash,
		string(c.Result), string(places), c.SubmittedBy, c.CreatedAt).Scan(&c.ID)
}

// writeAdvancement writes the outcomes, statuses and champion a ruling
// changed.
func writeAdvancement(ctx context.Context, tx pgx.Tx, tid string, st *referee.State, ch *referee.RulingChange) error {
	old := map[string]tournament.Outcome{}
	for _, o := range st.Outcomes {
		old[o.Player+"/"+itoa(o.Round)] = o
	}
	for _, o := range ch.Outcomes {
		if prev, ok := old[o.Player+"/"+itoa(o.Round)]; ok && prev == o {
			continue
		}
		_, err := tx.Exec(ctx, `INSERT INTO round_outcomes (tournament_id, round, player_id, table_no, rank, advanced)
			VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (tournament_id, round, player_id)
			DO UPDATE SET table_no = EXCLUDED.table_no, rank = EXCLUDED.rank, advanced = EXCLUDED.advanced`,
			tid, o.Round, o.Player, o.Table, o.Rank, o.Advanced)
		if err != nil {
			return err
		}
	}
	for p, status := range ch.Statuses {
		if err := SetPlayerStatus(ctx, tx, tid, []string{p}, status); err != nil {
			return err
		}
	}
	if ch.Champion != nil {
		_, err := tx.Exec(ctx, `UPDATE tournaments SET champion = $2 WHERE id = $1`, tid, *ch.Champion)
		return err
	}
	return nil
}

func itoa(n int) string { return strconv.Itoa(n) }
