package postgres_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/postgres"
)

func sheet(p string, h1, h2 int) []byte {
	return []byte(fmt.Sprintf(`{"sheet":{%q:{"hand1":%d,"hand2":%d,"last_trick":5}}}`, p, h1, h2))
}

// TestStoreDealCorrections keeps every version of a corrected deal: the
// deal as first entered stays in game_deals, the corrections in
// deal_corrections, and the game reads the latest; a correction that
// changes nothing writes nothing.
func TestStoreDealCorrections(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Corrections", Format: tournament.FormatSwiss, Rounds: intp(1), GamesPerRound: intp(1)}, 4)
	tid := c.Tournament.ID
	r := e.mustDraw(t, tid, 1)
	p := r.Tables[0].Players
	k := tournament.GameKey{TournamentID: tid, Round: 1, Table: 1, Game: 1}
	if _, err := e.plays.AppendDealAt(e.ctx, org, k, 1, sheet(p[1], 2, 0)); err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{2, 3, 3} {
		who := p[i%2]
		if i == 2 {
			who = p[1]
		}
		got, err := e.plays.CorrectDeal(e.ctx, org, k, 1, sheet(who, 6, 6), fmt.Sprintf("fix %d", i))
		if err != nil {
			t.Fatalf("correction %d: %v", i+1, err)
		}
		if got.Version != want {
			t.Errorf("correction %d = version %d, want %d", i+1, got.Version, want)
		}
	}
	var firsts, corrections int
	if err := e.pool.QueryRow(e.ctx, `SELECT (SELECT count(*) FROM game_deals WHERE tournament_id = $1),
		(SELECT count(*) FROM deal_corrections WHERE tournament_id = $1)`, tid).Scan(&firsts, &corrections); err != nil {
		t.Fatal(err)
	}
	if firsts != 1 || corrections != 2 {
		t.Errorf("stored %d first deals and %d corrections, want 1 and 2", firsts, corrections)
	}
	g, err := e.store.TableGame(e.ctx, k)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Sheet map[string]any `json:"sheet"`
	}
	if err := json.Unmarshal(g.Deals[0].Deal, &d); err != nil || len(g.Deals) != 1 || g.Deals[0].Version != 3 || d.Sheet[p[1]] == nil {
		t.Errorf("TableGame deals = %+v, want one deal, version 3, %s's", g.Deals, p[1])
	}
	deals, over, err := e.store.Deals(e.ctx, k)
	if err != nil || over || len(deals) != 1 || string(deals[0]) != string(g.Deals[0].Deal) {
		t.Errorf("Deals = %s, %v, %v; want the latest version", deals, over, err)
	}
	var reasons []string
	rows, err := e.pool.Query(e.ctx, `SELECT reason FROM audit_log WHERE tournament_id = $1 AND kind = 'deal_corrections' ORDER BY id`, tid)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		reasons = append(reasons, s)
	}
	if len(reasons) != 2 || reasons[0] != "fix 0" || reasons[1] != "fix 1" {
		t.Errorf("audit reasons = %q, want [fix 0 fix 1]", reasons)
	}
}

// TestStoreConfirmations stores one confirmation per player and result,
// and none for a game without a result.
func TestStoreConfirmations(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Confirmations", Format: tournament.FormatSwiss, Rounds: intp(1), GamesPerRound: intp(1)}, 4)
	tid := c.Tournament.ID
	r := e.mustDraw(t, tid, 1)
	p := r.Tables[0].Players
	k := tournament.GameKey{TournamentID: tid, Round: 1, Table: 1, Game: 1}
	table := tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: 1}
	if _, err := e.plays.ConfirmGame(e.ctx, table, k, p[0]); tournament.ErrorCode(err) != "game_not_finished" {
		t.Fatalf("confirming a game without a result = %v, want game_not_finished", err)
	}
	for n := 1; n <= 4; n++ {
		if _, err := e.plays.AppendDealAt(e.ctx, table, k, n, sheet(p[0], 6, 6)); err != nil {
			t.Fatal(err)
		}
	}
	for i, pl := range append(p, p[0]) {
		got, err := e.plays.ConfirmGame(e.ctx, table, k, pl)
		if err != nil {
			t.Fatal(err)
		}
		if got.Created != (i < 4) || got.Confirmed != (i >= 3) {
			t.Errorf("confirmation %d = created %v confirmed %v", i+1, got.Created, got.Confirmed)
		}
	}
	var n int
	if err := e.pool.QueryRow(e.ctx, `SELECT count(*) FROM game_confirmations WHERE tournament_id = $1`, tid).Scan(&n); err != nil || n != 4 {
		t.Errorf("stored %d confirmations (%v), want 4", n, err)
	}
	if _, err := e.plays.CorrectDeal(e.ctx, table, k, 4, sheet(p[0], 6, 5), "x"); tournament.ErrorCode(err) != "game_confirmed" {
		t.Errorf("correcting a confirmed game = %v, want game_confirmed", err)
	}
	if _, err := e.plays.CloseRound(e.ctx, org, tid, 1); err != nil {
		t.Errorf("closing a round whose games are all confirmed: %v", err)
	}
}

// TestStoreRoundClock stores the clock's states and reads time called
// with the table.
func TestStoreRoundClock(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Clock", Format: tournament.FormatSwiss, Rounds: intp(1), GamesPerRound: intp(1)}, 4)
	tid := c.Tournament.ID
	e.mustDraw(t, tid, 1)
	if _, err := e.store.RoundClock(e.ctx, tid, 2); tournament.ErrorCode(err) != "round_not_found" {
		t.Errorf("clock of round 2 = %v, want round_not_found", err)
	}
	if _, err := e.store.RoundClock(e.ctx, "nope", 1); tournament.ErrorCode(err) != "tournament_not_found" {
		t.Errorf("clock of an unknown tournament = %v, want tournament_not_found", err)
	}
	for _, act := range []play.ClockAction{{Action: "start", Minutes: 20}, {Action: "pause"}, {Action: "add", Minutes: 3}} {
		if _, err := e.plays.SetRoundClock(e.ctx, org, tid, 1, act); err != nil {
			t.Fatalf("%+v: %v", act, err)
		}
	}
	clk, err := e.store.RoundClock(e.ctx, tid, 1)
	if err != nil {
		t.Fatal(err)
	}
	// The service's clock moves a second at each reading: 20 minutes less
	// a second or two, then 3 more.
	if clk.State != tournament.ClockPaused || clk.Remaining < 22*time.Minute+50*time.Second || clk.Remaining > 23*time.Minute {
		t.Errorf("clock = %s with %v left, want paused with about 23 minutes", clk.State, clk.Remaining)
	}
	_, rd, err := e.store.Table(e.ctx, tid, 1, 1)
	if err != nil || rd.TimeCalled {
		t.Fatalf("Table before time is called: time called %v, %v", rd.TimeCalled, err)
	}
	if _, err := e.plays.SetRoundClock(e.ctx, org, tid, 1, play.ClockAction{Action: "call_time"}); err != nil {
		t.Fatal(err)
	}
	if _, rd, err = e.store.Table(e.ctx, tid, 1, 1); err != nil || !rd.TimeCalled {
		t.Errorf("Table after time is called: time called %v, %v", rd.TimeCalled, err)
	}
	var entries int
	if err := e.pool.QueryRow(e.ctx, `SELECT count(*) FROM audit_log WHERE tournament_id = $1 AND kind = 'round_clocks'`, tid).Scan(&entries); err != nil || entries != 4 {
		t.Errorf("audit has %d clock entries (%v), want 4", entries, err)
	}
}

// TestStoreUndoCallTime: a call of time is undone with a reason (the
// clock running again to its old end, the reason in the audit log); once a
// game has ended since a call, the call stands.
func TestStoreUndoCallTime(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Undo", Format: tournament.FormatSwiss, Rounds: intp(1), GamesPerRound: intp(1)}, 4)
	tid := c.Tournament.ID
	r := e.mustDraw(t, tid, 1)
	started, err := e.plays.SetRoundClock(e.ctx, org, tid, 1, play.ClockAction{Action: "start", Minutes: 20})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.plays.SetRoundClock(e.ctx, org, tid, 1, play.ClockAction{Action: "call_time"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.plays.SetRoundClock(e.ctx, org, tid, 1, play.ClockAction{Action: "undo_call_time"}); tournament.ErrorCode(err) != "invalid_reason" {
		t.Errorf("undo without a reason = %v, want invalid_reason", err)
	}
	undone, err := e.plays.SetRoundClock(e.ctx, org, tid, 1, play.ClockAction{Action: "undo_call_time", Reason: "called a round early"})
	if err != nil {
		t.Fatal(err)
	}
	clk, err := e.store.RoundClock(e.ctx, tid, 1)
	if err != nil || clk.State != tournament.ClockRunning || !clk.EndsAt.Equal(*started.EndsAt) || clk.Prior != nil || undone.Action != "undo_call_time" {
		t.Fatalf("clock after the undo = %+v, %v; want running to %v", clk, err, started.EndsAt)
	}
	var reason, by string
	if err := e.pool.QueryRow(e.ctx, `SELECT reason, actor_role FROM audit_log WHERE tournament_id = $1 AND kind = 'round_clocks' ORDER BY id DESC LIMIT 1`, tid).Scan(&reason, &by); err != nil || reason != "called a round early" || by != "organizer" {
		t.Errorf("the undo's audit entry: reason %q by %q (%v), want the reason by the organizer", reason, by, err)
	}
	if _, err := e.plays.SetRoundClock(e.ctx, org, tid, 1, play.ClockAction{Action: "call_time"}); err != nil {
		t.Fatal(err)
	}
	tb := r.Tables[0]
	k := tournament.GameKey{TournamentID: tid, Round: 1, Table: tb.Number, Game: 1}
	table := tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: tb.Number}
	if p, err := e.plays.AppendDealAt(e.ctx, table, k, 1, sheet(tb.Players[0], 6, 6)); err != nil || !p.EndedByTime {
		t.Fatalf("a deal after the call: %+v, %v; want the game ended by time", p, err)
	}
	if _, err := e.plays.SetRoundClock(e.ctx, org, tid, 1, play.ClockAction{Action: "undo_call_time", Reason: "oops"}); tournament.ErrorCode(err) != tournament.CodeClockUndoGamesEnded {
		t.Errorf("undo after a game ended by the call = %v, want %s", err, tournament.CodeClockUndoGamesEnded)
	}
}

// TestStoreTableGamesOfARound reads every game of a round with its own
// result and confirmations, however many games the round has.
func TestStoreTableGamesOfARound(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Round", Format: tournament.FormatSwiss, Rounds: intp(1), GamesPerRound: intp(2)}, 12)
	tid := c.Tournament.ID
	r := e.mustDraw(t, tid, 1)
	want := map[[2]int]int{} // confirmations by table and game
	for _, tb := range r.Tables {
		table := tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: tb.Number}
		for g := 1; g <= 2; g++ {
			k := tournament.GameKey{TournamentID: tid, Round: 1, Table: tb.Number, Game: g}
			for n := 1; n <= 4; n++ {
				if _, err := e.plays.AppendDealAt(e.ctx, table, k, n, sheet(tb.Players[g], 6, 6)); err != nil {
					t.Fatal(err)
				}
			}
			for _, p := range tb.Players[:tb.Number] {
				if _, err := e.plays.ConfirmGame(e.ctx, table, k, p); err != nil {
					t.Fatal(err)
				}
			}
			want[[2]int{tb.Number, g}] = tb.Number
		}
	}
	games, err := e.store.TableGames(e.ctx, tid, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 2*len(r.Tables) {
		t.Fatalf("TableGames = %d games, want %d", len(games), 2*len(r.Tables))
	}
	for _, g := range games {
		k := [2]int{g.Key.Table, g.Key.Game}
		if len(g.Deals) != 4 || g.Result == nil || len(g.Confirmations) != want[k] {
			t.Errorf("table %d game %d = %d deals, result %v, %d confirmations; want 4, a result, %d", k[0], k[1], len(g.Deals), g.Result != nil, len(g.Confirmations), want[k])
		}
		for _, c := range g.Confirmations {
			if c.ResultID != g.Result.ID {
				t.Errorf("table %d game %d: a confirmation of result %d under result %d", k[0], k[1], c.ResultID, g.Result.ID)
			}
		}
	}
	if _, err := e.plays.CloseRound(e.ctx, org, tid, 1); tournament.ErrorCode(err) != "unconfirmed_games" {
		t.Errorf("closing with games confirmed by some players = %v, want unconfirmed_games", err)
	}
}

// TestStoreConfirmAnswer stores a confirmation's prepared answer under its
// Idempotency-Key with the confirmation (one transaction), and only when
// the insert goes as the store's read under the game's lock foretold: a
// confirmation of the same player that slips in beside the lock (here
// inserted while check runs) leaves the answer to the API, unstored.
func TestStoreConfirmAnswer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Answers", Format: tournament.FormatSwiss, Rounds: intp(1), GamesPerRound: intp(1)}, 4)
	tid := c.Tournament.ID
	p := e.mustDraw(t, tid, 1).Tables[0].Players
	k := tournament.GameKey{TournamentID: tid, Round: 1, Table: 1, Game: 1}
	for n := 1; n <= 4; n++ {
		if _, err := e.plays.AppendDealAt(e.ctx, org, k, n, sheet(p[0], 6, 6)); err != nil {
			t.Fatal(err)
		}
	}
	idem := postgres.NewIdempotency(e.pool, time.Hour, time.Minute)
	ctx := tournament.WithAuditActor(e.ctx, tournament.AuditActor{Role: tournament.RoleTable, Token: "table:1/1"})
	confirm := func(key, player string, beside bool) (created, answered bool, stored []byte) {
		t.Helper()
		if s, err := idem.Claim(ctx, "POST /confirmations", key, []byte(player)); err != nil || s != nil {
			t.Fatal(s, err)
		}
		_, created, answered, err := idem.ConfirmGameAnswered(ctx, k, tournament.Confirmation{Player: player, ConfirmedBy: "table:1/1", At: t0},
			func(g *tournament.TableGame) (*tournament.Confirmed, error) {
				if !beside {
					return nil, nil
				}
				_, err := e.pool.Exec(e.ctx, `WITH act AS (SELECT set_config('revisor.actor_role', 'table', true) AS r)
					INSERT INTO game_confirmations (tournament_id, round, table_no, game, result_id, player_id, confirmed_by, created_at)
					SELECT $1, 1, 1, 1, $2, $3, 'beside', $4 FROM act`, tid, g.Result.ID, player, t0)
				return nil, err
			}, "POST /confirmations", key, func(*tournament.Confirmed) ([]byte, error) { return []byte("answer to " + key), nil })
		if err != nil {
			t.Fatal(err)
		}
		if err := e.pool.QueryRow(e.ctx, `SELECT response FROM idempotency_keys WHERE key = $1`, key).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		return created, answered, stored
	}
	if created, answered, stored := confirm("first", p[0], false); !created || !answered || string(stored) != "answer to first" {
		t.Errorf("a new confirmation = created %v, answered %v, stored %q; want the answer stored with it", created, answered, stored)
	}
	if created, answered, stored := confirm("again", p[0], false); created || !answered || string(stored) != "answer to again" {
		t.Errorf("a repeated confirmation = created %v, answered %v, stored %q; want nothing created, the answer stored", created, answered, stored)
	}
	if created, answered, stored := confirm("beside", p[1], true); created || answered || stored != nil {
		t.Errorf("a confirmation beside the lock = created %v, answered %v, stored %q; want no answer stored", created, answered, stored)
	}
}
