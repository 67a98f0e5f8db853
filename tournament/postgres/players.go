package postgres

import (
	"context"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/revisor-sm/revisor/tournament"
)

const playerColumns = `tournament_id, id, seq, name, club, status, created_at`

func scanPlayer(row pgx.Row) (tournament.Player, error) {
	var p tournament.Player
	err := row.Scan(&p.TournamentID, &p.ID, &p.Seq, &p.Name, &p.Club, &p.Status, &p.CreatedAt)
	p.CreatedAt = p.CreatedAt.UTC()
	return p, err
}

// AddPlayers registers players, all or none, after check approves the
// tournament. Their IDs are "p" and their registration number.
func (s *Store) AddPlayers(ctx context.Context, tid string, check func(*tournament.Tournament, int) error,
	ps []tournament.NewPlayer, now time.Time) ([]tournament.Player, error) {
	var out []tournament.Player
	err := s.inTx(ctx, pgx.ReadCommitted, "player", func(tx pgx.Tx) error {
		t, err := lockTournament(ctx, tx, tid)
		if err != nil {
			return err
		}
		next, err := nextPlayerSeq(ctx, tx, tid)
		if err != nil {
			return err
		}
		if err := check(t, next-1); err != nil { // players are never deleted
			return err
		}
		out, err = insertPlayers(ctx, tx, tid, next, ps, now)
		return err
	})
	return out, err
}

func nextPlayerSeq(ctx context.Context, tx pgx.Tx, tid string) (int, error) {
	var n int
	err := tx.QueryRow(ctx, `SELECT coalesce(max(seq), 0) + 1 FROM players WHERE tournament_id = $1`, tid).Scan(&n)
	return n, err
}

func insertPlayers(ctx context.Context, tx pgx.Tx, tid string, next int, ps []tournament.NewPlayer, now time.Time) ([]tournament.Player, error) {
	out := make([]tournament.Player, len(ps))
	rows := make([][]any, len(ps))
	for i, np := range ps {
		seq := next + i
		out[i] = tournament.Player{ID: "p" + strconv.Itoa(seq), TournamentID: tid, Name: np.Name, Club: np.Club,
			Status: tournament.PlayerActive, Seq: seq, CreatedAt: now}
		p := out[i]
		rows[i] = []any{p.TournamentID, p.ID, p.Seq, p.Name, p.Club, p.Status, p.CreatedAt}
	}
	_, err := tx.CopyFrom(ctx, pgx.Identifier{"players"},
		[]string{"tournament_id", "id", "seq", "name", "club", "status", "created_at"}, pgx.CopyFromRows(rows))
	return out, err
}

// UpdatePlayer applies change to a player under the tournament's lock.
func (s *Store) UpdatePlayer(ctx context.Context, tid, pid string,
	change func(*tournament.Tournament, tournament.Player) (tournament.Player, error)) (tournament.Player, error) {
	var out tournament.Player
	err := s.inTx(ctx, pgx.ReadCommitted, "player", func(tx pgx.Tx) error {
		t, err := lockTournament(ctx, tx, tid)
		if err != nil {
			return err
		}
		p, err := scanPlayer(tx.QueryRow(ctx, `SELECT `+playerColumns+` FROM players WHERE tournament_id = $1 AND id = $2`, tid, pid))
		if err != nil {
			return MapError(err, "player")
		}
		if out, err = change(t, p); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE players SET name = $3, club = $4, status = $5 WHERE tournament_id = $1 AND id = $2`,
			tid, pid, out.Name, out.Club, out.Status)
		return err
	})
	return out, err
}

// Players returns a tournament's players in registration order.
func (s *Store) Players(ctx context.Context, tid string) ([]tournament.Player, error) {
	ps, err := queryPlayers(ctx, s.pool, tid)
	return ps, MapError(err, "player")
}

// querier is what pool and transaction have in common.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

func queryPlayers(ctx context.Context, q querier, tid string) ([]tournament.Player, error) {
	rows, err := q.Query(ctx, `SELECT `+playerColumns+` FROM players WHERE tournament_id = $1 ORDER BY seq`, tid)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (tournament.Player, error) { return scanPlayer(r) })
}

func setPlayerStatus(ctx context.Context, tx pgx.Tx, tid string, ids []string, status tournament.PlayerStatus) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := tx.Exec(ctx, `UPDATE players SET status = $3 WHERE tournament_id = $1 AND id = ANY($2)`, tid, ids, status)
	return err
}
