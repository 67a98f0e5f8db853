package transfer

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
)

// Importer is what a store needs to take an exported tournament: the
// tournament, its secrets and its whole state, written in one transaction.
// transferpg implements it beside Store.
type Importer interface {
	// ImportTournament writes t with its secrets, st and, when not nil,
	// the history hist; every row of hist gets a new id.
	ImportTournament(ctx context.Context, t *tournament.Tournament, sec tournament.Secrets, st *tournament.State, hist *ImportedHistory) error
}

// Import loads an exported tournament as a new tournament of this server:
// a new ID, organizer token and table codes; players, rounds, seating,
// results, outcomes and tie resolutions as exported. Every result is
// checked again by the engine against its table, so a file cannot bring in
// what a submission could not. Only the admin may import.
func (s *Service) Import(ctx context.Context, a tournament.Actor, ex *Export) (*tournament.Created, error) {
	if a.Role != tournament.RoleAdmin {
		return nil, tournament.Errorf(tournament.KindForbidden, tournament.CodeAdminOnly, "only the server's admin imports tournaments")
	}
	st, err := stateOf(ex)
	if err != nil {
		return nil, err
	}
	var hist *ImportedHistory
	if ex.History != nil {
		if hist, err = importHistory(ex.History, st); err != nil {
			return nil, err
		}
	}
	imp, ok := s.store.(Importer)
	if !ok {
		return nil, tournament.Errorf(tournament.KindUnavailable, tournament.CodeImportUnavailable, "this server's storage cannot import tournaments")
	}
	t := st.Tournament
	ctx = tournament.AuditBecause(ctx, a,
		fmt.Sprintf("imported from tournament %s, exported %s", ex.Tournament.ID, ex.ExportedAt.UTC().Format(time.RFC3339)))
	// An imported tournament is private (the admin lists it) and has a
	// short link of this server.
	t.Listing = tournament.Listing{}
	return s.core.Establish(ctx, &t, func(ctx context.Context, t *tournament.Tournament, sec tournament.Secrets) error {
		st.Tournament.ID = t.ID
		return imp.ImportTournament(ctx, t, sec, st, hist)
	})
}

// importError is a 422 about a place in the file.
func importErr(path, format string, args ...any) error {
	e := tournament.Errorf(tournament.KindRejected, tournament.CodeInvalidImport, "%s: %s", path, fmt.Sprintf(format, args...))
	e.Details = map[string]any{"path": path}
	return e
}

// stateOf checks an export and turns it into a state.
func stateOf(ex *Export) (*tournament.State, error) {
	if ex.Format != ExportFormat {
		return nil, importErr("/format", "format is %q; this server reads %q", ex.Format, ExportFormat)
	}
	t, err := importTournament(ex.Tournament)
	if err != nil {
		return nil, err
	}
	st := &tournament.State{Tournament: *t}
	if st.Players, err = importPlayers(ex.Players); err != nil {
		return nil, err
	}
	if st.Rounds, err = importRounds(ex.Rounds, st.Players); err != nil {
		return nil, err
	}
	if st.Results, err = importResults(ex.Results, st); err != nil {
		return nil, err
	}
	if st.Outcomes, err = importOutcomes(ex.Outcomes, st); err != nil {
		return nil, err
	}
	if st.Resolutions, err = importResolutions(ex.Resolutions, st); err != nil {
		return nil, err
	}
	return st, nil
}

func importTournament(x ExportTournament) (*tournament.Tournament, error) {
	n := tournament.NewTournament{Name: x.Name, Format: tournament.Format(x.Format), Rules: x.Rules, GamesPerRound: &x.GamesPerRound,
		PlacementPoints: x.PlacementPoints, FinalSize: &x.FinalSize, FinalGames: &x.FinalGames,
		DayBreaks: x.DayBreaks, Tiebreaks: x.Tiebreaks, Seating: x.Seating, Language: x.Language, TimeZone: x.TimeZone}
	if n.Format == tournament.FormatSM {
		n.AdvancePerTable = x.AdvancePerTable
	} else {
		n.Rounds = &x.Rounds
	}
	settings, err := n.Settings()
	if err == nil {
		err = tournament.CheckRules(n.Format, settings.Rules)
	}
	if err != nil {
		return nil, importErr("/tournament", "%s", tournament.ErrorMessage(err))
	}
	status := tournament.Status(x.Status)
	if status != tournament.StatusRegistration && status != tournament.StatusRunning && status != tournament.StatusFinished {
		return nil, importErr("/tournament/status", "unknown status %q", x.Status)
	}
	return &tournament.Tournament{Name: n.Name, Format: n.Format, Settings: settings, Status: status,
		Champion: x.Champion, CreatedAt: x.CreatedAt.UTC()}, nil
}

func importPlayers(xs []ExportPlayer) ([]tournament.Player, error) {
	ids, seqs := map[string]bool{}, map[int]bool{}
	out := make([]tournament.Player, len(xs))
	for i, x := range xs {
		path := fmt.Sprintf("/players/%d", i)
		np, err := tournament.NewPlayer{Name: x.Name, Club: x.Club}.Normalize()
		switch {
		case err != nil:
			return nil, importErr(path, "%s", tournament.ErrorMessage(err))
		case x.ID == "" || ids[x.ID]:
			return nil, importErr(path+"/id", "player id %q is empty or repeated", x.ID)
		case x.Seq < 1 || seqs[x.Seq]:
			return nil, importErr(path+"/seq", "seq %d is not positive or is repeated", x.Seq)
		}
		switch tournament.PlayerStatus(x.Status) {
		case tournament.PlayerActive, tournament.PlayerWithdrawn, tournament.PlayerEliminated, tournament.PlayerDisqualified:
		default:
			return nil, importErr(path+"/status", "unknown status %q", x.Status)
		}
		ids[x.ID], seqs[x.Seq] = true, true
		out[i] = tournament.Player{ID: x.ID, Name: np.Name, Club: np.Club, Status: tournament.PlayerStatus(x.Status), Seq: x.Seq,
			CreatedAt: x.CreatedAt.UTC()}
	}
	return out, nil
}

func importRounds(xs []ExportRound, players []tournament.Player) ([]tournament.Round, error) {
	known := map[string]bool{}
	for _, p := range players {
		known[p.ID] = true
	}
	out := make([]tournament.Round, len(xs))
	withdrawn := map[string]bool{} // a player is withdrawn once
	for i, x := range xs {
		path := fmt.Sprintf("/rounds/%d", i)
		status := tournament.RoundStatus(x.Status)
		switch {
		case x.Number != i+1:
			return nil, importErr(path+"/number", "round %d where round %d was expected", x.Number, i+1)
		case status != tournament.RoundOpen && status != tournament.RoundClosed:
			return nil, importErr(path+"/status", "unknown status %q", x.Status)
		case status == tournament.RoundOpen && i != len(xs)-1:
			return nil, importErr(path+"/status", "only the last round may be open")
		case len(x.Tables) == 0:
			return nil, importErr(path+"/tables", "a round has at least one table")
		case x.SearchSteps < 0 || x.SearchSteps > math.MaxInt32:
			return nil, importErr(path+"/search_steps", "where the seating search stopped is a count from 0 to %d", math.MaxInt32)
		}
		r := tournament.Round{Number: x.Number, Seed: x.Seed, Constraints: x.Constraints.Constraints(), SearchSteps: x.SearchSteps, Final: x.Final, Status: status, CreatedAt: x.CreatedAt.UTC(), ClosedAt: x.ClosedAt}
		seated := map[string]bool{}
		for j, tb := range x.Tables {
			tpath := fmt.Sprintf("%s/tables/%d", path, j)
			if tb.Number != j+1 || len(tb.Players) < 3 || len(tb.Players) > 4 || !slices.Contains(tb.Players, tb.FirstDealer) {
				return nil, importErr(tpath, "a table is numbered in order, seats 3 or 4 players and its first dealer sits at it")
			}
			if tb.Seats != nil && !tournament.ValidSeats(tb.Seats, len(tb.Players)) {
				return nil, importErr(tpath+"/seats", "seats lists the seat (1 to 4) of each player, increasing")
			}
			for _, p := range tb.Players {
				if !known[p] || seated[p] {
					return nil, importErr(tpath+"/players", "player %q is unknown or seated twice in the round", p)
				}
				seated[p] = true
			}
			gone, err := importWithdrawals(tpath, tb, r.Number, withdrawn)
			if err != nil {
				return nil, err
			}
			r.Tables = append(r.Tables, tournament.Table{Number: tb.Number, Players: slices.Clone(tb.Players), Seats: slices.Clone(tb.Seats),
				FirstDealer: tb.FirstDealer, Withdrawals: gone})
		}
		out[i] = r
	}
	return out, nil
}

// importWithdrawals checks the withdrawals of a table of round n: each a
// player of the table, withdrawn once in the tournament, in a game, by the
// organizer's choice, with a reason.
func importWithdrawals(tpath string, tb ExportTable, n int, withdrawn map[string]bool) ([]tournament.GameWithdrawal, error) {
	var out []tournament.GameWithdrawal
	for k, w := range tb.Withdrawals {
		wpath := fmt.Sprintf("%s/withdrawals/%d", tpath, k)
		h := tournament.WithdrawalHandling(w.Handling)
		switch {
		case !slices.Contains(tb.Players, w.Player) || withdrawn[w.Player]:
			return nil, importErr(wpath+"/player", "player %q does not sit at the table or was withdrawn before", w.Player)
		case w.Game < 1 || w.Game > tournament.MaxGamesPerRound:
			return nil, importErr(wpath+"/game", "game %d is not a game of the round", w.Game)
		case h != tournament.WithdrawFinish && h != tournament.WithdrawForfeit:
			return nil, importErr(wpath+"/handling", "handling is %q, not finish or forfeit", w.Handling)
		case strings.TrimSpace(w.Reason) == "" || tournament.CheckLine("reason", w.Reason, tournament.MaxReason, true) != nil || len(w.By) > tournament.MaxReason:
			return nil, importErr(wpath+"/reason", "a withdrawal has a reason of one line of at most %d characters", tournament.MaxReason)
		}
		withdrawn[w.Player] = true
		out = append(out, tournament.GameWithdrawal{Player: w.Player, Round: n, Table: tb.Number, Game: w.Game, Handling: h,
			Reason: w.Reason, By: w.By, CreatedAt: w.At.UTC()})
	}
	return out, nil
}

// importResults checks every result again with the engine, as a submission
// is checked, and recomputes its places.
func importResults(xs []ExportResult, st *tournament.State) ([]tournament.GameResult, error) {
	seen := map[tournament.GameKey]bool{}
	out := make([]tournament.GameResult, len(xs))
	for i, x := range xs {
		path := fmt.Sprintf("/results/%d", i)
		r, err := importResult(x, st, path)
		if err != nil {
			return nil, err
		}
		if seen[r.Key] {
			return nil, importErr(path, "game %d of table %d in round %d is listed twice", x.Game, x.Table, x.Round)
		}
		seen[r.Key] = true
		out[i] = r
	}
	return out, nil
}

// importResult checks one result row of the file at path.
func importResult(x ExportResult, st *tournament.State, path string) (tournament.GameResult, error) {
	k := tournament.GameKey{Round: x.Round, Table: x.Table, Game: x.Game}
	tb, err := gameIn(st, path, x.Round, x.Table, x.Game)
	if err != nil {
		return tournament.GameResult{}, err
	}
	by := x.SubmittedBy
	if by == "" {
		by = "import"
	}
	res, err := play.JudgeResult(x.Record, tb, k, &st.Tournament, tournament.ResultSubmission, by, x.CreatedAt.UTC())
	if err != nil {
		return tournament.GameResult{}, importErr(path+"/record", "%s", tournament.ErrorMessage(err))
	}
	return *res, nil
}

func importOutcomes(xs []ExportOutcome, st *tournament.State) ([]tournament.Outcome, error) {
	out := make([]tournament.Outcome, len(xs))
	for i, x := range xs {
		if x.Round < 1 || x.Round > len(st.Rounds) || st.Rounds[x.Round-1].Status != tournament.RoundClosed {
			return nil, importErr(fmt.Sprintf("/outcomes/%d", i), "round %d is not a closed round", x.Round)
		}
		if tb, ok := st.Rounds[x.Round-1].TableOf(x.Player); !ok || tb.Number != x.Table {
			return nil, importErr(fmt.Sprintf("/outcomes/%d", i), "player %q did not sit at table %d of round %d", x.Player, x.Table, x.Round)
		}
		out[i] = tournament.Outcome{Round: x.Round, Table: x.Table, Player: x.Player, Rank: x.Rank, Advanced: x.Advanced}
	}
	return out, nil
}

func importResolutions(xs []ExportResolution, st *tournament.State) ([]tournament.TieResolution, error) {
	out := make([]tournament.TieResolution, len(xs))
	for i, x := range xs {
		if x.Round < 1 || x.Round > len(st.Rounds) || (x.Method != tournament.TieByLot && x.Method != tournament.TieByChoice) || len(x.Players) < 2 {
			return nil, importErr(fmt.Sprintf("/tie_resolutions/%d", i), "a resolution names a round, lot or choice, and 2 to 4 players")
		}
		out[i] = tournament.TieResolution{Round: x.Round, Players: slices.Clone(x.Players), Method: x.Method, Note: x.Note,
			By: x.By, CreatedAt: x.CreatedAt.UTC()}
	}
	return out, nil
}
