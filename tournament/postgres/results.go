package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/revisor-sm/revisor/tournament"
)

// placeJSON is how a game place is kept in game_results.places.
type placeJSON struct {
	Player  string `json:"player"`
	Place   int    `json:"place"`
	Score   int    `json:"score"`
	Points  int    `json:"points"`
	Forfeit bool   `json:"forfeit,omitempty"`
}

// EncodePlaces writes places as a game_results.places column.
func EncodePlaces(ps []tournament.GamePlace) ([]byte, error) {
	out := make([]placeJSON, len(ps))
	for i, p := range ps {
		out[i] = placeJSON(p)
	}
	return json.Marshal(out)
}

// DecodePlaces reads a game_results.places column.
func DecodePlaces(b []byte) ([]tournament.GamePlace, error) {
	var in []placeJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return nil, err
	}
	out := make([]tournament.GamePlace, len(in))
	for i, p := range in {
		out[i] = tournament.GamePlace(p)
	}
	return out, nil
}

// lockRound takes a shared lock on round n (closing takes an exclusive one)
// and returns its number and status (without tables); not found when there
// is no such round.
func lockRound(ctx context.Context, tx pgx.Tx, tid string, n int) (*tournament.Round, error) {
	r := &tournament.Round{TournamentID: tid, Number: n}
	err := tx.QueryRow(ctx, `SELECT status FROM rounds WHERE tournament_id = $1 AND number = $2 FOR SHARE`, tid, n).Scan(&r.Status)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, tournament.RoundNotFound(n)
	}
	return r, err
}

// Table returns the tournament, round n (with only table t) and table t,
// in one query; not found when any of them does not exist.
func (s *Store) Table(ctx context.Context, tid string, n, t int) (*tournament.Tournament, *tournament.Round, error) {
	return scanTable(s.pool.QueryRow(ctx, tableSQL, tid, n, t), n, t)
}

// tableSelect reads the tournament $1, its round $2 and the round's table
// $3 (scanTable); tableFrom is its FROM clause, which a query may extend.
const (
	tableSelect = `SELECT ` + TournamentColumns + `, r.number IS NOT NULL, coalesce(r.seed, 0), coalesce(r.final, false),
			coalesce(r.status, ''), coalesce(r.created_at, t.created_at), r.closed_at, tb.number IS NOT NULL,
			coalesce(tb.players, '{}'), coalesce(tb.first_dealer, ''),
			EXISTS (SELECT 1 FROM round_clocks c WHERE c.tournament_id = t.id AND c.round = $2 AND c.state = 'time_called'),
			(SELECT jsonb_agg(jsonb_build_object(` + withdrawalJSON + `) ORDER BY w.created_at, w.player_id)
				FROM game_withdrawals w WHERE w.tournament_id = t.id AND w.round = $2 AND w.table_no = $3)`
	tableFrom = `
		FROM tournaments t
		LEFT JOIN rounds r ON r.tournament_id = t.id AND r.number = $2
		LEFT JOIN round_tables tb ON tb.tournament_id = t.id AND tb.round = $2 AND tb.number = $3`
	tableSQL = tableSelect + tableFrom + `
		WHERE t.id = $1`
)

// scanTable scans a row of tableSelect, then extra; not found when the
// tournament, round n or table t does not exist.
func scanTable(row pgx.Row, n, t int, extra ...any) (*tournament.Tournament, *tournament.Round, error) {
	var (
		sc         tournamentScan
		hasR, hasT bool
		rd         = tournament.Round{Number: n}
		tb         = tournament.Table{Number: t}
		gone       []withdrawalRow
	)
	err := row.Scan(slices.Concat(sc.dest(), []any{&hasR, &rd.Seed, &rd.Final, &rd.Status, &rd.CreatedAt, &rd.ClosedAt,
		&hasT, &tb.Players, &tb.FirstDealer, &rd.TimeCalled, &gone}, extra)...)
	switch {
	case err != nil:
		return nil, nil, MapError(err, "tournament")
	case !hasR:
		return nil, nil, tournament.RoundNotFound(n)
	case !hasT:
		return nil, nil, tournament.Errorf(tournament.KindNotFound, tournament.CodeTableNotFound, "round %d has no table %d", n, t)
	}
	tt := sc.tournament()
	tb.Withdrawals = withdrawalsOf(gone, n, t)
	rd.TournamentID = tt.ID
	rd.Tables = []tournament.Table{tb}
	return tt, &rd, nil
}

// submitResultParams is the number of submitResultSQL's own parameters;
// the audit actor's three follow them.
const submitResultParams = 10

// submitResultSQL inserts a submission while its round is open, in one
// statement that sets the audit actor and holds a shared lock on the
// round's row (closing a round takes an exclusive one).
var submitResultSQL = `WITH act AS (` + auditActorSelect(submitResultParams+1) + `
		), rd AS (
			SELECT status FROM rounds, act WHERE tournament_id = $1 AND number = $2 FOR SHARE OF rounds
		), ins AS (
			INSERT INTO game_results (tournament_id, round, table_no, game, kind, record, record_hash, result,
				places, submitted_by, created_at)
			SELECT $1, $2, $3, $4, 'submission', $5, $6, $7, $8, $9, $10 FROM rd WHERE rd.status = 'open'
			ON CONFLICT (tournament_id, round, table_no, game) WHERE kind = 'submission' DO NOTHING
			RETURNING id, record, result
		)
		SELECT (SELECT status FROM rd), ins.id, ins.record, ins.result FROM (SELECT 1) one LEFT JOIN ins ON true`

// SubmitResult stores a game's first result unless it already has one.
// The common path is one statement (one round trip, its own transaction):
// submitResultSQL inserts the result if the round is open; two concurrent
// submissions race on the unique index and the loser reads the winner's
// row. The decision that the round is open is the statement's, under its
// lock; closed only words the refusal.
func (s *Store) SubmitResult(ctx context.Context, r *tournament.GameResult, closed func(*tournament.Round) error) (*tournament.GameResult, bool, error) {
	places, err := EncodePlaces(r.Places)
	if err != nil {
		return nil, false, err
	}
	k := r.Key
	var (
		status         *string
		id             *int64
		record, result []byte // as stored, so a repeat answers byte for byte the same
	)
	err = s.statement(ctx, "result", func(q queryRower) error {
		return q.QueryRow(ctx, submitResultSQL, withAuditActor(ctx, k.TournamentID, k.Round, k.Table, k.Game,
			string(r.Record), r.RecordHash, string(r.Result), string(places), r.SubmittedBy, r.CreatedAt)...).
			Scan(&status, &id, &record, &result)
	})
	if err != nil {
		return nil, false, MapError(err, "result")
	}
	if id != nil {
		r.ID, r.Kind, r.Record, r.Result = *id, tournament.ResultSubmission, record, result
		return r, true, nil
	}
	if status == nil {
		return nil, false, tournament.RoundNotFound(k.Round)
	}
	if st := tournament.RoundStatus(*status); st != tournament.RoundOpen {
		if err := closed(&tournament.Round{TournamentID: k.TournamentID, Number: k.Round, Status: st}); err != nil {
			return nil, false, err
		}
		return nil, false, tournament.Errorf(tournament.KindConflict, tournament.CodeRoundClosed, "round %d is %s", k.Round, st)
	}
	var out *tournament.GameResult
	err = s.Read(ctx, "result", func(tx pgx.Tx) error {
		out, err = effectiveResult(ctx, tx, k)
		return err
	})
	return out, false, err
}

// insertResult inserts r as a submission; false when the game already has one.
func insertResult(ctx context.Context, tx pgx.Tx, r *tournament.GameResult) (bool, error) {
	places, err := EncodePlaces(r.Places)
	if err != nil {
		return false, err
	}
	const q = `INSERT INTO game_results (tournament_id, round, table_no, game, kind, record, record_hash, result,
		places, submitted_by, created_at)
		VALUES ($1, $2, $3, $4, 'submission', $5, $6, $7, $8, $9, $10)
		ON CONFLICT (tournament_id, round, table_no, game) WHERE kind = 'submission' DO NOTHING
		RETURNING id, record, result`
	k := r.Key
	var record, result []byte // as stored, so a repeat answers byte for byte the same
	err = tx.QueryRow(ctx, q, k.TournamentID, k.Round, k.Table, k.Game, string(r.Record), r.RecordHash,
		string(r.Result), string(places), r.SubmittedBy, r.CreatedAt).Scan(&r.ID, &record, &result)
	if err == nil {
		r.Record, r.Result = record, result
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	r.Kind = tournament.ResultSubmission
	return err == nil, err
}

const resultColumns = `id, tournament_id, round, table_no, game, kind, supersedes, record, record_hash, result,
	places, submitted_by, created_at`

func scanResult(row pgx.Row) (*tournament.GameResult, error) {
	var (
		r                     tournament.GameResult
		record, result, place []byte
	)
	k := &r.Key
	err := row.Scan(&r.ID, &k.TournamentID, &k.Round, &k.Table, &k.Game, &r.Kind, &r.Supersedes, &record,
		&r.RecordHash, &result, &place, &r.SubmittedBy, &r.CreatedAt)
	if err != nil {
		return nil, err
	}
	r.Record, r.Result, r.CreatedAt = record, result, r.CreatedAt.UTC()
	r.Places, err = DecodePlaces(place)
	return &r, err
}

// effectiveResult reads the latest result row of a game.
func effectiveResult(ctx context.Context, tx pgx.Tx, k tournament.GameKey) (*tournament.GameResult, error) {
	r, err := scanResult(tx.QueryRow(ctx, `SELECT `+resultColumns+` FROM game_results
		WHERE tournament_id = $1 AND round = $2 AND table_no = $3 AND game = $4 ORDER BY id DESC LIMIT 1`,
		k.TournamentID, k.Round, k.Table, k.Game))
	return r, MapError(err, "result")
}

// Results returns the effective results of round n (every round when n is 0).
func (s *Store) Results(ctx context.Context, tid string, n int) ([]tournament.GameResult, error) {
	const q = `SELECT DISTINCT ON (round, table_no, game) ` + resultColumns + ` FROM game_results
		WHERE tournament_id = $1 AND ($2 = 0 OR round = $2) ORDER BY round, table_no, game, id DESC`
	return s.queryResults(ctx, q, tid, n)
}

// queryResults runs q, which selects resultColumns, and scans its rows.
func (s *Store) queryResults(ctx context.Context, q string, args ...any) ([]tournament.GameResult, error) {
	rows, err := s.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, MapError(err, "result")
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (tournament.GameResult, error) {
		res, err := scanResult(r)
		if err != nil {
			return tournament.GameResult{}, err
		}
		return *res, nil
	})
	return out, MapError(err, "result")
}

// queryPlaces reads the effective results of every game, places only.
func queryPlaces(ctx context.Context, tx Querier, tid string) ([]tournament.GameResult, error) {
	const q = `SELECT DISTINCT ON (round, table_no, game) id, round, table_no, game, kind, places, created_at
		FROM game_results WHERE tournament_id = $1 ORDER BY round, table_no, game, id DESC`
	rows, err := tx.Query(ctx, q, tid)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (tournament.GameResult, error) {
		r := tournament.GameResult{Key: tournament.GameKey{TournamentID: tid}}
		var places []byte
		err := row.Scan(&r.ID, &r.Key.Round, &r.Key.Table, &r.Key.Game, &r.Kind, &places, &r.CreatedAt)
		if err != nil {
			return r, err
		}
		r.Places, err = DecodePlaces(places)
		return r, err
	})
}

// Deals returns the deals appended so far to a game, in order, and whether
// the game has a result.
func (s *Store) Deals(ctx context.Context, k tournament.GameKey) ([]json.RawMessage, bool, error) {
	var (
		out  []json.RawMessage
		over bool
	)
	err := s.Read(ctx, "deal", func(tx pgx.Tx) error {
		// Each deal in its latest version (migration 000030).
		rows, err := tx.Query(ctx, `SELECT coalesce((SELECT c.deal FROM deal_corrections c
				WHERE c.tournament_id = d.tournament_id AND c.round = d.round AND c.table_no = d.table_no
					AND c.game = d.game AND c.seq = d.seq ORDER BY c.id DESC LIMIT 1), d.deal)
			FROM game_deals d WHERE d.tournament_id = $1 AND d.round = $2 AND d.table_no = $3 AND d.game = $4 ORDER BY d.seq`,
			k.TournamentID, k.Round, k.Table, k.Game)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (json.RawMessage, error) {
			var b []byte
			err := r.Scan(&b)
			return json.RawMessage(b), err
		})
		if err != nil {
			return err
		}
		if err := checkNoResult(ctx, tx, k); err != nil {
			if tournament.ErrorCode(err) != tournament.CodeGameOver {
				return err
			}
			over = true
		}
		return nil
	})
	return out, over, err
}

func checkNoResult(ctx context.Context, tx pgx.Tx, k tournament.GameKey) error {
	var exists bool
	err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM game_results
		WHERE tournament_id = $1 AND round = $2 AND table_no = $3 AND game = $4)`,
		k.TournamentID, k.Round, k.Table, k.Game).Scan(&exists)
	if err == nil && exists {
		return gameOverError()
	}
	return err
}

// dealConflictError: deal seq (0-based) was taken by another request.
func dealConflictError(seq int) error {
	return tournament.Errorf(tournament.KindConflict, tournament.CodeDealConflict,
		"deal %d of this game was entered at the same time by another request; reload the game and try again", seq+1)
}

func gameOverError() error {
	return tournament.Errorf(tournament.KindConflict, tournament.CodeGameOver, "this game already has a result; no more deals can be added")
}

var _ tournament.TableResultReader = (*Store)(nil)

// TableResults returns the effective results of one table's games in round
// n, records included.
func (s *Store) TableResults(ctx context.Context, tid string, n, table int) ([]tournament.GameResult, error) {
	const q = `SELECT DISTINCT ON (round, table_no, game) ` + resultColumns + ` FROM game_results
		WHERE tournament_id = $1 AND round = $2 AND table_no = $3 ORDER BY round, table_no, game, id DESC`
	return s.queryResults(ctx, q, tid, n, table)
}
