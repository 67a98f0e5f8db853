package postgres_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/transfer"
)

// playDeals enters deals at a table deal by deal: each gives scorer 17
// points (hand1 6, hand2 6, last trick 5).
func (e *env) playDeals(tb testing.TB, k tournament.GameKey, scorer string, deals int) *tournament.DealProgress {
	tb.Helper()
	var p *tournament.DealProgress
	for range deals {
		var err error
		if p, err = e.plays.AppendDeal(e.ctx, org, k, sheet(scorer, 6, 6)); err != nil {
			tb.Fatalf("AppendDeal(%+v): %v", k, err)
		}
	}
	return p
}

func placeOf(t *testing.T, res *tournament.GameResult, pid string) tournament.GamePlace {
	t.Helper()
	i := slices.IndexFunc(res.Places, func(p tournament.GamePlace) bool { return p.Player == pid })
	if i < 0 {
		t.Fatalf("%s has no place in %+v", pid, res.Places)
	}
	return res.Places[i]
}

// TestWithdrawDuringGame: a player leaves during game 1 of a table; under
// "finish" the others play on, the player keeps the total they had, is
// placed last with the last place's points, and in game 2 (not played) is
// last with nothing; under "forfeit" nothing in either game. The others
// close up. The choice, who made it and why are in the audit log, the
// player is withdrawn, the standings and the confirmations follow.
func TestWithdrawDuringGame(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Ill", Format: tournament.FormatSwiss, Rounds: intp(2), GamesPerRound: intp(2)}, 8)
	tid := c.Tournament.ID
	r := e.mustDraw(t, tid, 7)
	for _, tc := range []struct {
		table    int
		handling tournament.WithdrawalHandling
		points   int // the withdrawn player's placement points in game 1
		score    int
	}{{1, tournament.WithdrawFinish, 5, 17}, {2, tournament.WithdrawForfeit, 0, 0}} {
		p := r.Tables[tc.table-1].Players
		k := tournament.GameKey{TournamentID: tid, Round: 1, Table: tc.table, Game: 1}
		e.playDeals(t, k, p[3], 1) // the player who will leave has 17
		w, err := e.plays.WithdrawDuringGame(e.ctx, org, tid, 1, tc.table, play.Withdrawal{Player: p[3], Handling: tc.handling, Reason: " taken ill "})
		if err != nil || w.Game != 1 || w.Reason != "taken ill" || w.By != "organizer" {
			t.Fatalf("WithdrawDuringGame = %+v, %v", w, err)
		}
		g1 := e.playDeals(t, k, p[0], 4).Final // 68: the game is over
		if g1 == nil {
			t.Fatal("game 1 not over after 85 points")
		}
		for pid, want := range map[string]tournament.GamePlace{
			p[0]: {Place: 1, Points: 20, Score: 68},
			p[1]: {Place: 2, Points: 12}, p[2]: {Place: 2, Points: 12},
			p[3]: {Place: 4, Points: tc.points, Score: tc.score, Forfeit: tc.handling == tournament.WithdrawForfeit},
		} {
			want.Player = pid
			if got := placeOf(t, g1, pid); got != want {
				t.Errorf("table %d (%s) game 1: %s = %+v, want %+v", tc.table, tc.handling, pid, got, want)
			}
		}
		g2 := e.playDeals(t, tournament.GameKey{TournamentID: tid, Round: 1, Table: tc.table, Game: 2}, p[1], 4).Final
		if got := placeOf(t, g2, p[3]); got.Place != 4 || got.Points != 0 || got.Score != 0 {
			t.Errorf("table %d game 2 (not played): %s = %+v, want last with nothing", tc.table, p[3], got)
		}
		if got := placeOf(t, g2, p[0]); got.Place != 2 {
			t.Errorf("table %d game 2: %s = %+v, want place 2 (the withdrawn player had been placed ahead)", tc.table, p[0], got)
		}
	}
	_, rows, err := e.svc.Standings(e.ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range rows {
		for _, tc := range []struct {
			table, points int
		}{{1, 5}, {2, 0}} {
			if row.Player.ID == r.Tables[tc.table-1].Players[3] && (row.PlacementPoints != tc.points || row.Player.Status != tournament.PlayerWithdrawn) {
				t.Errorf("standings of the player who left table %d = %+v, want %d points, withdrawn", tc.table, row, tc.points)
			}
		}
	}
	ws, err := e.referees.Audit(e.ctx, tid, tournament.AuditFilter{Kind: "game_withdrawals", Limit: 10})
	if err != nil || len(ws) != 2 || ws[0].Reason != "taken ill" || ws[0].Token != "organizer" || ws[0].Table != 1 {
		t.Fatalf("audit of the withdrawals = %+v, %v; want two with the reason and the organizer", ws, err)
	}
	if _, err := e.pool.Exec(e.ctx, `UPDATE game_withdrawals SET handling = 'finish'`); err == nil {
		t.Error("a withdrawal could be changed")
	}
	// Closing needs no confirmation from a player who left: games entered
	// by the organizer need none anyway, so ask the confirmations directly.
	rd, err := e.store.Round(e.ctx, tid, 1)
	if err != nil {
		t.Fatal(err)
	}
	if tb, _ := rd.Table(1); len(tb.Withdrawals) != 1 || len(tb.Present(1)) != 3 || len(tb.Present(0)) != 4 {
		t.Errorf("table 1 as read = %+v; want one withdrawal, three present from game 1", tb)
	}
}

// TestWithdrawDuringGameRefused: bad input, wrong roles, a player not at
// the table or not active, a table with every game played, a table left with one player;
// nothing is written by a refusal.
func TestWithdrawDuringGameRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Refused", Format: tournament.FormatSwiss, Rounds: intp(2), GamesPerRound: intp(1)}, 8)
	tid := c.Tournament.ID
	r := e.mustDraw(t, tid, 3)
	p1, p2 := r.Tables[0].Players, r.Tables[1].Players
	ok := play.Withdrawal{Player: p1[0], Handling: tournament.WithdrawFinish, Reason: "ill"}
	table := tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: 1}
	for _, tc := range []struct {
		what string
		a    tournament.Actor
		t    int
		w    play.Withdrawal
		code string
	}{
		{"the table's code", table, 1, ok, "organizer_only"},
		{"the public", tournament.Actor{Role: tournament.RolePublic}, 1, ok, "token_required"},
		{"no reason", org, 1, play.Withdrawal{Player: p1[0], Handling: tournament.WithdrawFinish, Reason: " "}, "invalid_reason"},
		{"an unknown handling", org, 1, play.Withdrawal{Player: p1[0], Handling: "pause", Reason: "x"}, "invalid_handling"},
		{"no player", org, 1, play.Withdrawal{Handling: tournament.WithdrawFinish, Reason: "x"}, "invalid_player"},
		{"an unknown player", org, 1, play.Withdrawal{Player: "p999", Handling: tournament.WithdrawFinish, Reason: "x"}, "player_not_found"},
		{"a player of another table", org, 1, play.Withdrawal{Player: p2[0], Handling: tournament.WithdrawFinish, Reason: "x"}, "player_not_at_table"},
		{"an unknown table", org, 9, ok, "table_not_found"},
		{"an unknown round", org, 1, ok, ""},
	} {
		n := 1
		if tc.code == "" {
			n, tc.code = 5, "round_not_found"
		}
		_, err := e.plays.WithdrawDuringGame(e.ctx, tc.a, tid, n, tc.t, tc.w)
		wantCode(t, tc.what, err, tc.code)
	}
	e.playDeals(t, tournament.GameKey{TournamentID: tid, Round: 1, Table: 2, Game: 1}, p2[0], 4)
	_, err := e.plays.WithdrawDuringGame(e.ctx, org, tid, 1, 2, play.Withdrawal{Player: p2[1], Handling: tournament.WithdrawForfeit, Reason: "x"})
	wantCode(t, "a table whose games are over", err, "no_game_in_progress")
	if _, err := e.plays.WithdrawDuringGame(e.ctx, org, tid, 1, 1, ok); err != nil {
		t.Fatal(err)
	}
	_, err = e.plays.WithdrawDuringGame(e.ctx, org, tid, 1, 1, ok)
	wantCode(t, "a player withdrawn already", err, "invalid_status_change")
	if _, err := e.plays.WithdrawDuringGame(e.ctx, org, tid, 1, 1, play.Withdrawal{Player: p1[1], Handling: tournament.WithdrawFinish, Reason: "x"}); err != nil {
		t.Fatalf("a second player leaving, two stay: %v", err)
	}
	_, err = e.plays.WithdrawDuringGame(e.ctx, org, tid, 1, 1, play.Withdrawal{Player: p1[2], Handling: tournament.WithdrawFinish, Reason: "x"})
	wantCode(t, "a table left with one player", err, "too_few_players")
	var n int
	if err := e.pool.QueryRow(e.ctx, `SELECT count(*) FROM game_withdrawals WHERE tournament_id = $1`, tid).Scan(&n); err != nil || n != 2 {
		t.Errorf("%d withdrawals stored (%v), want the two accepted", n, err)
	}
}

// TestExportImportWithdrawals: a tournament with players withdrawn during
// a game (one finish, one forfeit) exports and imports to the same tables,
// withdrawals and standings; an import naming a player not at the table is
// refused at that place.
func TestExportImportWithdrawals(t *testing.T) {
	t.Parallel()
	src := newEnv(t)
	c, _ := src.mustTournament(t, tournament.NewTournament{Name: "Ill", Format: tournament.FormatSwiss, Rounds: intp(2), GamesPerRound: intp(2)}, 8)
	tid := c.Tournament.ID
	r := src.mustDraw(t, tid, 7)
	for i, h := range []tournament.WithdrawalHandling{tournament.WithdrawFinish, tournament.WithdrawForfeit} {
		p := r.Tables[i].Players
		k := tournament.GameKey{TournamentID: tid, Round: 1, Table: i + 1, Game: 1}
		src.playDeals(t, k, p[3], 1)
		if _, err := src.plays.WithdrawDuringGame(src.ctx, org, tid, 1, i+1, play.Withdrawal{Player: p[3], Handling: h, Reason: "taken ill"}); err != nil {
			t.Fatal(err)
		}
		src.playDeals(t, k, p[0], 4)
	}
	ex, err := src.transfer().Export(src.ctx, org, tid)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(ex)
	if err != nil {
		t.Fatal(err)
	}
	var back transfer.Export
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if w := back.Rounds[0].Tables[1].Withdrawals; len(w) != 1 || w[0].Handling != "forfeit" || w[0].Reason != "taken ill" {
		t.Fatalf("exported withdrawals of table 2 = %+v, want the forfeit", w)
	}
	dst := newEnv(t)
	created, err := dst.transfer().Import(dst.ctx, admin, &back)
	if err != nil {
		t.Fatalf("Import: %v", err)
	}
	_, want, _ := src.svc.Standings(src.ctx, tid)
	_, got, _ := dst.svc.Standings(dst.ctx, created.Tournament.ID)
	for i := range want {
		want[i].Player.TournamentID, got[i].Player.TournamentID = "", ""
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("standings after import differ:\ngot  %+v\nwant %+v", got, want)
	}
	a, _ := src.plays.Round(src.ctx, tid, 1)
	b, _ := dst.plays.Round(dst.ctx, created.Tournament.ID, 1)
	if !reflect.DeepEqual(a.Round.Tables, b.Round.Tables) {
		t.Errorf("round 1's tables after import:\ngot  %+v\nwant %+v", b.Round.Tables, a.Round.Tables)
	}
	bad := back
	bad.Rounds = append([]transfer.ExportRound(nil), back.Rounds...)
	bad.Rounds[0].Tables = append([]transfer.ExportTable(nil), back.Rounds[0].Tables...)
	bad.Rounds[0].Tables[0].Withdrawals = []transfer.ExportWithdrawal{{Player: r.Tables[1].Players[0], Game: 1, Handling: "finish", Reason: "ill"}}
	_, err = dst.transfer().Import(dst.ctx, admin, &bad)
	if tournament.ErrorCode(err) != tournament.CodeInvalidImport || !strings.Contains(err.Error(), "/rounds/0/tables/0/withdrawals/0/player") {
		t.Errorf("import of a withdrawal of a player from another table = %v, want invalid_import at its place", err)
	}
}
