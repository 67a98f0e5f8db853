package postgres

import (
	"context"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/revisor-sm/revisor/tournament"
)

const playerColumns = `tournament_id, id, seq, name, club, status, created_at, coalesce(person_id, '')`

func scanPlayer(row pgx.Row) (tournament.Player, error) {
	var p tournament.Player
	err := row.Scan(&p.TournamentID, &p.ID, &p.Seq, &p.Name, &p.Club, &p.Status, &p.CreatedAt, &p.PersonID)
	p.CreatedAt = p.CreatedAt.UTC()
	return p, err
}

// AddPlayers registers players, all or none, after check approves the
// tournament. Their IDs are "p" and their registration number.
func (s *Store) AddPlayers(ctx context.Context, tid string, check func(*tournament.Tournament, int) error,
	ps []tournament.NewPlayer, now time.Time) ([]tournament.Player, error) {
	var out []tournament.Player
	err := s.Write(ctx, "player", func(tx pgx.Tx) error {
		t, err := LockTournament(ctx, tx, tid)
		if err != nil {
			return err
		}
		next, err := nextPlayerSeq(ctx, tx, tid)
		if err != nil {
			return err
		}
		registered, err := countPlayers(ctx, tx, tid)
		if err != nil {
			return err
		}
		if err := check(t, registered); err != nil {
			return err
		}
		out, err = insertPlayers(ctx, tx, tid, next, ps, now)
		return err
	})
	return out, err
}

func countPlayers(ctx context.Context, tx pgx.Tx, tid string) (int, error) {
	var n int
	err := tx.QueryRow(ctx, `SELECT count(*) FROM players WHERE tournament_id = $1`, tid).Scan(&n)
	return n, err
}

// nextPlayerSeq is the registration number of the next player. A player
// deleted at the end of the list frees their number (and ID) for the next
// registration; the audit log tells the two apart by time.
func nextPlayerSeq(ctx context.Context, tx pgx.Tx, tid string) (int, error) {
	var n int
	err := tx.QueryRow(ctx, `SELECT coalesce(max(seq), 0) + 1 FROM players WHERE tournament_id = $1`, tid).Scan(&n)
	return n, err
}

func insertPlayers(ctx context.Context, tx pgx.Tx, tid string, next int, ps []tournament.NewPlayer, now time.Time) ([]tournament.Player, error) {
	persons, err := PersonsFor(ctx, tx, ps, now)
	if err != nil {
		return nil, err
	}
	out := make([]tournament.Player, len(ps))
	rows := make([][]any, len(ps))
	for i, np := range ps {
		seq := next + i
		out[i] = tournament.Player{ID: "p" + strconv.Itoa(seq), TournamentID: tid, Name: np.Name, Club: np.Club,
			Status: tournament.PlayerActive, Seq: seq, CreatedAt: now, PersonID: persons[i]}
		p := out[i]
		rows[i] = []any{p.TournamentID, p.ID, p.Seq, p.Name, p.Club, p.Status, p.CreatedAt, p.PersonID}
	}
	_, err = tx.CopyFrom(ctx, pgx.Identifier{"players"},
		[]string{"tournament_id", "id", "seq", "name", "club", "status", "created_at", "person_id"}, pgx.CopyFromRows(rows))
	return out, err
}

// PersonsFor returns the register entry of each registration: the one it
// names, which must stand (not merged away), or a new person made from
// the registration in the same transaction, in one statement for all.
func PersonsFor(ctx context.Context, tx pgx.Tx, ps []tournament.NewPlayer, now time.Time) ([]string, error) {
	out := make([]string, len(ps))
	var named []string
	var names, clubs []string
	var fresh []int
	for i, np := range ps {
		if np.Person != "" {
			out[i] = np.Person
			named = append(named, np.Person)
			continue
		}
		fresh = append(fresh, i)
		names, clubs = append(names, np.Name), append(clubs, np.Club)
	}
	if len(named) > 0 {
		var missing string
		err := tx.QueryRow(ctx, `SELECT coalesce(min(x), '') FROM unnest($1::text[]) x
			WHERE NOT EXISTS (SELECT 1 FROM people p WHERE p.id = x AND p.merged_into IS NULL)`, named).Scan(&missing)
		if err != nil {
			return nil, err
		}
		if missing != "" {
			e := tournament.Errorf(tournament.KindInvalid, tournament.CodePersonNotFound,
				"the register has no person %s (or they were merged into another entry); pick them again", missing)
			e.Details = map[string]any{"field": "person"}
			return nil, e
		}
	}
	if len(fresh) == 0 {
		return out, nil
	}
	rows, err := tx.Query(ctx, `SELECT 'P' || nextval('people_seq') FROM generate_series(1, $1)`, len(fresh))
	if err != nil {
		return nil, err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, err
	}
	_, err = tx.Exec(ctx, `INSERT INTO people (id, name, club, created_at)
		SELECT * FROM unnest($1::text[], $2::text[], $3::text[]), (SELECT $4::timestamptz) t`, ids, names, clubs, now)
	if err != nil {
		return nil, err
	}
	for k, i := range fresh {
		out[i] = ids[k]
	}
	return out, nil
}

// UpdatePlayer applies change to a player under the tournament's lock.
func (s *Store) UpdatePlayer(ctx context.Context, tid, pid string,
	change func(*tournament.Tournament, tournament.Player) (tournament.Player, error)) (tournament.Player, error) {
	var out tournament.Player
	err := s.Write(ctx, "player", func(tx pgx.Tx) error {
		t, p, err := lockPlayer(ctx, tx, tid, pid)
		if err != nil {
			return err
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

// DeletePlayer removes a player after check approves, under the
// tournament's lock. The audit trigger records the deleted row.
func (s *Store) DeletePlayer(ctx context.Context, tid, pid string,
	check func(*tournament.Tournament, tournament.Player) error) error {
	return s.Write(ctx, "player", func(tx pgx.Tx) error {
		t, p, err := lockPlayer(ctx, tx, tid, pid)
		if err != nil {
			return err
		}
		if err := check(t, p); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM players WHERE tournament_id = $1 AND id = $2`, tid, pid)
		return err
	})
}

// lockPlayer reads a player under the lock of their tournament.
func lockPlayer(ctx context.Context, tx pgx.Tx, tid, pid string) (*tournament.Tournament, tournament.Player, error) {
	t, err := LockTournament(ctx, tx, tid)
	if err != nil {
		return nil, tournament.Player{}, err
	}
	p, err := scanPlayer(tx.QueryRow(ctx, `SELECT `+playerColumns+` FROM players WHERE tournament_id = $1 AND id = $2`, tid, pid))
	return t, p, MapError(err, "player")
}

// Players returns a tournament's players in registration order.
func (s *Store) Players(ctx context.Context, tid string) ([]tournament.Player, error) {
	ps, err := queryPlayers(ctx, s.pool, tid)
	return ps, MapError(err, "player")
}

// Querier is what pool and transaction have in common.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

func queryPlayers(ctx context.Context, q Querier, tid string) ([]tournament.Player, error) {
	rows, err := q.Query(ctx, `SELECT `+playerColumns+` FROM players WHERE tournament_id = $1 ORDER BY seq`, tid)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (tournament.Player, error) { return scanPlayer(r) })
}

// SetPlayerStatus sets the status of the players ids of tournament tid.
func SetPlayerStatus(ctx context.Context, tx pgx.Tx, tid string, ids []string, status tournament.PlayerStatus) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := tx.Exec(ctx, `UPDATE players SET status = $3 WHERE tournament_id = $1 AND id = ANY($2)`, tid, ids, status)
	return err
}
