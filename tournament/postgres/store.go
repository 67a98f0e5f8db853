package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/revisor-sm/revisor/tournament"
)

// Store implements tournament.Store on PostgreSQL. Each method runs in one
// transaction; methods that let the domain decide lock the tournament's row
// first, so decisions and writes on one tournament do not interleave.
// Game submissions lock only their round's row (shared), so tables submit
// in parallel while closing the round waits for them.
type Store struct {
	pool *pgxpool.Pool
}

var _ tournament.Store = (*Store)(nil)

// NewStore returns the tournament store on pool.
func NewStore(pool *pgxpool.Pool) *Store { return &Store{pool: pool} }

// Write runs fn in a read-committed transaction that first tells the
// database who is writing, for the audit log (setAuditActor), and commits
// it when fn succeeds. Errors are mapped to tournament errors about subject.
func (s *Store) Write(ctx context.Context, subject string, fn func(pgx.Tx) error) error {
	return s.inTx(ctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted}, subject, fn)
}

// Read runs fn in a read-only snapshot: one repeatable-read transaction the
// database itself keeps from writing (a write in it fails with SQLSTATE
// 25006), so it needs no audit actor.
func (s *Store) Read(ctx context.Context, subject string, fn func(pgx.Tx) error) error {
	return s.inTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, subject, fn)
}

// inTx runs fn in a transaction with opts, setting the audit actor unless
// the transaction is read only, and commits it when fn succeeds.
// Inside a command run with a client's key (Idempotency.Atomically), a
// write is a savepoint of the command's transaction (ambientTx): it
// commits with the key's claim and answer, or not at all. A read there
// keeps its own snapshot until the command has written, and then reads
// in the command's transaction, so that it sees what the command wrote.
func (s *Store) inTx(ctx context.Context, opts pgx.TxOptions, subject string, fn func(pgx.Tx) error) error {
	var (
		tx  pgx.Tx
		err error
	)
	if a := ambientOf(ctx); a != nil && a.joins(opts.AccessMode != pgx.ReadOnly) {
		defer a.mu.Unlock()
		tx, err = a.tx.Begin(ctx)
	} else {
		tx, err = s.pool.BeginTx(ctx, opts)
	}
	if err != nil {
		return MapError(err, subject)
	}
	defer tx.Rollback(ctx)
	if opts.AccessMode != pgx.ReadOnly {
		if err := setAuditActor(ctx, tx); err != nil {
			return MapError(err, subject)
		}
	}
	if err := fn(tx); err != nil {
		return MapError(err, subject)
	}
	return MapError(tx.Commit(ctx), subject)
}

// statement runs fn, the store's statement outside a transaction of its
// own, on the pool; inside a command's transaction (ambientTx) in a Write,
// a savepoint of it, so that it commits with the command. A statement
// that failed and whose failure fn took for an answer (a unique
// violation: nothing inserted) rolls its savepoint back.
func (s *Store) statement(ctx context.Context, subject string, fn func(queryRower) error) error {
	if ambientOf(ctx) == nil {
		return fn(s.pool)
	}
	err := s.Write(ctx, subject, func(tx pgx.Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		if tx.Conn().PgConn().TxStatus() == 'E' {
			return errFailureAnswered
		}
		return nil
	})
	if errors.Is(err, errFailureAnswered) {
		return nil
	}
	return err
}

// errFailureAnswered rolls back the savepoint of a statement whose
// failure was its answer (statement).
var errFailureAnswered = errors.New("the statement's failure was its answer")

// TournamentColumns reads a tournament from tournaments aliased t.
const TournamentColumns = `t.id, t.name, t.format, t.rules, t.games_per_round, t.placement_points,
	t.advance_per_table, t.rounds, t.final_size, t.tiebreaks, t.seating, t.status, coalesce(t.champion, ''),
	t.created_at, (SELECT coalesce(max(rr.number), 0) FROM rounds rr WHERE rr.tournament_id = t.id),
	t.final_games, t.day_breaks, t.language, t.time_zone, t.correction_minutes,
	t.public, t.short_code, t.venue, t.play_date`

// ScanTournament scans a row of TournamentColumns.
func ScanTournament(row pgx.Row) (*tournament.Tournament, error) {
	var sc tournamentScan
	if err := row.Scan(sc.dest()...); err != nil {
		return nil, err
	}
	return sc.tournament(), nil
}

// tournamentScan receives the columns of TournamentColumns, for queries
// that read them with more (scanTable).
type tournamentScan struct {
	t     tournament.Tournament
	rules []byte
	date  *time.Time
}

// dest returns the scan destinations of TournamentColumns, in order.
func (sc *tournamentScan) dest() []any {
	t, s := &sc.t, &sc.t.Settings
	return []any{&t.ID, &t.Name, &t.Format, &sc.rules, &s.GamesPerRound, &s.PlacementPoints, &s.AdvancePerTable,
		&s.Rounds, &s.FinalSize, &s.Tiebreaks, &s.Seating, &t.Status, &t.Champion, &t.CreatedAt, &t.CurrentRound,
		&s.FinalGames, &s.DayBreaks, &s.Language, &s.TimeZone, &s.CorrectionMinutes,
		&t.Public, &t.ShortCode, &t.Venue, &sc.date}
}

// tournament returns the tournament scanned.
func (sc *tournamentScan) tournament() *tournament.Tournament {
	t := sc.t
	if len(sc.rules) > 0 {
		t.Settings.Rules = sc.rules
	}
	if sc.date != nil {
		t.Date = sc.date.UTC()
	}
	t.CreatedAt = t.CreatedAt.UTC()
	return &t
}

// CreateTournament stores a new tournament with its secrets.
func (s *Store) CreateTournament(ctx context.Context, t *tournament.Tournament, sec tournament.Secrets) error {
	const q = `INSERT INTO tournaments (id, name, format, rules, games_per_round, placement_points,
		advance_per_table, rounds, final_size, tiebreaks, seating, status, organizer_token_hash, code_key, created_at,
		final_games, day_breaks, language, time_zone, correction_minutes, public, short_code, venue, play_date)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24)`
	st := t.Settings
	var rules, date any
	if st.Rules != nil {
		rules = string(st.Rules)
	}
	if !t.Date.IsZero() {
		date = t.Date
	}
	return s.Write(ctx, "tournament", func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, q, t.ID, t.Name, t.Format, rules, st.GamesPerRound, st.PlacementPoints,
			st.AdvancePerTable, st.Rounds, st.FinalSize, st.Tiebreaks, st.Seating, t.Status,
			sec.OrganizerTokenHash, sec.CodeKey, t.CreatedAt, st.FinalGames, st.DayBreaks, st.Language, st.TimeZone,
			st.CorrectionMinutes, t.Public, t.ShortCode, t.Venue, date)
		return err
	})
}

// UpdateSettings stores the name and settings change makes of the
// tournament, under its row lock. The audit trigger records the row
// before and after.
func (s *Store) UpdateSettings(ctx context.Context, tid string,
	change func(*tournament.Tournament) (*tournament.Tournament, error)) (*tournament.Tournament, error) {
	const q = `UPDATE tournaments SET name = $2, games_per_round = $3, placement_points = $4, advance_per_table = $5,
		rounds = $6, final_size = $7, final_games = $8, day_breaks = $9, tiebreaks = $10, seating = $11, language = $12,
		time_zone = $13, correction_minutes = $14
		WHERE id = $1`
	var out *tournament.Tournament
	err := s.Write(ctx, "tournament", func(tx pgx.Tx) error {
		t, err := LockTournament(ctx, tx, tid)
		if err != nil {
			return err
		}
		if out, err = change(t); err != nil {
			return err
		}
		st := out.Settings
		_, err = tx.Exec(ctx, q, tid, out.Name, st.GamesPerRound, st.PlacementPoints, st.AdvancePerTable, st.Rounds,
			st.FinalSize, st.FinalGames, st.DayBreaks, st.Tiebreaks, st.Seating, st.Language, st.TimeZone, st.CorrectionMinutes)
		return err
	})
	return out, err
}

// Tournament returns a tournament.
func (s *Store) Tournament(ctx context.Context, id string) (*tournament.Tournament, error) {
	t, err := ScanTournament(s.pool.QueryRow(ctx, `SELECT `+TournamentColumns+` FROM tournaments t WHERE t.id = $1`, id))
	return t, MapError(err, "tournament")
}

// LockTournament reads a tournament and holds its row lock until tx ends.
func LockTournament(ctx context.Context, tx pgx.Tx, id string) (*tournament.Tournament, error) {
	t, err := ScanTournament(tx.QueryRow(ctx, `SELECT `+TournamentColumns+` FROM tournaments t WHERE t.id = $1 FOR UPDATE`, id))
	return t, MapError(err, "tournament")
}

// Secrets returns a tournament's secrets.
func (s *Store) Secrets(ctx context.Context, id string) (tournament.Secrets, error) {
	var sec tournament.Secrets
	err := s.pool.QueryRow(ctx, `SELECT organizer_token_hash, code_key FROM tournaments WHERE id = $1`, id).
		Scan(&sec.OrganizerTokenHash, &sec.CodeKey)
	return sec, MapError(err, "tournament")
}

// TournamentByTokenHash returns the tournament whose organizer token hashes to hash.
func (s *Store) TournamentByTokenHash(ctx context.Context, hash []byte) (string, error) {
	var id string
	err := s.pool.QueryRow(ctx, `SELECT id FROM tournaments WHERE organizer_token_hash = $1`, hash).Scan(&id)
	return id, MapError(err, "token")
}

func setTournamentStatus(ctx context.Context, tx pgx.Tx, id string, status tournament.Status, champion string) error {
	var ch any
	if champion != "" {
		ch = champion
	}
	tag, err := tx.Exec(ctx, `UPDATE tournaments SET status = $2, champion = coalesce($3, champion) WHERE id = $1`, id, status, ch)
	if err == nil && tag.RowsAffected() != 1 {
		err = fmt.Errorf("tournament %s vanished", id)
	}
	return err
}

// Pool returns the store's connection pool, for the stores of the
// subdomains (refereepg, …) that read outside a transaction.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }
