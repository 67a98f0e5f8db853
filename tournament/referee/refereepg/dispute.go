package refereepg

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/postgres"
	"github.com/revisor-sm/revisor/tournament/referee"
)

// OpenDispute stores d after check approves the locked state.
func (s *Store) OpenDispute(ctx context.Context, d *referee.Dispute, check func(*referee.State, int) error) error {
	return s.lockedReferee(ctx, d.Key.TournamentID, "dispute", func(tx pgx.Tx, st *referee.State) error {
		return insertDispute(ctx, tx, st, d, check)
	})
}

// errKeyAnswered rolls back a dispute's transaction whose key was not
// the caller's: nothing is written.
var errKeyAnswered = errors.New("the dispute's key was answered before, or its claim was refused")

// OpenDisputeKeyed is OpenDispute for a dispute sent with a client's key:
// the key is claimed first in the dispute's transaction, and the answer,
// which answer makes from the dispute once stored (its id known), is
// stored under the key before it commits. The key's claim, the dispute
// and the answer commit together, or none of them does: a dispute
// refused (err) leaves the key unclaimed. When the key was not the
// caller's, nothing is written and the answer stored before (stored), or
// the claim's refusal (claimErr), is returned. Without keys (WithKeys)
// it reports ok false and does nothing.
func (s *Store) OpenDisputeKeyed(ctx context.Context, d *referee.Dispute, check func(*referee.State, int) error,
	scope, key string, fingerprint []byte, answer func(*referee.Dispute) ([]byte, error)) (ok bool, stored []byte, claimErr, err error) {
	if s.keys == nil {
		return false, nil, nil, nil
	}
	k := s.keys.InTx(scope, key, fingerprint)
	err = s.db.Write(ctx, "dispute", func(tx pgx.Tx) error {
		var err error
		if stored, claimErr, err = k.Claim(ctx, tx); err != nil {
			return err
		}
		if stored != nil || claimErr != nil {
			return errKeyAnswered
		}
		st, err := lockState(ctx, tx, d.Key.TournamentID)
		if err != nil {
			return err
		}
		if err := insertDispute(ctx, tx, st, d, check); err != nil {
			return err
		}
		a, err := answer(d)
		if err != nil || a == nil {
			return err
		}
		return k.Answer(ctx, tx, a)
	})
	if errors.Is(err, errKeyAnswered) {
		err = nil
	}
	return true, stored, claimErr, err
}

// insertDispute inserts d after check approves the locked state and the
// number of disputes d's game has.
func insertDispute(ctx context.Context, tx pgx.Tx, st *referee.State, d *referee.Dispute, check func(*referee.State, int) error) error {
	k := d.Key
	var onGame int
	err := tx.QueryRow(ctx, `SELECT count(*) FROM disputes WHERE tournament_id = $1 AND round = $2 AND table_no = $3
		AND game = $4`, k.TournamentID, k.Round, k.Table, k.Game).Scan(&onGame)
	if err != nil {
		return err
	}
	if err := check(st, onGame); err != nil {
		return err
	}
	return tx.QueryRow(ctx, `INSERT INTO disputes (tournament_id, round, table_no, game, description, record, verdict,
		result_id, status, opened_role, opened_by, created_at, deal)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
		k.TournamentID, k.Round, k.Table, k.Game, d.Description, postgres.JSONOrNil(d.Record), postgres.JSONOrNil(d.Verdict), d.ResultID,
		d.Status, d.OpenedRole, d.OpenedBy, d.CreatedAt, d.Deal).Scan(&d.ID)
}

// Disputes lists the disputes f selects with their rulings.
func (s *Store) Disputes(ctx context.Context, tid string, f referee.DisputeFilter) ([]referee.Dispute, error) {
	var out []referee.Dispute
	err := s.db.Read(ctx, "dispute", func(tx pgx.Tx) error {
		var err error
		out, err = listDisputes(ctx, tx, tid, `SELECT `+DisputeColumns+` FROM disputes WHERE tournament_id = $1 AND id > $2
			AND ($3 = '' OR status = $3) ORDER BY id LIMIT $4`, tid, f.After, string(f.Status), f.Limit)
		return err
	})
	return out, err
}

// OpenDisputes counts the open disputes of each game of round n.
func (s *Store) OpenDisputes(ctx context.Context, tid string, n int) (map[tournament.GameKey]int, error) {
	out := map[tournament.GameKey]int{}
	err := s.db.Read(ctx, "dispute", func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT table_no, game, count(*) FROM disputes
			WHERE tournament_id = $1 AND round = $2 AND status = 'open' GROUP BY table_no, game`, tid, n)
		if err != nil {
			return err
		}
		k := tournament.GameKey{TournamentID: tid, Round: n}
		var count int
		_, err = pgx.ForEachRow(rows, []any{&k.Table, &k.Game, &count}, func() error {
			out[k] = count
			return nil
		})
		return err
	})
	return out, err
}

// Dispute returns one dispute with its ruling.
func (s *Store) Dispute(ctx context.Context, tid string, id int64) (*referee.Dispute, error) {
	var d *referee.Dispute
	err := s.db.Read(ctx, "dispute", func(tx pgx.Tx) error {
		var err error
		d, err = oneDispute(ctx, tx, tid, id)
		return err
	})
	return d, err
}

// SeeDispute marks dispute id seen by by at at, unless it was seen
// before, and returns it with its ruling.
func (s *Store) SeeDispute(ctx context.Context, tid string, id int64, by string, at time.Time) (*referee.Dispute, error) {
	var d *referee.Dispute
	err := s.db.Write(ctx, "dispute", func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE disputes SET seen_at = $3, seen_by = $4
			WHERE tournament_id = $1 AND id = $2 AND seen_at IS NULL`, tid, id, at, by)
		if err != nil {
			return err
		}
		d, err = oneDispute(ctx, tx, tid, id)
		return err
	})
	return d, err
}

// oneDispute reads dispute id with its ruling.
func oneDispute(ctx context.Context, tx pgx.Tx, tid string, id int64) (*referee.Dispute, error) {
	d, err := ScanDispute(tx.QueryRow(ctx, `SELECT `+DisputeColumns+` FROM disputes WHERE tournament_id = $1 AND id = $2`, tid, id))
	if err != nil {
		return nil, postgres.MapError(err, "dispute")
	}
	one := []referee.Dispute{*d}
	err = AttachRulings(ctx, tx, tid, one)
	return &one[0], err
}

// TableDisputes lists the disputes of table t of round n with their
// rulings, oldest first.
func (s *Store) TableDisputes(ctx context.Context, tid string, n, t int) ([]referee.Dispute, error) {
	var out []referee.Dispute
	err := s.db.Read(ctx, "dispute", func(tx pgx.Tx) error {
		var err error
		out, err = listDisputes(ctx, tx, tid, `SELECT `+DisputeColumns+` FROM disputes
			WHERE tournament_id = $1 AND round = $2 AND table_no = $3 ORDER BY id`, tid, n, t)
		return err
	})
	return out, err
}

// listDisputes runs query, which selects DisputeColumns of tournament
// tid's disputes, and attaches their rulings.
func listDisputes(ctx context.Context, tx pgx.Tx, tid, query string, args ...any) ([]referee.Dispute, error) {
	rows, err := tx.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (referee.Dispute, error) {
		d, err := ScanDispute(r)
		return *d, err
	})
	if err != nil {
		return nil, err
	}
	return out, AttachRulings(ctx, tx, tid, out)
}

// Rule writes the ruling decide makes on the locked state and dispute.
func (s *Store) Rule(ctx context.Context, tid string, id int64,
	decide func(*referee.State, *referee.Dispute) (*referee.RulingChange, error)) (*referee.RulingChange, error) {
	var ch *referee.RulingChange
	err := s.lockedReferee(ctx, tid, "ruling", func(tx pgx.Tx, st *referee.State) error {
		d, err := ScanDispute(tx.QueryRow(ctx, `SELECT `+DisputeColumns+` FROM disputes
			WHERE tournament_id = $1 AND id = $2 FOR UPDATE`, tid, id))
		if err != nil {
			return postgres.MapError(err, "dispute")
		}
		if ch, err = decide(st, d); err != nil {
			return err
		}
		return writeRuling(ctx, tx, tid, st, ch)
	})
	return ch, err
}

// writeRuling writes a ruling's change: the corrected result, the ruling
// and its adjustments, disqualifications, the advancement that follows,
// and the dispute's status.
func writeRuling(ctx context.Context, tx pgx.Tx, tid string, st *referee.State, ch *referee.RulingChange) error {
	ru := ch.Ruling
	if c := ch.Correction; c != nil {
		if err := postgres.InsertCorrection(ctx, tx, c); err != nil {
			return err
		}
		ru.CorrectionID = &c.ID
	}
	err := tx.QueryRow(ctx, `INSERT INTO rulings (tournament_id, dispute_id, decision, reason, correction_id, verdict,
		disqualified, ruled_role, ruled_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
		tid, ru.DisputeID, ru.Decision, ru.Reason, ru.CorrectionID, postgres.JSONOrNil(ru.Verdict), postgres.NonNil(ru.Disqualified),
		ru.RuledRole, ru.RuledBy, ru.CreatedAt).Scan(&ru.ID)
	if err != nil {
		return err
	}
	for i := range ru.Adjustments {
		a := &ru.Adjustments[i]
		a.RulingID = ru.ID
		err := tx.QueryRow(ctx, `INSERT INTO adjustments (tournament_id, ruling_id, round, table_no, game, player_id, points,
			scale, reason, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
			tid, ru.ID, a.Key.Round, a.Key.Table, a.Key.Game, a.Player, a.Points, a.Scale, a.Reason, a.CreatedAt).Scan(&a.ID)
		if err != nil {
			return err
		}
	}
	if err := postgres.SetPlayerStatus(ctx, tx, tid, ch.Disqualify, tournament.PlayerDisqualified); err != nil {
		return err
	}
	if err := writeAdvancement(ctx, tx, tid, st, ch); err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `UPDATE disputes SET status = 'ruled' WHERE tournament_id = $1 AND id = $2`, tid, ru.DisputeID)
	return err
}

// writeAdvancement writes the outcomes, statuses and champion a ruling
// changed.
func writeAdvancement(ctx context.Context, tx pgx.Tx, tid string, st *referee.State, ch *referee.RulingChange) error {
	old := map[string]tournament.Outcome{}
	for _, o := range st.Outcomes {
		old[o.Player+"/"+strconv.Itoa(o.Round)] = o
	}
	for _, o := range ch.Outcomes {
		if prev, ok := old[o.Player+"/"+strconv.Itoa(o.Round)]; ok && prev == o {
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
		if err := postgres.SetPlayerStatus(ctx, tx, tid, []string{p}, status); err != nil {
			return err
		}
	}
	if ch.Champion != nil {
		_, err := tx.Exec(ctx, `UPDATE tournaments SET champion = $2 WHERE id = $1`, tid, *ch.Champion)
		return err
	}
	return nil
}
