package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/revisor-sm/revisor/tournament"
)

// dealEntrySQL reads what entering the next deal of game ($1, $2, $3, $4)
// needs in one statement (one snapshot): the tournament, round and table
// (tableSelect), the number of deals, the running state kept with the last
// of them (migration 000150), whether the game has a result and whether a
// deal of it was corrected.
const dealEntrySQL = tableSelect + `,
			(SELECT count(*) FROM game_deals d
				WHERE d.tournament_id = $1 AND d.round = $2 AND d.table_no = $3 AND d.game = $4),
			(SELECT d.state FROM game_deals d
				WHERE d.tournament_id = $1 AND d.round = $2 AND d.table_no = $3 AND d.game = $4 ORDER BY d.seq DESC LIMIT 1),
			EXISTS (SELECT 1 FROM game_results g
				WHERE g.tournament_id = $1 AND g.round = $2 AND g.table_no = $3 AND g.game = $4),
			EXISTS (SELECT 1 FROM deal_corrections c
				WHERE c.tournament_id = $1 AND c.round = $2 AND c.table_no = $3 AND c.game = $4)` + tableFrom + `
		WHERE t.id = $1`

// DealEntry implements tournament.Store. When the context carries an
// Idempotency-Key still to be claimed (tournament.KeyClaim), the claim and
// the read go together, as one batch: one round trip.
func (s *Store) DealEntry(ctx context.Context, k tournament.GameKey) (*tournament.DealEntry, error) {
	var (
		e     tournament.DealEntry
		state []byte
		err   error
	)
	scan := func(row pgx.Row) error {
		e.Tournament, e.Round, err = scanTable(row, k.Round, k.Table, &e.Deals, &state, &e.HasResult, &e.Corrected)
		return nil
	}
	args := []any{k.TournamentID, k.Round, k.Table, k.Game}
	if c := tournament.KeyClaimFrom(ctx); c != nil {
		var (
			stored          []byte
			retry           bool
			claimErr, dbErr error
		)
		b := &pgx.Batch{}
		// The batch is one implicit transaction, and its commit (the
		// claim's) need not wait for the disk: a claim lost in a crash of
		// the database only lets the retry claim again, and the deal's own
		// commit, synchronous, flushes the claim's record before it.
		b.Queue(asyncCommitSQL)
		b.Queue(claimKeySQL, claimKeyArgs(c)...).QueryRow(func(row pgx.Row) error {
			stored, retry, claimErr = claimOutcome(row, c)
			return nil
		})
		b.Queue(dealEntrySQL, args...).QueryRow(scan)
		if dbErr = s.pool.SendBatch(ctx, b).Close(); dbErr != nil {
			return nil, MapError(dbErr, "idempotency key")
		}
		if retry {
			stored, claimErr = claimKey(ctx, s.pool, c)
		}
		if err := c.Made(claimErr == nil && stored == nil, stored, claimErr); err != nil {
			return nil, err
		}
	} else {
		_ = scan(s.pool.QueryRow(ctx, dealEntrySQL, args...))
	}
	if err != nil {
		return nil, err
	}
	if state != nil {
		e.State = state
	}
	return &e, nil
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
