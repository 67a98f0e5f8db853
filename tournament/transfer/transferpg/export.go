package transferpg

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/postgres"
	"github.com/revisor-sm/revisor/tournament/transfer"
)

// ImportTournament writes an imported tournament — the tournament, its
// players, rounds with tables, results, outcomes and tie resolutions — in
// one transaction: all of it or nothing.
func (s *Store) ImportTournament(ctx context.Context, t *tournament.Tournament, sec tournament.Secrets, st *tournament.State,
	hist *transfer.ImportedHistory) error {
	return s.db.Write(ctx, "tournament", func(tx pgx.Tx) error {
		steps := []func(context.Context, pgx.Tx, string, *tournament.State) error{
			importPlayers, importRounds, importResults, importOutcomes, importResolutions,
		}
		if hist != nil { // the history brings every result row, the effective ones among them
			steps = []func(context.Context, pgx.Tx, string, *tournament.State) error{
				importPlayers, importRounds, importOutcomes, importResolutions,
			}
		}
		if hist != nil { // the carried log first, then the import's own entries
			if err := importAudit(ctx, tx, t.ID, hist.Audit); err != nil {
				return err
			}
		}
		if err := importTournamentRow(ctx, tx, t, sec); err != nil {
			return err
		}
		for _, step := range steps {
			if err := step(ctx, tx, t.ID, st); err != nil {
				return err
			}
		}
		if hist != nil {
			return importHistory(ctx, tx, t.ID, hist)
		}
		return nil
	})
}

func importTournamentRow(ctx context.Context, tx pgx.Tx, t *tournament.Tournament, sec tournament.Secrets) error {
	const q = `INSERT INTO tournaments (id, name, format, rules, games_per_round, placement_points,
		advance_per_table, rounds, final_size, tiebreaks, seating, status, champion, organizer_token_hash, code_key, created_at,
		final_games, day_breaks, language, time_zone, short_code)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)`
	st := t.Settings
	var rules, champion any
	if st.Rules != nil {
		rules = string(st.Rules)
	}
	if t.Champion != "" {
		champion = t.Champion
	}
	_, err := tx.Exec(ctx, q, t.ID, t.Name, t.Format, rules, st.GamesPerRound, st.PlacementPoints,
		st.AdvancePerTable, st.Rounds, st.FinalSize, st.Tiebreaks, st.Seating, t.Status, champion,
		sec.OrganizerTokenHash, sec.CodeKey, t.CreatedAt, st.FinalGames, st.DayBreaks, st.Language, st.TimeZone, t.ShortCode)
	return err
}

// importPlayers stores the players, each a new person of this server's
// register (the file's persons are another server's; the admin merges).
func importPlayers(ctx context.Context, tx pgx.Tx, tid string, st *tournament.State) error {
	regs := make([]tournament.NewPlayer, len(st.Players))
	for i, p := range st.Players {
		regs[i] = tournament.NewPlayer{Name: p.Name, Club: p.Club}
	}
	persons, err := postgres.PersonsFor(ctx, tx, regs, time.Now().UTC())
	if err != nil {
		return err
	}
	rows := make([][]any, len(st.Players))
	for i, p := range st.Players {
		rows[i] = []any{tid, p.ID, p.Seq, p.Name, p.Club, string(p.Status), p.CreatedAt, persons[i]}
	}
	_, err = tx.CopyFrom(ctx, pgx.Identifier{"players"},
		[]string{"tournament_id", "id", "seq", "name", "club", "status", "created_at", "person_id"}, pgx.CopyFromRows(rows))
	return err
}

func importRounds(ctx context.Context, tx pgx.Tx, tid string, st *tournament.State) error {
	var tables [][]any
	for _, r := range st.Rounds {
		_, err := tx.Exec(ctx, `INSERT INTO rounds (tournament_id, number, seed, constraints, search_steps, final, status, created_at, closed_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, tid, r.Number, r.Seed, r.Constraints.Export(), r.SearchSteps, r.Final, string(r.Status), r.CreatedAt, r.ClosedAt)
		if err != nil {
			return err
		}
		for _, tb := range r.Tables {
			tables = append(tables, []any{tid, r.Number, tb.Number, tb.Players, tb.Seats, tb.FirstDealer})
		}
	}
	_, err := tx.CopyFrom(ctx, pgx.Identifier{"round_tables"},
		[]string{"tournament_id", "round", "number", "players", "seats", "first_dealer"}, pgx.CopyFromRows(tables))
	if err != nil {
		return err
	}
	var gone [][]any
	for _, r := range st.Rounds {
		for _, tb := range r.Tables {
			for _, w := range tb.Withdrawals {
				gone = append(gone, []any{tid, w.Player, r.Number, tb.Number, w.Game, string(w.Handling), w.Reason, w.By, w.CreatedAt})
			}
		}
	}
	_, err = tx.CopyFrom(ctx, pgx.Identifier{"game_withdrawals"}, []string{"tournament_id", "player_id", "round", "table_no",
		"game", "handling", "reason", "created_by", "created_at"}, pgx.CopyFromRows(gone))
	return err
}

func importResults(ctx context.Context, tx pgx.Tx, tid string, st *tournament.State) error {
	for _, r := range st.Results {
		places, err := postgres.EncodePlaces(r.Places)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO game_results (tournament_id, round, table_no, game, kind, record, record_hash,
			result, places, submitted_by, created_at) VALUES ($1, $2, $3, $4, 'submission', $5, $6, $7, $8, $9, $10)`,
			tid, r.Key.Round, r.Key.Table, r.Key.Game, string(r.Record), r.RecordHash, string(r.Result), string(places),
			r.SubmittedBy, r.CreatedAt)
		if err != nil {
			return err
		}
	}
	return nil
}

func importOutcomes(ctx context.Context, tx pgx.Tx, tid string, st *tournament.State) error {
	rows := make([][]any, len(st.Outcomes))
	for i, o := range st.Outcomes {
		rows[i] = []any{tid, o.Round, o.Player, o.Table, o.Rank, o.Advanced}
	}
	_, err := tx.CopyFrom(ctx, pgx.Identifier{"round_outcomes"},
		[]string{"tournament_id", "round", "player_id", "table_no", "rank", "advanced"}, pgx.CopyFromRows(rows))
	return err
}

func importResolutions(ctx context.Context, tx pgx.Tx, tid string, st *tournament.State) error {
	for _, r := range st.Resolutions {
		_, err := tx.Exec(ctx, `INSERT INTO tie_resolutions (tournament_id, round, players, method, note, decided_by, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, tid, r.Round, r.Players, r.Method, r.Note, r.By, r.CreatedAt)
		if err != nil {
			return err
		}
	}
	return nil
}

// ExportResults returns the effective result of every game with its record
// and places but without the engine's judgement, which an export leaves
// out: reading it would cost most of the time of an export.
func (s *Store) ExportResults(ctx context.Context, tid string) ([]tournament.GameResult, error) {
	const q = `SELECT DISTINCT ON (round, table_no, game) round, table_no, game, kind, record, places,
		submitted_by, created_at FROM game_results WHERE tournament_id = $1 ORDER BY round, table_no, game, id DESC`
	rows, err := s.db.Pool().Query(ctx, q, tid)
	if err != nil {
		return nil, postgres.MapError(err, "result")
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (tournament.GameResult, error) {
		r := tournament.GameResult{Key: tournament.GameKey{TournamentID: tid}}
		var record, places []byte
		err := row.Scan(&r.Key.Round, &r.Key.Table, &r.Key.Game, &r.Kind, &record, &places, &r.SubmittedBy, &r.CreatedAt)
		if err != nil {
			return r, err
		}
		r.Record, r.CreatedAt = record, r.CreatedAt.UTC()
		r.Places, err = postgres.DecodePlaces(places)
		return r, err
	})
	return out, postgres.MapError(err, "result")
}
