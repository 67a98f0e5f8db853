package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/revisor-sm/revisor/tournament"
)

// entryVersionSQL is the version of what a deal is checked with, in
// tableFrom's terms (t, r, tb; $2 the round, $3 the table): the row
// versions (xmin) of the tournament, the round and the table, the table's
// withdrawals and whether time was called. Any change to them (a round
// closed, a table reseated, the rules or a clock changed) gives another
// version: AppendDeal stores a deal only under the version its check
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

// DealEntry implements tournament.Store.
func (s *Store) DealEntry(ctx context.Context, k tournament.GameKey) (*tournament.DealEntry, error) {
	var e dealEntryRead
	if err := e.scan(s.pool.QueryRow(ctx, dealEntrySQL, dealEntryArgs(k)...), k); err != nil {
		return nil, err
	}
	return e.entry()
}

func dealEntryArgs(k tournament.GameKey) []any {
	return []any{k.TournamentID, k.Round, k.Table, k.Game}
}

// dealEntryRead is a row of dealEntrySQL as it is scanned: its error is
// the read's own (scan answers nil, for a batch in which the row comes
// after a key's claim).
type dealEntryRead struct {
	e     tournament.DealEntry
	state []byte
	err   error
}

func (r *dealEntryRead) scan(row pgx.Row, k tournament.GameKey) error {
	var version *string
	r.e.Tournament, r.e.Round, r.err = scanTable(row, k.Round, k.Table, &r.e.Deals, &r.state, &r.e.HasResult, &r.e.Corrected, &version)
	if version != nil {
		r.e.Version = *version
	}
	return nil
}

func (r *dealEntryRead) entry() (*tournament.DealEntry, error) {
	if r.err != nil {
		return nil, r.err
	}
	if r.state != nil {
		r.e.State = r.state
	}
	return &r.e, nil
}

// appendDealParams is the number of appendDeal's own parameters; the
// audit actor's three follow them, and then the key's (keyedAppend).
const appendDealParams = 10

// keyedAppend is what the one write of a deal does with a client's key
// besides the deal: nothing, claim it (insert it with its answer: the
// key was not claimed before), or answer it (store the answer under the
// key claimed with the entry's read).
type keyedAppend int

const (
	appendOnly keyedAppend = iota
	appendClaiming
	appendAnswering
)

// appendDeal is the one statement that stores a deal (tournament.Store's
// AppendDeal): one round trip, the audit actor set in it (the audit
// trigger writes its entry in the same transaction). It inserts only while
// what the deal was decided with still stands: the same entry version
// (entryVersionSQL, $9), the round open (and its row held with a shared
// lock until the commit: closing a round takes an exclusive one), no
// result, a corrected deal exactly when $10, and the game's deal before
// this one stored ($5 - 1; the primary key refuses a second deal $5).
// Claiming, the key is inserted with its answer in the same statement, and
// only with the deal: a key or deal number already taken is a unique
// violation, which undoes the whole statement. Answering, the answer is
// stored under the key only when the deal is inserted.
func appendDeal(key keyedAppend) string {
	k := appendDealParams + 4
	extra, answered := "", "false"
	switch key {
	case appendClaiming:
		extra = fmt.Sprintf(`, claim AS (
			INSERT INTO idempotency_keys (scope, key, fingerprint, response)
			SELECT $%d, $%d, $%d, $%d FROM ins
			RETURNING 1
		)`, k, k+1, k+2, k+3)
		answered = "EXISTS (SELECT 1 FROM claim)"
	case appendAnswering:
		extra = fmt.Sprintf(`, ans AS (
			UPDATE idempotency_keys SET response = $%d
			WHERE scope = $%d AND key = $%d AND EXISTS (SELECT 1 FROM ins)
			RETURNING 1
		)`, k+2, k, k+1)
		answered = "EXISTS (SELECT 1 FROM ans)"
	}
	return `WITH act AS (` + auditActorSelect(appendDealParams+1) + `
		), g AS (
			SELECT 1 FROM tournaments t
			JOIN rounds r ON r.tournament_id = t.id AND r.number = $2
			JOIN round_tables tb ON tb.tournament_id = t.id AND tb.round = $2 AND tb.number = $3
			CROSS JOIN act
			WHERE t.id = $1 AND r.status = 'open' AND ` + entryVersionSQL + ` = $9
				AND NOT EXISTS (SELECT 1 FROM game_results g
					WHERE g.tournament_id = $1 AND g.round = $2 AND g.table_no = $3 AND g.game = $4)
				AND EXISTS (SELECT 1 FROM deal_corrections c
					WHERE c.tournament_id = $1 AND c.round = $2 AND c.table_no = $3 AND c.game = $4) = $10
				AND ($5::int = 0 OR EXISTS (SELECT 1 FROM game_deals d
					WHERE d.tournament_id = $1 AND d.round = $2 AND d.table_no = $3 AND d.game = $4 AND d.seq = $5::int - 1))
			FOR SHARE OF r
		), ins AS (
			INSERT INTO game_deals (tournament_id, round, table_no, game, seq, deal, created_at, state)
			SELECT $1, $2, $3, $4, $5, $6, $7, $8 FROM g
			RETURNING 1
		)` + extra + `
		SELECT EXISTS (SELECT 1 FROM ins), ` + answered
}

var appendDealSQL = [...]string{appendOnly: appendDeal(appendOnly), appendClaiming: appendDeal(appendClaiming),
	appendAnswering: appendDeal(appendAnswering)}

// appendDealArgs are appendDeal's parameters for w, the audit actor's
// (from ctx) after them.
func appendDealArgs(ctx context.Context, w *tournament.DealWrite) []any {
	var state *string
	if w.State != nil {
		s := string(w.State)
		state = &s
	}
	k := w.Game
	return withAuditActor(ctx, k.TournamentID, k.Round, k.Table, k.Game, w.Seq, string(w.Deal), w.At, state, w.Version, w.Corrected)
}

// AppendDeal implements tournament.Store: a deal that does not end its
// game in one statement (appendDeal), one that does with the game's
// result in one transaction.
func (s *Store) AppendDeal(ctx context.Context, w *tournament.DealWrite) (bool, error) {
	if w.Final != nil {
		return s.appendFinalDeal(ctx, w)
	}
	var inserted bool
	err := s.statement(ctx, "deal", func(q queryRower) (err error) {
		inserted, _, err = execAppendDeal(ctx, q, appendDealSQL[appendOnly], appendDealArgs(ctx, w))
		return err
	})
	return inserted, err
}

// errNotStood rolls back the transaction of a deal whose entry no longer
// stands.
var errNotStood = errors.New("the deal's entry no longer stands")

// appendFinalDeal stores a deal that ends its game and the game's result
// in one transaction, under the entry the deal was decided with.
func (s *Store) appendFinalDeal(ctx context.Context, w *tournament.DealWrite) (bool, error) {
	err := s.Write(ctx, "deal", func(tx pgx.Tx) error {
		inserted, _, err := execAppendDeal(ctx, tx, appendDealSQL[appendOnly], appendDealArgs(ctx, w))
		if err != nil || !inserted {
			return cmp.Or(err, errNotStood)
		}
		created, err := insertResult(ctx, tx, w.Final)
		if err == nil && !created {
			return errNotStood
		}
		return err
	})
	if errors.Is(err, errNotStood) {
		return false, nil
	}
	return err == nil, err
}

// queryRower is a pool or a transaction.
type queryRower interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// execAppendDeal runs an appendDeal statement: whether it inserted the
// deal and stored the key's answer. A unique violation (the deal's number
// or the key taken) inserted nothing.
func execAppendDeal(ctx context.Context, q queryRower, sql string, args []any) (inserted, answered bool, err error) {
	if err := q.QueryRow(ctx, sql, args...).Scan(&inserted, &answered); err != nil {
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == codeUniqueViolation {
			return false, false, nil
		}
		return false, false, MapError(err, "deal")
	}
	return inserted, answered, nil
}
