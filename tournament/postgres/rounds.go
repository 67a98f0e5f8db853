package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/revisor-sm/revisor/tournament"
)

// State returns a consistent snapshot of a tournament's state.
func (s *Store) State(ctx context.Context, tid string) (*tournament.State, error) {
	var st *tournament.State
	err := s.Read(ctx, "tournament", func(tx pgx.Tx) error {
		t, err := ScanTournament(tx.QueryRow(ctx, `SELECT `+TournamentColumns+` FROM tournaments t WHERE t.id = $1`, tid))
		if err != nil {
			return MapError(err, "tournament")
		}
		st, err = LoadState(ctx, tx, t)
		return err
	})
	return st, err
}

// LoadState reads everything the domain decides on, for tournament t.
func LoadState(ctx context.Context, tx pgx.Tx, t *tournament.Tournament) (*tournament.State, error) {
	st := &tournament.State{Tournament: *t}
	var err error
	if st.Players, err = queryPlayers(ctx, tx, t.ID); err != nil {
		return nil, err
	}
	if st.Rounds, err = queryRounds(ctx, tx, t.ID, 0); err != nil {
		return nil, err
	}
	if st.Results, err = queryPlaces(ctx, tx, t.ID); err != nil {
		return nil, err
	}
	if st.Outcomes, err = queryOutcomes(ctx, tx, t.ID); err != nil {
		return nil, err
	}
	if st.Resolutions, err = queryResolutions(ctx, tx, t.ID); err != nil {
		return nil, err
	}
	st.Adjustments, err = queryAdjustments(ctx, tx, t.ID)
	return st, err
}

// queryRounds reads round n with its tables, or every round when n is 0.
func queryRounds(ctx context.Context, tx Querier, tid string, n int) ([]tournament.Round, error) {
	const q = `SELECT number, seed, constraints, search_steps, final, status, created_at, closed_at FROM rounds
		WHERE tournament_id = $1 AND ($2 = 0 OR number = $2) ORDER BY number`
	rows, err := tx.Query(ctx, q, tid, n)
	if err != nil {
		return nil, err
	}
	rounds, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (tournament.Round, error) {
		rd := tournament.Round{TournamentID: tid}
		var cons *tournament.ExportConstraints
		err := r.Scan(&rd.Number, &rd.Seed, &cons, &rd.SearchSteps, &rd.Final, &rd.Status, &rd.CreatedAt, &rd.ClosedAt)
		rd.Constraints = cons.Constraints()
		rd.CreatedAt = rd.CreatedAt.UTC()
		if rd.ClosedAt != nil {
			c := rd.ClosedAt.UTC()
			rd.ClosedAt = &c
		}
		return rd, err
	})
	if err != nil {
		return nil, err
	}
	return rounds, attachTables(ctx, tx, tid, n, rounds)
}

func attachTables(ctx context.Context, tx Querier, tid string, n int, rounds []tournament.Round) error {
	const q = `SELECT round, number, players, seats, first_dealer, drawn_players, drawn_seats, drawn_first_dealer
		FROM round_tables WHERE tournament_id = $1 AND ($2 = 0 OR round = $2) ORDER BY round, number`
	rows, err := tx.Query(ctx, q, tid, n)
	if err != nil {
		return err
	}
	byNumber := make(map[int]*tournament.Round, len(rounds))
	for i := range rounds {
		byNumber[rounds[i].Number] = &rounds[i]
	}
	var (
		round int
		t     tournament.Table
		drawn tournament.Table
		dealt *string // the drawn first dealer: NULL when never re-seated
	)
	_, err = pgx.ForEachRow(rows, []any{&round, &t.Number, &t.Players, &t.Seats, &t.FirstDealer, &drawn.Players, &drawn.Seats, &dealt}, func() error {
		if dealt != nil {
			drawn.Number, drawn.FirstDealer = t.Number, *dealt
			d := drawn
			t.Drawn = &d
		}
		if r := byNumber[round]; r != nil {
			r.Tables = append(r.Tables, t)
		}
		t, drawn, dealt = tournament.Table{}, tournament.Table{}, nil
		return nil
	})
	if err != nil {
		return err
	}
	return attachWithdrawals(ctx, tx, tid, n, byNumber)
}

// Outcomes returns the recorded outcomes of round n.
func (s *Store) Outcomes(ctx context.Context, tid string, n int) ([]tournament.Outcome, error) {
	out, err := queryOutcomes(ctx, s.pool, tid, n)
	return out, MapError(err, "round")
}

// queryOutcomes reads the outcomes of round n, of every round when n is 0.
func queryOutcomes(ctx context.Context, tx Querier, tid string, n ...int) ([]tournament.Outcome, error) {
	round := 0
	if len(n) > 0 {
		round = n[0]
	}
	rows, err := tx.Query(ctx, `SELECT round, table_no, player_id, rank, advanced FROM round_outcomes
		WHERE tournament_id = $1 AND ($2 = 0 OR round = $2) ORDER BY round, table_no, rank, player_id`, tid, round)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (tournament.Outcome, error) {
		var o tournament.Outcome
		err := r.Scan(&o.Round, &o.Table, &o.Player, &o.Rank, &o.Advanced)
		return o, err
	})
}

func queryResolutions(ctx context.Context, tx Querier, tid string) ([]tournament.TieResolution, error) {
	rows, err := tx.Query(ctx, `SELECT id, round, players, method, note, decided_by, created_at FROM tie_resolutions
		WHERE tournament_id = $1 ORDER BY id`, tid)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (tournament.TieResolution, error) {
		var t tournament.TieResolution
		err := r.Scan(&t.ID, &t.Round, &t.Players, &t.Method, &t.Note, &t.By, &t.CreatedAt)
		t.CreatedAt = t.CreatedAt.UTC()
		return t, err
	})
}

// DrawRound stores the round plan makes from the locked state, and marks
// the tournament running.
func (s *Store) DrawRound(ctx context.Context, tid string, plan func(*tournament.State) (*tournament.Round, error)) (*tournament.Round, error) {
	var r *tournament.Round
	err := s.Write(ctx, "round", func(tx pgx.Tx) error {
		t, err := LockTournament(ctx, tx, tid)
		if err != nil {
			return err
		}
		st, err := LoadState(ctx, tx, t)
		if err != nil {
			return err
		}
		if r, err = plan(st); err != nil {
			return err
		}
		if err := insertRound(ctx, tx, r); err != nil {
			return err
		}
		return setTournamentStatus(ctx, tx, tid, tournament.StatusRunning, "")
	})
	return r, err
}

func insertRound(ctx context.Context, tx pgx.Tx, r *tournament.Round) error {
	_, err := tx.Exec(ctx, `INSERT INTO rounds (tournament_id, number, seed, constraints, search_steps, final, status, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, r.TournamentID, r.Number, r.Seed, r.Constraints.Export(), r.SearchSteps, r.Final, r.Status, r.CreatedAt)
	if err != nil {
		return err
	}
	rows := make([][]any, len(r.Tables))
	for i, t := range r.Tables {
		rows[i] = []any{r.TournamentID, r.Number, t.Number, t.Players, t.Seats, t.FirstDealer}
	}
	_, err = tx.CopyFrom(ctx, pgx.Identifier{"round_tables"},
		[]string{"tournament_id", "round", "number", "players", "seats", "first_dealer"}, pgx.CopyFromRows(rows))
	return err
}

// Round returns round n with its tables.
func (s *Store) Round(ctx context.Context, tid string, n int) (*tournament.Round, error) {
	if n < 1 {
		return nil, tournament.RoundNotFound(n)
	}
	var r *tournament.Round
	err := s.Read(ctx, "round", func(tx pgx.Tx) error {
		rounds, err := queryRounds(ctx, tx, tid, n)
		if err != nil {
			return err
		}
		if len(rounds) == 0 {
			if _, err := ScanTournament(tx.QueryRow(ctx, `SELECT `+TournamentColumns+` FROM tournaments t WHERE t.id = $1`, tid)); err != nil {
				return MapError(err, "tournament")
			}
			return tournament.RoundNotFound(n)
		}
		r = &rounds[0]
		return nil
	})
	return r, err
}

// CloseRound closes round n with the change decide makes from the locked
// state. The round's row is locked too, so no submission is in flight.
func (s *Store) CloseRound(ctx context.Context, tid string, n int, now time.Time,
	decide func(*tournament.State) (*tournament.RoundChange, error)) (*tournament.RoundChange, error) {
	var ch *tournament.RoundChange
	err := s.Write(ctx, "round", func(tx pgx.Tx) error {
		t, err := LockTournament(ctx, tx, tid)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `SELECT 1 FROM rounds WHERE tournament_id = $1 AND number = $2 FOR UPDATE`, tid, n); err != nil {
			return err
		}
		st, err := LoadState(ctx, tx, t)
		if err != nil {
			return err
		}
		if ch, err = decide(st); err != nil {
			return err
		}
		return writeClose(ctx, tx, tid, n, now, ch)
	})
	return ch, err
}

func writeClose(ctx context.Context, tx pgx.Tx, tid string, n int, now time.Time, ch *tournament.RoundChange) error {
	_, err := tx.Exec(ctx, `UPDATE rounds SET status = 'closed', closed_at = $3 WHERE tournament_id = $1 AND number = $2`, tid, n, now)
	if err != nil {
		return err
	}
	rows := make([][]any, len(ch.Outcomes))
	for i, o := range ch.Outcomes {
		rows[i] = []any{tid, n, o.Player, o.Table, o.Rank, o.Advanced}
	}
	_, err = tx.CopyFrom(ctx, pgx.Identifier{"round_outcomes"},
		[]string{"tournament_id", "round", "player_id", "table_no", "rank", "advanced"}, pgx.CopyFromRows(rows))
	if err != nil {
		return err
	}
	if err := SetPlayerStatus(ctx, tx, tid, ch.Eliminated, tournament.PlayerEliminated); err != nil {
		return err
	}
	return setTournamentStatus(ctx, tx, tid, ch.TournamentStatus, ch.Champion)
}

// AddTieResolution stores a resolution after check approves the locked state.
func (s *Store) AddTieResolution(ctx context.Context, tid string, r *tournament.TieResolution, check func(*tournament.State) error) error {
	return s.Write(ctx, "tie resolution", func(tx pgx.Tx) error {
		t, err := LockTournament(ctx, tx, tid)
		if err != nil {
			return err
		}
		st, err := LoadState(ctx, tx, t)
		if err != nil {
			return err
		}
		if err := check(st); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `INSERT INTO tie_resolutions (tournament_id, round, players, method, note, decided_by, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`, tid, r.Round, r.Players, r.Method, r.Note, r.By, r.CreatedAt).Scan(&r.ID)
	})
}
