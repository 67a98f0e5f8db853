package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/revisor-sm/revisor/tournament"
)

// Reseat stores the tables decide changes, keeping each as drawn the
// first time it changes, under the tournament's row lock.
func (s *Store) Reseat(ctx context.Context, tid string, n int,
	decide func(*tournament.Tournament, *tournament.Round, []int) ([]tournament.Table, error)) (*tournament.Round, error) {
	var out *tournament.Round
	err := s.Write(ctx, "round", func(tx pgx.Tx) error {
		t, rd, err := lockRoundTables(ctx, tx, tid, n)
		if err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT table_no FROM game_deals WHERE tournament_id = $1 AND round = $2
			UNION SELECT table_no FROM game_results WHERE tournament_id = $1 AND round = $2`, tid, n)
		if err != nil {
			return err
		}
		started, err := pgx.CollectRows(rows, pgx.RowTo[int])
		if err != nil {
			return err
		}
		changed, err := decide(t, rd, started)
		if err != nil {
			return err
		}
		for _, tb := range changed {
			_, err := tx.Exec(ctx, `UPDATE round_tables SET drawn_players = coalesce(drawn_players, players),
				drawn_seats = CASE WHEN drawn_first_dealer IS NULL THEN seats ELSE drawn_seats END,
				drawn_first_dealer = coalesce(drawn_first_dealer, first_dealer),
				players = $4, seats = $5, first_dealer = $6
				WHERE tournament_id = $1 AND round = $2 AND number = $3`, tid, n, tb.Number, tb.Players, tb.Seats, tb.FirstDealer)
			if err != nil {
				return err
			}
		}
		rounds, err := queryRounds(ctx, tx, tid, n)
		if err == nil {
			out = &rounds[0]
		}
		return err
	})
	return out, err
}
