package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/revisor-sm/revisor/tournament"
)

// entryVersionSQL is the version of what a deal is checked with, in
// tableFrom's terms (t, r, tb; $2 the round, $3 the table): the row
// versions (xmin) of the tournament, the round and the table, the table's
// withdrawals and whether time was called. Any change to them (a round
// closed, a table reseated, the rules or a clock changed) gives another
// version: AppendWarmDeal stores a deal only under the version its check
// was made with.
const entryVersionSQL = `concat_ws('.', t.xmin, r.xmin, tb.xmin,
			(SELECT count(*) FROM game_withdrawals w WHERE w.tournament_id = t.id AND w.round = $2 AND w.table_no = $3),
			EXISTS (SELECT 1 FROM round_clocks c WHERE c.tournament_id = t.id AND c.round = $2 AND c.state = 'time_called'))`

// dealEntrySQL reads what entering the next deal of game ($1, $2, $3, $4)
// needs in one statement (one snapshot): the tournament, round and table
// (tableSelect), the number of deals, the running state kept with the last
// of them (migration 000150), whether the game has a result and whether a
// deal of it was corrected, and the entry's version (entryVersionSQL).
const dealEntrySQL = tableSelect + `,
			(SELECT count(*) FROM game_deals d
				WHERE d.tournament_id = $1 AND d.round = $2 AND d.table_no = $3 AND d.game = $4),
			(SELECT d.state FROM game_deals d
				WHERE d.tournament_id = $1 AND d.round = $2 AND d.table_no = $3 AND d.game = $4 ORDER BY d.seq DESC LIMIT 1),
			EXISTS (SELECT 1 FROM game_results g
				WHERE g.tournament_id = $1 AND g.round = $2 AND g.table_no = $3 AND g.game = $4),
			EXISTS (SELECT 1 FROM deal_corrections c
				WHERE c.tournament_id = $1 AND c.round = $2 AND c.table_no = $3 AND c.game = $4),
			` + entryVersionSQL + tableFrom + `
		WHERE t.id = $1`

// DealEntry implements tournament.Store. When the context carries an
// Idempotency-Key still to be claimed (tournament.KeyClaim), the claim and
// the read go together, as one batch: one round trip (readClaiming).
func (s *Store) DealEntry(ctx context.Context, k tournament.GameKey) (*tournament.DealEntry, error) {
	var (
		e     tournament.DealEntry
		state []byte
		err   error
	)
	scan := func(row pgx.Row) error {
		var version *string
		e.Tournament, e.Round, err = scanTable(row, k.Round, k.Table, &e.Deals, &state, &e.HasResult, &e.Corrected, &version)
		if version != nil {
			e.Version = *version
		}
		return nil // err: the read's own error, after the claim's
	}
	if cerr := s.readClaiming(ctx, dealEntrySQL, []any{k.TournamentID, k.Round, k.Table, k.Game}, scan); cerr != nil {
		return nil, cerr
	}
	if err != nil {
		return nil, err
	}
	if state != nil {
		e.State = state
	}
	return &e, nil
}

// readClaiming runs sql, a read of one row that scan scans (scan answers
// nil: the read's own error is scan's to keep), in one round trip with the
// claim of the Idempotency-Key the context carries when it is still to be
// made (tournament.KeyClaim): one batch, one implicit transaction. It
// answers the claim's error (the key answered before, reused with another
// body or in use) or the batch's; the read's, when the claim stands, is
// scan's.
func (s *Store) readClaiming(ctx context.Context, sql string, args []any, scan func(pgx.Row) error) error {
	c := tournament.KeyClaimFrom(ctx)
	if c == nil {
		return scan(s.pool.QueryRow(ctx, sql, args...))
	}
	var (
		stored   []byte
		retry    bool
		claimErr error
	)
	b := &pgx.Batch{}
	// The batch's commit (the claim's) need not wait for the disk: a claim
	// lost in a crash of the database only lets the retry claim again, and
	// the write's own commit, synchronous, flushes the claim's record
	// before it.
	b.Queue(asyncCommitSQL)
	b.Queue(claimKeySQL, claimKeyArgs(c)...).QueryRow(func(row pgx.Row) error {
		stored, retry, claimErr = claimOutcome(row, c)
		return nil
	})
	b.Queue(sql, args...).QueryRow(scan)
	if err := s.pool.SendBatch(ctx, b).Close(); err != nil {
		return MapError(err, "idempotency key")
	}
	if retry {
		stored, claimErr = claimKey(ctx, s.pool, c)
	}
	return c.Made(claimErr == nil && stored == nil, stored, claimErr)
}

// appendNextDealParams is the number of appendNextDealSQL's own
// parameters; the audit actor's three follow them, and then, when the
// answer is stored with the deal, the key's scope, the key and the answer.
const appendNextDealParams = 8

// appendNextDeal is the statement that stores a deal that does not end its
// game, with its running state: it sets the audit actor (the audit trigger
// writes its entry in the same transaction), holds a shared lock on the
// round's row while it inserts (closing a round takes an exclusive one),
// and inserts only while the round is open and the game has no result. It
// answers the round's status, whether the deal was inserted and whether
// the game has a result. With answer, it also stores the request's answer
// under its Idempotency-Key when (and only when) it inserts the deal: the
// deal and its answer commit together.
func appendNextDeal(answer bool) string {
	store, stored := "", "true"
	if answer {
		key := appendNextDealParams + 4
		store = fmt.Sprintf(`, ans AS (
			UPDATE idempotency_keys SET response = $%d
			WHERE scope = $%d AND key = $%d AND EXISTS (SELECT 1 FROM ins)
			RETURNING 1
		)`, key+2, key, key+1)
		stored = "EXISTS (SELECT 1 FROM ans)"
	}
	return `WITH act AS (` + auditActorSelect(appendNextDealParams+1) + `
		), rd AS (
			SELECT status FROM rounds, act WHERE tournament_id = $1 AND number = $2 FOR SHARE OF rounds
		), res AS (
			SELECT EXISTS (SELECT 1 FROM game_results g
				WHERE g.tournament_id = $1 AND g.round = $2 AND g.table_no = $3 AND g.game = $4) AS over
		), ins AS (
			INSERT INTO game_deals (tournament_id, round, table_no, game, seq, deal, created_at, state)
			SELECT $1, $2, $3, $4, $5, $6, $7, $8 FROM rd, res WHERE rd.status = 'open' AND NOT res.over
			ON CONFLICT DO NOTHING
			RETURNING 1
		)` + store + `
		SELECT (SELECT status FROM rd), (SELECT over FROM res), EXISTS (SELECT 1 FROM ins), ` + stored
}

var (
	appendNextDealSQL         = appendNextDeal(false)
	appendNextDealAnsweredSQL = appendNextDeal(true)
)

// AppendNextDeal implements tournament.Store. When the request owns an
// Idempotency-Key and its answer was prepared (tournament.KeyClaim), the
// answer is stored by the same statement.
func (s *Store) AppendNextDeal(ctx context.Context, k tournament.GameKey, seq int, deal, state json.RawMessage, now time.Time,
	closed func(*tournament.Round) error) error {
	var (
		status                   *string
		over, inserted, answered bool
	)
	sql, args := appendNextDealSQL, withAuditActor(ctx, k.TournamentID, k.Round, k.Table, k.Game, seq, string(deal), now, string(state))
	c := tournament.OwnedKeyClaim(ctx)
	if c != nil && c.Answer != nil {
		sql, args = appendNextDealAnsweredSQL, append(args, c.Scope, c.Key, c.Answer)
	}
	err := s.pool.QueryRow(ctx, sql, args...).Scan(&status, &over, &inserted, &answered)
	switch {
	case err != nil:
		return MapError(err, "deal")
	case inserted:
		if answered && c != nil && c.Answer != nil {
			c.SetAnswered()
		}
		return nil
	case status == nil:
		return tournament.RoundNotFound(k.Round)
	case tournament.RoundStatus(*status) != tournament.RoundOpen:
		if err := closed(&tournament.Round{TournamentID: k.TournamentID, Number: k.Round, Status: tournament.RoundStatus(*status)}); err != nil {
			return err
		}
		return tournament.Errorf(tournament.KindConflict, tournament.CodeRoundClosed, "round %d is %s", k.Round, *status)
	case over:
		return gameOverError()
	}
	return dealConflictError(seq)
}

// appendWarmDealParams is the number of appendWarmDeal's own parameters;
// the audit actor's three follow them, and then, when the request's
// Idempotency-Key is claimed with the deal, the key's scope, the key, its
// fingerprint and the answer.
const appendWarmDealParams = 9

// appendWarmDeal is the statement that stores the next deal of a game that
// goes on when the server checked it against what it read for the game's
// previous deal (tournament.Service's warm games) instead of reading it
// again: one round trip, one commit. It inserts only while what the check
// was made with still stands: the same entry version (entryVersionSQL),
// the round open (and its row held with a shared lock, as
// appendNextDeal does, until the commit), no result and no corrected deal
// in the game, and the game's deal before this one stored ($5 - 1; the
// primary key refuses a second deal $5). With key, the request's
// Idempotency-Key is inserted with its answer in the same statement, and
// only with the deal. A key or deal number already taken is a unique
// violation, which undoes the whole statement: either both are written or
// nothing is.
func appendWarmDeal(key bool) string {
	claim := ""
	if key {
		k := appendWarmDealParams + 4
		claim = fmt.Sprintf(`, claim AS (
			INSERT INTO idempotency_keys (scope, key, fingerprint, response)
			SELECT $%d, $%d, $%d, $%d FROM ins
			RETURNING 1
		)`, k, k+1, k+2, k+3)
	}
	return `WITH act AS (` + auditActorSelect(appendWarmDealParams+1) + `
		), g AS (
			SELECT 1 FROM tournaments t
			JOIN rounds r ON r.tournament_id = t.id AND r.number = $2
			JOIN round_tables tb ON tb.tournament_id = t.id AND tb.round = $2 AND tb.number = $3
			CROSS JOIN act
			WHERE t.id = $1 AND r.status = 'open' AND ` + entryVersionSQL + ` = $9
				AND NOT EXISTS (SELECT 1 FROM game_results g
					WHERE g.tournament_id = $1 AND g.round = $2 AND g.table_no = $3 AND g.game = $4)
				AND NOT EXISTS (SELECT 1 FROM deal_corrections c
					WHERE c.tournament_id = $1 AND c.round = $2 AND c.table_no = $3 AND c.game = $4)
				AND ($5::int = 0 OR EXISTS (SELECT 1 FROM game_deals d
					WHERE d.tournament_id = $1 AND d.round = $2 AND d.table_no = $3 AND d.game = $4 AND d.seq = $5::int - 1))
			FOR SHARE OF r
		), ins AS (
			INSERT INTO game_deals (tournament_id, round, table_no, game, seq, deal, created_at, state)
			SELECT $1, $2, $3, $4, $5, $6, $7, $8 FROM g
			RETURNING 1
		)` + claim + `
		SELECT EXISTS (SELECT 1 FROM ins)`
}

var (
	appendWarmDealSQL      = appendWarmDeal(false)
	appendWarmDealClaimSQL = appendWarmDeal(true)
)

// AppendWarmDeal implements tournament.Store: the next deal of a game in
// one statement, under the entry version its check was made with. When
// the context carries an Idempotency-Key still to be claimed
// (tournament.KeyClaim) with its answer prepared, the key is claimed and
// answered by the same statement. It answers false, having written
// nothing, when anything changed since the version was read, the deal's
// number or the key was taken, or a key is to be claimed without an
// answer.
func (s *Store) AppendWarmDeal(ctx context.Context, k tournament.GameKey, seq int, version string, deal, state json.RawMessage, now time.Time) (bool, error) {
	sql := appendWarmDealSQL
	args := withAuditActor(ctx, k.TournamentID, k.Round, k.Table, k.Game, seq, string(deal), now, string(state), version)
	c := tournament.KeyClaimFrom(ctx)
	if c != nil {
		if c.Answer == nil {
			return false, nil
		}
		sql, args = appendWarmDealClaimSQL, append(args, c.Scope, c.Key, c.Fingerprint, c.Answer)
	}
	var inserted bool
	if err := s.pool.QueryRow(ctx, sql, args...).Scan(&inserted); err != nil {
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == codeUniqueViolation {
			return false, nil
		}
		return false, MapError(err, "deal")
	}
	if inserted && c != nil {
		if err := c.Made(true, nil, nil); err != nil {
			return false, err
		}
		c.SetAnswered()
	}
	return inserted, nil
}
