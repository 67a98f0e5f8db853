package postgres

import (
	"context"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/revisor-sm/revisor/tournament"
)

// JSONOrNil passes JSON to PostgreSQL as text, NULL when empty.
func JSONOrNil(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return string(b)
}

// NonNil returns s, or an empty list for nil: a text[] column that is NOT NULL.
func NonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// InsertCorrection appends a result row: a correction that supersedes the
// game's effective result, or the first result of a game that had none.
func InsertCorrection(ctx context.Context, tx pgx.Tx, c *tournament.GameResult) error {
	places, err := EncodePlaces(c.Places)
	if err != nil {
		return err
	}
	k := c.Key
	return tx.QueryRow(ctx, `INSERT INTO game_results (tournament_id, round, table_no, game, kind, supersedes, record,
		record_hash, result, places, submitted_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
		RETURNING id`, k.TournamentID, k.Round, k.Table, k.Game, c.Kind, c.Supersedes, string(c.Record), c.RecordHash,
		string(c.Result), string(places), c.SubmittedBy, c.CreatedAt).Scan(&c.ID)
}

// itoa is strconv.Itoa, short for building keys.
func itoa(n int) string { return strconv.Itoa(n) }
