package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/revisor-sm/revisor/tournament"
)

// withdrawalJSON builds a game_withdrawals row (aliased w) as a
// withdrawalRow, for reads that fold them into their table's row.
const withdrawalJSON = `'player', w.player_id, 'game', w.game, 'handling', w.handling, 'reason', w.reason,
	'by', w.created_by, 'at', w.created_at`

// withdrawalRow is one game_withdrawals row as withdrawalJSON builds it.
type withdrawalRow struct {
	Player   string    `json:"player"`
	Game     int       `json:"game"`
	Handling string    `json:"handling"`
	Reason   string    `json:"reason"`
	By       string    `json:"by"`
	At       time.Time `json:"at"`
}

func withdrawalsOf(rows []withdrawalRow, n, t int) []tournament.GameWithdrawal {
	if len(rows) == 0 {
		return nil
	}
	out := make([]tournament.GameWithdrawal, len(rows))
	for i, r := range rows {
		out[i] = tournament.GameWithdrawal{Player: r.Player, Round: n, Table: t, Game: r.Game,
			Handling: tournament.WithdrawalHandling(r.Handling), Reason: r.Reason, By: r.By, CreatedAt: r.At.UTC()}
	}
	return out
}

// attachWithdrawals adds each table's withdrawals to the rounds read
// (round n, or every round when n is 0).
func attachWithdrawals(ctx context.Context, tx Querier, tid string, n int, byNumber map[int]*tournament.Round) error {
	rows, err := tx.Query(ctx, `SELECT round, table_no, player_id, game, handling, reason, created_by, created_at
		FROM game_withdrawals WHERE tournament_id = $1 AND ($2 = 0 OR round = $2) ORDER BY created_at, player_id`, tid, n)
	if err != nil {
		return err
	}
	var w tournament.GameWithdrawal
	_, err = pgx.ForEachRow(rows, []any{&w.Round, &w.Table, &w.Player, &w.Game, &w.Handling, &w.Reason, &w.By, &w.CreatedAt},
		func() error {
			w.CreatedAt = w.CreatedAt.UTC()
			if r := byNumber[w.Round]; r != nil {
				for i := range r.Tables {
					if r.Tables[i].Number == w.Table {
						r.Tables[i].Withdrawals = append(r.Tables[i].Withdrawals, w)
					}
				}
			}
			return nil
		})
	return err
}

// WithdrawDuringGame stores the withdrawal decide makes and sets the player
// withdrawn, under the tournament's row lock.
func (s *Store) WithdrawDuringGame(ctx context.Context, tid string, n, t int, pid string,
	decide func(*tournament.Tournament, *tournament.Round, []int, tournament.Player) (*tournament.GameWithdrawal, error),
) (*tournament.GameWithdrawal, error) {
	var out *tournament.GameWithdrawal
	err := s.Write(ctx, "player", func(tx pgx.Tx) error {
		tn, rd, err := lockRoundTables(ctx, tx, tid, n)
		if err != nil {
			return err
		}
		tb, ok := rd.Table(t)
		if !ok {
			return tournament.Errorf(tournament.KindNotFound, tournament.CodeTableNotFound, "round %d has no table %d", n, t)
		}
		rd.Tables = []tournament.Table{tb}
		p, err := scanPlayer(tx.QueryRow(ctx, `SELECT `+playerColumns+` FROM players WHERE tournament_id = $1 AND id = $2`, tid, pid))
		if err != nil {
			return MapError(err, "player")
		}
		rows, err := tx.Query(ctx, `SELECT DISTINCT game FROM game_results
			WHERE tournament_id = $1 AND round = $2 AND table_no = $3 ORDER BY game`, tid, n, t)
		if err != nil {
			return err
		}
		played, err := pgx.CollectRows(rows, pgx.RowTo[int])
		if err != nil {
			return err
		}
		if out, err = decide(tn, rd, played, p); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO game_withdrawals (tournament_id, player_id, round, table_no, game, handling,
			reason, created_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			tid, out.Player, out.Round, out.Table, out.Game, out.Handling, out.Reason, out.By, out.CreatedAt); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE players SET status = 'withdrawn' WHERE tournament_id = $1 AND id = $2`, tid, pid)
		return err
	})
	return out, err
}

// lockRoundTables locks tournament tid's row and reads its round n with the
// round's tables; not found when there is no such round.
func lockRoundTables(ctx context.Context, tx pgx.Tx, tid string, n int) (*tournament.Tournament, *tournament.Round, error) {
	t, err := LockTournament(ctx, tx, tid)
	if err != nil {
		return nil, nil, err
	}
	rounds, err := queryRounds(ctx, tx, tid, n)
	if err != nil {
		return nil, nil, err
	}
	if len(rounds) == 0 {
		return nil, nil, tournament.RoundNotFound(n)
	}
	return t, &rounds[0], nil
}
