package postgres

import (
	"context"
	"encoding/json"
	"time"

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

// DealEntry implements tournament.Store.
func (s *Store) DealEntry(ctx context.Context, k tournament.GameKey) (*tournament.DealEntry, error) {
	var (
		e     tournament.DealEntry
		state []byte
		err   error
	)
	e.Tournament, e.Round, err = scanTable(s.pool.QueryRow(ctx, dealEntrySQL, k.TournamentID, k.Round, k.Table, k.Game),
		k.Round, k.Table, &e.Deals, &state, &e.HasResult, &e.Corrected)
	if err != nil {
		return nil, err
	}
	if state != nil {
		e.State = state
	}
	return &e, nil
}

// appendNextDealParams is the number of appendNextDealSQL's own
// parameters; the audit actor's three follow them.
const appendNextDealParams = 8

// appendNextDealSQL stores a deal that does not end its game, with its
// running state, in one statement: it sets the audit actor (the audit
// trigger writes its entry in the same transaction), holds a shared lock
// on the round's row while it inserts (closing a round takes an exclusive
// one), and inserts only while the round is open and the game has no
// result. It answers the round's status, whether the deal was inserted and
// whether the game has a result.
var appendNextDealSQL = `WITH act AS (` + auditActorSelect(appendNextDealParams+1) + `
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
		)
		SELECT (SELECT status FROM rd), (SELECT over FROM res), EXISTS (SELECT 1 FROM ins)`

// AppendNextDeal implements tournament.Store.
func (s *Store) AppendNextDeal(ctx context.Context, k tournament.GameKey, seq int, deal, state json.RawMessage, now time.Time,
	closed func(*tournament.Round) error) error {
	var (
		status         *string
		over, inserted bool
	)
	err := s.pool.QueryRow(ctx, appendNextDealSQL, withAuditActor(ctx, k.TournamentID, k.Round, k.Table, k.Game, seq,
		string(deal), now, string(state))...).Scan(&status, &over, &inserted)
	switch {
	case err != nil:
		return MapError(err, "deal")
	case inserted:
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
