package refereepg

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/postgres"
	"github.com/revisor-sm/revisor/tournament/referee"
)

const refereeColumns = `tournament_id, id, name, created_by, created_at, revoked_at`

func scanReferee(row pgx.Row, extra ...any) (*referee.RefereeToken, error) {
	var t referee.RefereeToken
	err := row.Scan(append([]any{&t.TournamentID, &t.ID, &t.Name, &t.CreatedBy, &t.CreatedAt, &t.RevokedAt}, extra...)...)
	t.CreatedAt = t.CreatedAt.UTC()
	if t.RevokedAt != nil {
		r := t.RevokedAt.UTC()
		t.RevokedAt = &r
	}
	return &t, err
}

// AddRefereeToken stores a referee token under its hash.
func (s *Store) AddRefereeToken(ctx context.Context, t *referee.RefereeToken, hash []byte, check func(int) error) error {
	return s.db.Write(ctx, "referee token", func(tx pgx.Tx) error {
		if _, err := postgres.LockTournament(ctx, tx, t.TournamentID); err != nil {
			return err
		}
		var issued int
		err := tx.QueryRow(ctx, `SELECT count(*) FROM referee_tokens WHERE tournament_id = $1`, t.TournamentID).Scan(&issued)
		if err != nil {
			return err
		}
		if err := check(issued); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO referee_tokens (tournament_id, id, name, token_hash, created_by, created_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, t.TournamentID, t.ID, t.Name, hash, t.CreatedBy, t.CreatedAt)
		return err
	})
}

// RevokeRefereeToken marks a token revoked.
func (s *Store) RevokeRefereeToken(ctx context.Context, tid, id string, now time.Time) (*referee.RefereeToken, error) {
	var out *referee.RefereeToken
	err := s.db.Write(ctx, "referee token", func(tx pgx.Tx) error {
		t, err := scanReferee(tx.QueryRow(ctx, `SELECT `+refereeColumns+` FROM referee_tokens
			WHERE tournament_id = $1 AND id = $2 FOR UPDATE`, tid, id))
		if err != nil {
			return postgres.MapError(err, "referee token")
		}
		if t.RevokedAt != nil {
			return tournament.Errorf(tournament.KindConflict, tournament.CodeTokenRevoked, "referee token %s was already revoked", id)
		}
		t.RevokedAt = &now
		out = t
		_, err = tx.Exec(ctx, `UPDATE referee_tokens SET revoked_at = $3 WHERE tournament_id = $1 AND id = $2`, tid, id, now)
		return err
	})
	return out, err
}

// RefereeTokens lists a tournament's referee tokens.
func (s *Store) RefereeTokens(ctx context.Context, tid string) ([]referee.RefereeToken, error) {
	rows, err := s.db.Pool().Query(ctx, `SELECT `+refereeColumns+` FROM referee_tokens WHERE tournament_id = $1 ORDER BY created_at, id`, tid)
	if err != nil {
		return nil, postgres.MapError(err, "referee token")
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (referee.RefereeToken, error) {
		t, err := scanReferee(r)
		return *t, err
	})
	return out, postgres.MapError(err, "referee token")
}

// RefereeByTokenHash finds a referee token by its hash.
func (s *Store) RefereeByTokenHash(ctx context.Context, hash []byte) (*referee.RefereeToken, []byte, error) {
	var stored []byte
	t, err := scanReferee(s.db.Pool().QueryRow(ctx, `SELECT `+refereeColumns+`, token_hash FROM referee_tokens WHERE token_hash = $1`, hash), &stored)
	if err != nil {
		return nil, nil, postgres.MapError(err, "token")
	}
	return t, stored, nil
}

// RefereeState returns a consistent snapshot of what rulings look at.
func (s *Store) RefereeState(ctx context.Context, tid string) (*referee.State, error) {
	var st *referee.State
	err := s.db.Read(ctx, "tournament", func(tx pgx.Tx) error {
		t, err := postgres.ScanTournament(tx.QueryRow(ctx, `SELECT `+postgres.TournamentColumns+` FROM tournaments t WHERE t.id = $1`, tid))
		if err != nil {
			return postgres.MapError(err, "tournament")
		}
		st, err = loadRefereeState(ctx, tx, t)
		return err
	})
	return st, err
}

// loadRefereeState reads the state with the correction window, reopenings
// and commitments.
func loadRefereeState(ctx context.Context, tx pgx.Tx, t *tournament.Tournament) (*referee.State, error) {
	base, err := postgres.LoadState(ctx, tx, t)
	if err != nil {
		return nil, err
	}
	st := &referee.State{State: *base}
	if err := tx.QueryRow(ctx, `SELECT correction_minutes FROM tournaments WHERE id = $1`, t.ID).Scan(&st.CorrectionMinutes); err != nil {
		return nil, err
	}
	if st.Reopenings, err = queryReopenings(ctx, tx, t.ID); err != nil {
		return nil, err
	}
	st.Commitments, err = queryCommitments(ctx, tx, t.ID)
	return st, err
}

func queryReopenings(ctx context.Context, tx postgres.Querier, tid string) ([]referee.Reopening, error) {
	rows, err := tx.Query(ctx, `SELECT id, round, reason, until, opened_by, created_at FROM round_reopenings
		WHERE tournament_id = $1 ORDER BY id`, tid)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (referee.Reopening, error) {
		var ro referee.Reopening
		err := r.Scan(&ro.ID, &ro.Round, &ro.Reason, &ro.Until, &ro.By, &ro.CreatedAt)
		ro.Until, ro.CreatedAt = ro.Until.UTC(), ro.CreatedAt.UTC()
		return ro, err
	})
}

func queryCommitments(ctx context.Context, tx postgres.Querier, tid string) ([]referee.Commitment, error) {
	rows, err := tx.Query(ctx, `SELECT tournament_id, round, seed_sha256, committed_by, created_at FROM round_commitments
		WHERE tournament_id = $1 ORDER BY round`, tid)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (referee.Commitment, error) {
		var c referee.Commitment
		err := r.Scan(&c.TournamentID, &c.Round, &c.SeedSHA256, &c.By, &c.CreatedAt)
		c.CreatedAt = c.CreatedAt.UTC()
		return c, err
	})
}

// SetCorrectionMinutes sets a tournament's correction window.
func (s *Store) SetCorrectionMinutes(ctx context.Context, tid string, minutes int) error {
	return s.db.Write(ctx, "tournament", func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE tournaments SET correction_minutes = $2 WHERE id = $1`, tid, minutes)
		if err == nil && tag.RowsAffected() == 0 {
			return tournament.Errorf(tournament.KindNotFound, tournament.CodeTournamentNotFound, "tournament not found")
		}
		return err
	})
}

// Reopen stores a reopening after check approves the locked state.
func (s *Store) Reopen(ctx context.Context, tid string, r *referee.Reopening, check func(*referee.State) error) error {
	return s.lockedReferee(ctx, tid, "reopening", func(tx pgx.Tx, st *referee.State) error {
		if err := check(st); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `INSERT INTO round_reopenings (tournament_id, round, reason, until, opened_by, created_at)
			VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, tid, r.Round, r.Reason, r.Until, r.By, r.CreatedAt).Scan(&r.ID)
	})
}

// Commit stores a draw commitment.
func (s *Store) Commit(ctx context.Context, c *referee.Commitment) error {
	err := s.db.Write(ctx, "commitment", func(tx pgx.Tx) error {
		if _, err := postgres.LockTournament(ctx, tx, c.TournamentID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO round_commitments (tournament_id, round, seed_sha256, committed_by, created_at)
			VALUES ($1, $2, $3, $4, $5)`, c.TournamentID, c.Round, c.SeedSHA256, c.By, c.CreatedAt)
		return err
	})
	if tournament.ErrorCode(err) == tournament.CodeCommitmentExists {
		return tournament.Errorf(tournament.KindConflict, tournament.CodeCommitmentExists, "round %d already has a commitment; it cannot be changed", c.Round)
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.ConstraintName == "commitment_before_draw" {
		return tournament.Errorf(tournament.KindConflict, tournament.CodeRoundDrawn, "round %d is already drawn; a commitment must come before the draw", c.Round)
	}
	return err
}

// lockedReferee runs fn in a write transaction holding the tournament's
// row lock, on the referee state loaded inside it.
func (s *Store) lockedReferee(ctx context.Context, tid, subject string, fn func(pgx.Tx, *referee.State) error) error {
	return s.db.Write(ctx, subject, func(tx pgx.Tx) error {
		st, err := lockState(ctx, tx, tid)
		if err != nil {
			return err
		}
		return fn(tx, st)
	})
}

// lockState takes tournament tid's lock in tx and loads what rulings look at.
func lockState(ctx context.Context, tx pgx.Tx, tid string) (*referee.State, error) {
	t, err := postgres.LockTournament(ctx, tx, tid)
	if err != nil {
		return nil, err
	}
	return loadRefereeState(ctx, tx, t)
}
