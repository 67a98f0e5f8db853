package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/revisor-sm/revisor/tournament"
)

// currentDeals reads the deals of the games of round n that where selects
// (k's table and game, or all of the round), each in its latest version:
// the game_deals row or its latest correction (migration 000030).
const currentDeals = `SELECT d.table_no, d.game, d.seq, coalesce(c.deal, d.deal), 1 + coalesce(c.n, 0),
		coalesce(c.created_at, d.created_at)
	FROM game_deals d
	LEFT JOIN LATERAL (
		SELECT c.deal, c.created_at, count(*) OVER () AS n FROM deal_corrections c
		WHERE c.tournament_id = d.tournament_id AND c.round = d.round AND c.table_no = d.table_no
			AND c.game = d.game AND c.seq = d.seq
		ORDER BY c.id DESC LIMIT 1) c ON true
	WHERE d.tournament_id = $1 AND d.round = $2 AND ($3 = 0 OR (d.table_no = $3 AND d.game = $4))
	ORDER BY d.table_no, d.game, d.seq`

// tableGames reads the games of round n (only k's when k.Table is not 0)
// with their deals, effective results and those results' confirmations.
func tableGames(ctx context.Context, tx Querier, k tournament.GameKey) ([]tournament.TableGame, error) {
	var (
		out   []tournament.TableGame
		index = map[[2]int]int{}
	)
	// game returns the index of a game in out, adding it when new (an
	// index: appending moves out, so pointers into it do not last).
	game := func(t, g int) int {
		i, ok := index[[2]int{t, g}]
		if !ok {
			i = len(out)
			index[[2]int{t, g}] = i
			out = append(out, tournament.TableGame{Key: tournament.GameKey{TournamentID: k.TournamentID, Round: k.Round, Table: t, Game: g}})
		}
		return i
	}
	rows, err := tx.Query(ctx, currentDeals, k.TournamentID, k.Round, k.Table, k.Game)
	if err != nil {
		return nil, err
	}
	var (
		t, g, seq int
		d         tournament.StoredDeal
		raw       []byte
	)
	_, err = pgx.ForEachRow(rows, []any{&t, &g, &seq, &raw, &d.Version, &d.At}, func() error {
		d.Deal, d.At = json.RawMessage(append([]byte(nil), raw...)), d.At.UTC()
		pg := &out[game(t, g)]
		pg.Deals = append(pg.Deals, d)
		return nil
	})
	if err != nil {
		return nil, err
	}
	rows, err = tx.Query(ctx, `SELECT DISTINCT ON (round, table_no, game) `+resultColumns+` FROM game_results
		WHERE tournament_id = $1 AND round = $2 AND ($3 = 0 OR (table_no = $3 AND game = $4))
		ORDER BY round, table_no, game, id DESC`, k.TournamentID, k.Round, k.Table, k.Game)
	if err != nil {
		return nil, err
	}
	results, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (*tournament.GameResult, error) { return scanResult(r) })
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(results))
	byID := map[int64]int{}
	for i, r := range results {
		j := game(r.Key.Table, r.Key.Game)
		out[j].Result, ids[i] = r, r.ID
		byID[r.ID] = j
	}
	rows, err = tx.Query(ctx, `SELECT result_id, player_id, confirmed_by, created_at FROM game_confirmations
		WHERE result_id = ANY($1) ORDER BY created_at, player_id`, ids)
	if err != nil {
		return nil, err
	}
	var c tournament.Confirmation
	_, err = pgx.ForEachRow(rows, []any{&c.ResultID, &c.Player, &c.ConfirmedBy, &c.At}, func() error {
		c.At = c.At.UTC()
		pg := &out[byID[c.ResultID]]
		pg.Confirmations = append(pg.Confirmations, c)
		return nil
	})
	return out, err
}

// TableGame returns a game as it stands (an empty game when nothing was
// entered yet).
func (s *Store) TableGame(ctx context.Context, k tournament.GameKey) (*tournament.TableGame, error) {
	var out *tournament.TableGame
	err := s.Read(ctx, "game", func(tx pgx.Tx) error {
		var err error
		out, err = oneTableGame(ctx, tx, k)
		return err
	})
	return out, err
}

func oneTableGame(ctx context.Context, tx pgx.Tx, k tournament.GameKey) (*tournament.TableGame, error) {
	gs, err := tableGames(ctx, tx, k)
	if err != nil || len(gs) == 0 {
		return &tournament.TableGame{Key: k}, err
	}
	return &gs[0], nil
}

// TableGames returns every game of round n that has deals or a result.
func (s *Store) TableGames(ctx context.Context, tid string, n int) ([]tournament.TableGame, error) {
	var out []tournament.TableGame
	err := s.Read(ctx, "game", func(tx pgx.Tx) error {
		var err error
		out, err = tableGames(ctx, tx, tournament.GameKey{TournamentID: tid, Round: n})
		return err
	})
	return out, err
}

// lockGameSQL takes the lock that serializes the corrections and
// confirmations of game ($1, $2, $3, $4) for the rest of the transaction.
const lockGameSQL = `SELECT pg_advisory_xact_lock(hashtextextended('game/' || $1 || '/' || $2 || '/' || $3 || '/' || $4, 0))`

// lockGame serializes the corrections and confirmations of one game for
// the rest of the transaction.
func lockGame(ctx context.Context, tx pgx.Tx, k tournament.GameKey) error {
	_, err := tx.Exec(ctx, lockGameSQL, k.TournamentID, itoa(k.Round), itoa(k.Table), itoa(k.Game))
	return err
}

// CorrectDeal stores a new version of a deal, and the result it gives the
// game, as decide approves.
func (s *Store) CorrectDeal(ctx context.Context, k tournament.GameKey, seq int, deal json.RawMessage, reason string, now time.Time,
	decide func(*tournament.Round, *tournament.TableGame) (*tournament.DealCorrection, error)) error {
	_, err := s.correctDeal(ctx, k, seq, deal, reason, now, decide, nil)
	return err
}

// answerSQL stores the answer ($3) under a client's key ($1, $2) claimed
// before.
const answerSQL = `UPDATE idempotency_keys SET response = $3 WHERE scope = $1 AND key = $2`

// correctionAnswer stores the answer to a correction under a client's key
// claimed before (Idempotency.CorrectDealAnswered): answer makes it from
// the correction's outcome, once the store has written it.
type correctionAnswer struct {
	scope, key string
	answer     func(*tournament.CorrectedDeal) ([]byte, error)
}

// correctDeal is CorrectDeal, storing the answer in the correction's
// transaction when ans is not nil (answered says it was): a correction
// that does not end the game sends it in one batch with the correction's
// insert, one that does (its answer holds the result's ID) after the
// result's, a repeat (nothing written) alone.
func (s *Store) correctDeal(ctx context.Context, k tournament.GameKey, seq int, deal json.RawMessage, reason string, now time.Time,
	decide func(*tournament.Round, *tournament.TableGame) (*tournament.DealCorrection, error), ans *correctionAnswer) (answered bool, err error) {
	err = s.Write(ctx, "deal", func(tx pgx.Tx) error {
		answered = false
		rd, err := lockRound(ctx, tx, k.TournamentID, k.Round)
		if err != nil {
			return err
		}
		if err := lockGame(ctx, tx, k); err != nil {
			return err
		}
		g, err := oneTableGame(ctx, tx, k)
		if err != nil {
			return err
		}
		c, err := decide(rd, g)
		if err != nil {
			return err
		}
		// answer stores the answer to the outcome: queued in b, or at once
		// when b is nil.
		answer := func(b *pgx.Batch) error {
			if ans == nil || c.Outcome == nil {
				return nil
			}
			a, err := ans.answer(c.Outcome)
			if err != nil || a == nil {
				return err
			}
			answered = true
			if b != nil {
				b.Queue(answerSQL, ans.scope, ans.key, a)
				return nil
			}
			_, err = tx.Exec(ctx, answerSQL, ans.scope, ans.key, a)
			return err
		}
		if c.Repeat {
			return answer(nil)
		}
		b := &pgx.Batch{}
		b.Queue(`INSERT INTO deal_corrections (tournament_id, round, table_no, game, seq, deal, reason,
			corrected_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			k.TournamentID, k.Round, k.Table, k.Game, seq, string(deal), reason, tournament.AuditActorFrom(ctx).Token, now)
		if c.Final == nil {
			if err := answer(b); err != nil {
				return err
			}
		}
		if err := tx.SendBatch(ctx, b).Close(); err != nil || c.Final == nil {
			return err
		}
		if c.Final.Kind != tournament.ResultSubmission {
			err = InsertCorrection(ctx, tx, c.Final)
		} else {
			var created bool
			created, err = insertResult(ctx, tx, c.Final)
			if err == nil && !created {
				err = gameOverError()
			}
		}
		if err != nil {
			return err
		}
		return answer(nil)
	})
	return answered && err == nil, err
}

// confirmReadSQL reads what a confirmation needs of game ($1, $2, $3, $4):
// its effective result without the record and the engine's result (no
// row while the game has none), and that result's confirmations, oldest
// first, as arrays.
const confirmReadSQL = `SELECT r.id, r.kind, r.supersedes, r.record_hash, r.places, r.submitted_by, r.created_at,
		ARRAY(SELECT c.player_id FROM game_confirmations c WHERE c.result_id = r.id ORDER BY c.created_at, c.player_id),
		ARRAY(SELECT c.confirmed_by FROM game_confirmations c WHERE c.result_id = r.id ORDER BY c.created_at, c.player_id),
		ARRAY(SELECT c.created_at FROM game_confirmations c WHERE c.result_id = r.id ORDER BY c.created_at, c.player_id)
	FROM game_results r
	WHERE r.tournament_id = $1 AND r.round = $2 AND r.table_no = $3 AND r.game = $4
	ORDER BY r.id DESC LIMIT 1`

// scanConfirmRead reads confirmReadSQL's row into g.
func scanConfirmRead(row pgx.Row, g *tournament.TableGame) error {
	var (
		r      = tournament.GameResult{Key: g.Key}
		places []byte
		who    []string
		by     []string
		at     []time.Time
	)
	err := row.Scan(&r.ID, &r.Kind, &r.Supersedes, &r.RecordHash, &places, &r.SubmittedBy, &r.CreatedAt, &who, &by, &at)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	r.CreatedAt = r.CreatedAt.UTC()
	if r.Places, err = DecodePlaces(places); err != nil {
		return err
	}
	g.Result = &r
	for i := range who {
		g.Confirmations = append(g.Confirmations, tournament.Confirmation{ResultID: r.ID, Player: who[i], ConfirmedBy: by[i], At: at[i].UTC()})
	}
	return nil
}

// confirmSQL inserts a confirmation (nothing when the player confirmed
// the result before) and answers whether it did. With answer, it also
// stores the request's answer under its Idempotency-Key ($9, $10: scope,
// key; $11 the answer) when the insert went as the read foretold ($12:
// whether it inserts), so that the answer commits with the confirmation.
func confirmSQL(answer bool) string {
	const ins = `INSERT INTO game_confirmations (tournament_id, round, table_no, game, result_id,
			player_id, confirmed_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING 1`
	if !answer {
		return `WITH ins AS (` + ins + `) SELECT EXISTS (SELECT 1 FROM ins), false`
	}
	return `WITH ins AS (` + ins + `), ans AS (
			UPDATE idempotency_keys SET response = $11
			WHERE scope = $9 AND key = $10 AND EXISTS (SELECT 1 FROM ins) = $12
			RETURNING 1
		)
		SELECT EXISTS (SELECT 1 FROM ins), EXISTS (SELECT 1 FROM ans)`
}

var (
	confirmInsertSQL   = confirmSQL(false)
	confirmAnsweredSQL = confirmSQL(true)
)

// ConfirmGame stores a player's confirmation of the game's effective
// result after decide approves the game, in one transaction on one
// connection and two round trips: the transaction's start, its audit
// actor, the game's lock and the read of the result and its confirmations
// go as one batch; decide runs; the confirmation and the commit go as
// another. The game's deals are not read (a confirmation does not need
// them), nor the result's record. Idempotency.ConfirmGameAnswered stores
// a client's answer in the confirmation's statement: under the game's
// lock the read tells whether the player's confirmation is new, so the
// answer (made from what decide foretells) is known before the insert.
func (s *Store) ConfirmGame(ctx context.Context, k tournament.GameKey, c tournament.Confirmation,
	decide func(*tournament.TableGame) (*tournament.Confirmed, error)) (*tournament.TableGame, bool, error) {
	if ambientOf(ctx) != nil {
		// Its batches begin and commit a transaction of their own: a
		// command run in one transaction with its key (Atomically) must
		// not confirm (the table's confirmations run in their unit of
		// work, app.Unit).
		return nil, false, &tournament.Error{Kind: tournament.KindInternal, Code: tournament.CodeInternal,
			Err: errors.New("a confirmation cannot join a command's transaction")}
	}
	g, created, _, err := confirmGame(ctx, s.pool, k, c, decide, nil)
	return g, created, err
}

// confirmAnswer stores the answer to a confirmation under a client's key
// claimed before (Idempotency.ConfirmGameAnswered): answer makes it from
// the confirmation's outcome as decide foretold it.
type confirmAnswer struct {
	scope, key string
	answer     func(*tournament.Confirmed) ([]byte, error)
}

// confirmGame is ConfirmGame on pool, storing the answer with the
// confirmation when ans is not nil (answered says it was).
func confirmGame(ctx context.Context, pool *pgxpool.Pool, k tournament.GameKey, c tournament.Confirmation,
	decide func(*tournament.TableGame) (*tournament.Confirmed, error), ans *confirmAnswer) (*tournament.TableGame, bool, bool, error) {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, false, false, MapError(err, "confirmation")
	}
	defer conn.Release() // a connection left in a transaction is closed, not reused
	var (
		g                 = &tournament.TableGame{Key: k}
		created, answered bool
		outcome           *tournament.Confirmed
		key               = []any{k.TournamentID, itoa(k.Round), itoa(k.Table), itoa(k.Game)}
	)
	b := &pgx.Batch{}
	b.Queue(`BEGIN ISOLATION LEVEL READ COMMITTED`)
	b.Queue(setActorSQL, withAuditActor(ctx)...)
	b.Queue(lockGameSQL, key...)
	b.Queue(confirmReadSQL, k.TournamentID, k.Round, k.Table, k.Game).QueryRow(func(row pgx.Row) error { return scanConfirmRead(row, g) })
	err = conn.SendBatch(ctx, b).Close()
	if err == nil {
		outcome, err = decide(g)
	}
	if err == nil && g.Result == nil {
		err = fmt.Errorf("ConfirmGame's decide approved a game without a result")
	}
	if err == nil {
		sql, args := confirmInsertSQL, []any{k.TournamentID, k.Round, k.Table, k.Game, g.Result.ID, c.Player, c.ConfirmedBy, c.At}
		if ans != nil {
			var a []byte
			if a, err = ans.answer(outcome); err == nil && a != nil {
				sql, args = confirmAnsweredSQL, append(args, ans.scope, ans.key, a, !g.HasConfirmed(c.Player))
			}
		}
		if err == nil {
			b = &pgx.Batch{}
			b.Queue(sql, args...).QueryRow(func(row pgx.Row) error { return row.Scan(&created, &answered) })
			b.Queue(`COMMIT`)
			err = conn.SendBatch(ctx, b).Close()
		}
	}
	if err != nil {
		if conn.Conn().PgConn().TxStatus() != 'I' {
			_, _ = conn.Exec(ctx, `ROLLBACK`)
		}
		return nil, false, false, MapError(err, "confirmation")
	}
	if created {
		c.ResultID, c.At = g.Result.ID, c.At.UTC()
		g.Confirmations = append(g.Confirmations, c)
	}
	return g, created, answered, nil
}

// RoundClock returns the clock of round n.
func (s *Store) RoundClock(ctx context.Context, tid string, n int) (*tournament.Clock, error) {
	var c *tournament.Clock
	err := s.Read(ctx, "clock", func(tx pgx.Tx) error {
		var err error
		c, err = readClock(ctx, tx, tid, n, "")
		return err
	})
	return c, err
}

// readClock reads the clock of round n (idle when it has no row); lock is
// "" or a locking clause for the round's row.
func readClock(ctx context.Context, tx pgx.Tx, tid string, n int, lock string) (*tournament.Clock, error) {
	c := &tournament.Clock{Round: n}
	var (
		state, action, by *string
		minutes           *int
		remaining         *int64
		updated           *time.Time
	)
	var (
		prior          = &tournament.Clock{Round: n}
		priorState     *string
		priorRemaining *int64
	)
	err := tx.QueryRow(ctx, `SELECT c.state, c.ends_at, c.remaining_ms, c.called_at, c.action, c.minutes, c.updated_by, c.updated_at,
			c.prior_state, c.prior_ends_at, c.prior_remaining_ms
		FROM rounds r LEFT JOIN round_clocks c ON c.tournament_id = r.tournament_id AND c.round = r.number
		WHERE r.tournament_id = $1 AND r.number = $2 `+lock, tid, n).
		Scan(&state, &c.EndsAt, &remaining, &c.CalledAt, &action, &minutes, &by, &updated, &priorState, &prior.EndsAt, &priorRemaining)
	if errors.Is(err, pgx.ErrNoRows) {
		if _, err := tournamentExists(ctx, tx, tid); err != nil {
			return nil, err
		}
		return nil, tournament.Errorf(tournament.KindNotFound, tournament.CodeRoundNotFound, "round %d not found", n)
	}
	if err != nil {
		return nil, err
	}
	if state == nil {
		c.State = tournament.ClockIdle
		return c, nil
	}
	c.State, c.Action, c.Minutes, c.UpdatedBy, c.UpdatedAt = tournament.ClockState(*state), *action, *minutes, *by, updated.UTC()
	if remaining != nil {
		c.Remaining = time.Duration(*remaining) * time.Millisecond
	}
	c.EndsAt, c.CalledAt = utcOrNil(c.EndsAt), utcOrNil(c.CalledAt)
	if priorState != nil {
		prior.State, prior.EndsAt = tournament.ClockState(*priorState), utcOrNil(prior.EndsAt)
		if priorRemaining != nil {
			prior.Remaining = time.Duration(*priorRemaining) * time.Millisecond
		}
		c.Prior = prior
	}
	return c, nil
}

// pausedMillis is a paused clock's time left in milliseconds, as
// round_clocks keeps it; nil for a clock that is not paused (or none).
func pausedMillis(c *tournament.Clock) *int64 {
	if c == nil || c.State != tournament.ClockPaused {
		return nil
	}
	ms := c.Remaining.Milliseconds()
	return &ms
}

// tournamentExists tells a missing tournament (404 tournament_not_found)
// from a missing round.
func tournamentExists(ctx context.Context, tx pgx.Tx, tid string) (bool, error) {
	var ok bool
	err := tx.QueryRow(ctx, `SELECT true FROM tournaments WHERE id = $1`, tid).Scan(&ok)
	return ok, MapError(err, "tournament")
}

func utcOrNil(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// SetRoundClock stores the clock decide makes from round n and its clock.
func (s *Store) SetRoundClock(ctx context.Context, tid string, n int,
	decide func(*tournament.Round, *tournament.Clock) (*tournament.Clock, error)) (*tournament.Clock, error) {
	var out *tournament.Clock
	err := s.Write(ctx, "clock", func(tx pgx.Tx) error {
		rd, err := lockRound(ctx, tx, tid, n)
		if err != nil {
			if _, err2 := tournamentExists(ctx, tx, tid); err2 != nil {
				return err2
			}
			return err
		}
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('clock/' || $1 || '/' || $2, 0))`, tid, itoa(n)); err != nil {
			return err
		}
		c, err := readClock(ctx, tx, tid, n, "")
		if err != nil {
			return err
		}
		if c.CalledAt != nil {
			if err := tx.QueryRow(ctx, `SELECT count(*) FROM game_results WHERE tournament_id = $1 AND round = $2 AND created_at >= $3`,
				tid, n, *c.CalledAt).Scan(&rd.ResultsSinceCall); err != nil {
				return err
			}
		}
		if out, err = decide(rd, c); err != nil {
			return err
		}
		var priorState *string
		var priorEnds *time.Time
		if out.Prior != nil {
			ps := string(out.Prior.State)
			priorState, priorEnds = &ps, out.Prior.EndsAt
		}
		_, err = tx.Exec(ctx, `INSERT INTO round_clocks (tournament_id, round, state, ends_at, remaining_ms, called_at,
			action, minutes, updated_by, updated_at, prior_state, prior_ends_at, prior_remaining_ms)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
			ON CONFLICT (tournament_id, round) DO UPDATE SET state = EXCLUDED.state, ends_at = EXCLUDED.ends_at,
				remaining_ms = EXCLUDED.remaining_ms, called_at = EXCLUDED.called_at, action = EXCLUDED.action,
				minutes = EXCLUDED.minutes, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at,
				prior_state = EXCLUDED.prior_state, prior_ends_at = EXCLUDED.prior_ends_at,
				prior_remaining_ms = EXCLUDED.prior_remaining_ms`,
			tid, n, string(out.State), out.EndsAt, pausedMillis(out), out.CalledAt, out.Action, out.Minutes, out.UpdatedBy, out.UpdatedAt,
			priorState, priorEnds, pausedMillis(out.Prior))
		return err
	})
	return out, err
}
