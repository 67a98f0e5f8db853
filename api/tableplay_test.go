package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// line is a score-sheet line in which player p wins the hands worth h1
// and h2 and the last trick.
func line(p string, h1, h2 int) map[string]any {
	src := map[string]int{"hand1": h1, "last_trick": 5}
	if h2 > 0 {
		src["hand2"] = h2
	}
	return map[string]any{"sheet": map[string]any{p: src}}
}

// tableGame is a one-table tournament (4 players, one game a round) with
// round 1 drawn.
type tableGame struct {
	s    *testServer
	tt   tTournament
	tb   tTable
	game string // the game's path
}

func newTableGame(t *testing.T) *tableGame {
	t.Helper()
	s := startRefereeServer(t).testServer
	tt := s.createTournament(t, `{"name":"At the table","format":"swiss","rounds":2,"games_per_round":1}`)
	s.importPlayers(t, tt, 4)
	rd := s.draw(t, tt, 1)
	return &tableGame{s: s, tt: tt, tb: rd.Tables[0], game: gamePath(tt.ID, 1, rd.Tables[0].Number, 1)}
}

// tDeal is the answer to an appended or corrected deal.
type tDeal struct {
	Deal     int            `json:"deal"`
	Version  int            `json:"version"`
	Scores   map[string]int `json:"scores"`
	GameOver bool           `json:"game_over"`
	EndedBy  string         `json:"ended_by"`
	Game     *struct {
		ID     string `json:"id"`
		Kind   string `json:"kind"`
		Places []struct {
			Player string `json:"player"`
			Place  int    `json:"place"`
		} `json:"places"`
	} `json:"game"`
}

func (g *tableGame) deal(t *testing.T, want, n int, d any) tDeal {
	t.Helper()
	var out tDeal
	g.s.must(t, want, &out, "POST", fmt.Sprintf("%s/deals?deal=%d", g.game, n), g.tb.Code, d)
	return out
}

func (g *tableGame) correct(t *testing.T, want, n int, d any, reason string) tDeal {
	t.Helper()
	var out tDeal
	g.s.must(t, want, &out, "PUT", fmt.Sprintf("%s/deals/%d", g.game, n), g.tb.Code, map[string]any{"deal": d, "reason": reason})
	return out
}

type tConfirmed struct {
	Player        string `json:"player"`
	ResultID      string `json:"result_id"`
	Confirmed     bool   `json:"confirmed"`
	Confirmations []struct {
		Player string `json:"player"`
	} `json:"confirmations"`
}

func (g *tableGame) confirm(t *testing.T, want int, player string) tConfirmed {
	t.Helper()
	var out tConfirmed
	g.s.must(t, want, &out, "POST", g.game+"/confirmations", g.tb.Code, map[string]string{"player": player})
	return out
}

// TestCorrectDealsAndConfirm plays a game at the table: a wrong deal is
// corrected while the game goes on, the finished game is corrected (its
// result superseded, the confirmations before it no longer count),
// every player confirms, and from then on nothing is corrected; closing
// the round waits for the confirmations.
func TestCorrectDealsAndConfirm(t *testing.T) {
	t.Parallel()
	g := newTableGame(t)
	s, p := g.s, g.tb.Players
	a, b, c := p[0], p[1], p[2]

	g.deal(t, http.StatusCreated, 1, line(c, 2, 0))
	if d := g.correct(t, http.StatusCreated, 1, line(a, 6, 6), "A won both hands, not C"); d.Version != 2 || d.Scores[a] != 17 || d.Scores[c] != 0 {
		t.Fatalf("correcting deal 1 = version %d scores %v, want version 2 and A 17, C 0", d.Version, d.Scores)
	}
	if d := g.correct(t, http.StatusOK, 1, line(a, 6, 6), "again"); d.Version != 2 {
		t.Errorf("the same correction again = version %d, want 2 (nothing written)", d.Version)
	}
	resp, body := s.call(t, "POST", g.game+"/confirmations", g.tb.Code, map[string]string{"player": a})
	wantProblem(t, "confirming a game in progress", resp, body, http.StatusConflict, "game_not_finished")

	g.deal(t, http.StatusCreated, 2, line(b, 2, 0))
	g.deal(t, http.StatusCreated, 3, line(a, 6, 6))
	g.deal(t, http.StatusCreated, 4, line(a, 6, 6))
	last := g.deal(t, http.StatusCreated, 5, line(a, 6, 6))
	if !last.GameOver || last.EndedBy != "target" || last.Game == nil {
		t.Fatalf("deal 5 = game over %v ended by %q game %v, want over by target with the result", last.GameOver, last.EndedBy, last.Game)
	}
	if got := g.confirm(t, http.StatusCreated, a); got.Confirmed || len(got.Confirmations) != 1 {
		t.Errorf("A confirms = confirmed %v, %d confirmations; want not yet confirmed, 1", got.Confirmed, len(got.Confirmations))
	}
	g.confirm(t, http.StatusOK, a) // a repeat is harmless

	// Correcting the finished game: B's deal 2 was C's.
	corr := g.correct(t, http.StatusCreated, 2, line(c, 2, 0), "the pair was C's")
	if corr.Game == nil || corr.Game.Kind != "table_correction" || corr.Game.ID == last.Game.ID || !corr.GameOver {
		t.Fatalf("correcting the finished game = %+v, want a new table_correction result", corr.Game)
	}
	var got struct {
		Kind          string `json:"kind"`
		Confirmations []any  `json:"confirmations"`
		Confirmed     bool   `json:"confirmed"`
		Places        []struct {
			Player string `json:"player"`
			Place  int    `json:"place"`
		} `json:"places"`
	}
	s.must(t, http.StatusOK, &got, "GET", g.game, "", nil)
	if got.Kind != "table_correction" || len(got.Confirmations) != 0 || got.Confirmed {
		t.Errorf("GET game after the correction = kind %q, %d confirmations, confirmed %v; want table_correction, none, false", got.Kind, len(got.Confirmations), got.Confirmed)
	}
	for _, pl := range got.Places {
		if pl.Player == c && pl.Place != 2 {
			t.Errorf("C's place after the correction = %d, want 2", pl.Place)
		}
	}

	// Corrections the engine or the rules refuse.
	resp, body = s.call(t, "PUT", g.game+"/deals/5", g.tb.Code, map[string]any{"deal": line(b, 2, 0), "reason": "x"})
	wantProblem(t, "a correction that reopens the game", resp, body, http.StatusUnprocessableEntity, "correction_reopens_game")
	resp, body = s.call(t, "PUT", g.game+"/deals/2", g.tb.Code, map[string]any{"deal": line(a, 6, 6), "reason": "x"})
	wantProblem(t, "a correction that ends the game early", resp, body, http.StatusUnprocessableEntity, "invalid_record")

	resp, body = s.call(t, "POST", closePath(g.tt.ID, 1, ""), g.tt.OrganizerToken, nil)
	wantProblem(t, "closing with unconfirmed games", resp, body, http.StatusConflict, "unconfirmed_games")
	var listed struct {
		Games []struct {
			Table, Game int
			Waiting     []string
		} `json:"games"`
	}
	if err := json.Unmarshal(body, &listed); err != nil || len(listed.Games) != 1 || len(listed.Games[0].Waiting) != 4 {
		t.Errorf("unconfirmed_games = %s, want the game with 4 players waiting", body)
	}
	for i, pl := range p {
		if got := g.confirm(t, http.StatusCreated, pl); got.Confirmed != (i == len(p)-1) {
			t.Errorf("confirmation %d = confirmed %v", i+1, got.Confirmed)
		}
	}
	resp, body = s.call(t, "PUT", g.game+"/deals/2", g.tb.Code, map[string]any{"deal": line(b, 2, 0), "reason": "x"})
	wantProblem(t, "a correction after every confirmation", resp, body, http.StatusConflict, "game_confirmed")
	s.must(t, http.StatusOK, nil, "POST", closePath(g.tt.ID, 1, ""), g.tt.OrganizerToken, nil)

	// Every version is kept, and the audit log has who, when and why.
	var deals struct {
		Deals []struct {
			Deal, Version int
		} `json:"deals"`
		GameOver bool `json:"game_over"`
	}
	s.must(t, http.StatusOK, &deals, "GET", g.game+"/deals", "", nil)
	if len(deals.Deals) != 5 || deals.Deals[0].Version != 2 || deals.Deals[1].Version != 2 || deals.Deals[2].Version != 1 || !deals.GameOver {
		t.Errorf("GET deals = %+v, want 5 deals, deals 1 and 2 in version 2", deals)
	}
	var audit struct {
		Entries []struct {
			Actor  struct{ Role, Token string } `json:"actor"`
			Reason string                       `json:"reason"`
		} `json:"entries"`
	}
	s.must(t, http.StatusOK, &audit, "GET", "/api/v1/tournaments/"+g.tt.ID+"/audit?kind=deal_corrections", g.tt.OrganizerToken, nil)
	if len(audit.Entries) != 2 || audit.Entries[1].Reason != "the pair was C's" || audit.Entries[1].Actor.Role != "table" {
		t.Errorf("audit of corrections = %+v, want 2 entries by the table with their reasons", audit.Entries)
	}
}

func closePath(tid string, n int, query string) string {
	return fmt.Sprintf("/api/v1/tournaments/%s/rounds/%d/close%s", tid, n, query)
}

// TestTablePlayBadInput sends corrections and confirmations that are
// wrong in form or come from the wrong caller.
func TestTablePlayBadInput(t *testing.T) {
	t.Parallel()
	g := newTableGame(t)
	s := g.s
	g.deal(t, http.StatusCreated, 1, line(g.tb.Players[0], 6, 6))
	other := g.s.createTournament(t, `{"name":"Other","format":"swiss","rounds":1,"games_per_round":1}`)
	s.importPlayers(t, other, 4)
	otherCode := s.draw(t, other, 1).Tables[0].Code
	good := map[string]any{"deal": line(g.tb.Players[1], 2, 0), "reason": "typo"}
	cases := []struct {
		what, method, path, token string
		body                      any
		status                    int
		code                      string
	}{
		{"no reason", "PUT", "/deals/1", g.tb.Code, map[string]any{"deal": line(g.tb.Players[1], 2, 0)}, 400, "invalid_reason"},
		{"no deal", "PUT", "/deals/1", g.tb.Code, map[string]any{"reason": "x"}, 400, "invalid_deal"},
		{"deal not an object", "PUT", "/deals/1", g.tb.Code, map[string]any{"deal": 7, "reason": "x"}, 400, "invalid_deal"},
		{"not JSON", "PUT", "/deals/1", g.tb.Code, "{", 400, "malformed_json"},
		{"reason too long", "PUT", "/deals/1", g.tb.Code, map[string]any{"deal": line(g.tb.Players[1], 2, 0), "reason": strings.Repeat("x", 501)}, 400, "invalid_reason"},
		{"deal 0", "PUT", "/deals/0", g.tb.Code, good, 404, "deal_not_found"},
		{"deal x", "PUT", "/deals/x", g.tb.Code, good, 404, "deal_not_found"},
		{"deal not entered", "PUT", "/deals/2", g.tb.Code, good, 404, "deal_not_found"},
		{"an invalid deal", "PUT", "/deals/1", g.tb.Code, map[string]any{"deal": line("nobody", 2, 0), "reason": "x"}, 422, "invalid_record"},
		{"no token", "PUT", "/deals/1", "", good, 401, "missing_token"},
		{"another tournament's code", "PUT", "/deals/1", otherCode, good, 401, "unknown_token"},
		{"confirm: no player", "POST", "/confirmations", g.tb.Code, map[string]string{}, 400, "invalid_player"},
		{"confirm: player elsewhere", "POST", "/confirmations", g.tb.Code, map[string]string{"player": "p999"}, 422, "player_not_at_table"},
		{"confirm: wrong type", "POST", "/confirmations", g.tb.Code, `{"player":7}`, 400, "invalid_field_type"},
		{"confirm: no token", "POST", "/confirmations", "", map[string]string{"player": g.tb.Players[0]}, 401, "missing_token"},
	}
	for _, c := range cases {
		resp, body := s.call(t, c.method, g.game+c.path, c.token, c.body)
		wantProblem(t, c.what, resp, body, c.status, c.code)
	}
	// The code of another table of the same round is told 403.
	big := newTableGameN(t, 8)
	resp, body := big.s.call(t, "PUT", big.game+"/deals/1", big.codes[1], good)
	wantProblem(t, "another table's code", resp, body, http.StatusForbidden, "wrong_table")
	resp, body = big.s.call(t, "POST", big.game+"/confirmations", big.codes[1], map[string]string{"player": big.tb.Players[0]})
	wantProblem(t, "another table's code confirms", resp, body, http.StatusForbidden, "wrong_table")
}

// bigGame is newTableGame with more tables; codes[i] is table i+1's code.
type bigGame struct {
	tableGame
	codes []string
}

func newTableGameN(t *testing.T, players int) *bigGame {
	t.Helper()
	s := startRefereeServer(t).testServer
	tt := s.createTournament(t, `{"name":"Two tables","format":"swiss","rounds":2,"games_per_round":1}`)
	s.importPlayers(t, tt, players)
	rd := s.draw(t, tt, 1)
	g := &bigGame{tableGame: tableGame{s: s, tt: tt, tb: rd.Tables[0], game: gamePath(tt.ID, 1, rd.Tables[0].Number, 1)}}
	for _, tb := range rd.Tables {
		g.codes = append(g.codes, tb.Code)
	}
	return g
}

// TestRoundClock runs the clock through every action, refuses what does
// not fit, and ends the games in progress by time after their next deal.
func TestRoundClock(t *testing.T) {
	t.Parallel()
	g := newTableGame(t)
	s, org := g.s, g.tt.OrganizerToken
	clock := fmt.Sprintf("/api/v1/tournaments/%s/rounds/1/clock", g.tt.ID)
	type tClock struct {
		State            string  `json:"state"`
		EndsAt           *string `json:"ends_at"`
		RemainingSeconds int     `json:"remaining_seconds"`
		CalledAt         *string `json:"called_at"`
	}
	var c tClock
	s.must(t, http.StatusOK, &c, "GET", clock, "", nil)
	if c.State != "idle" || c.EndsAt != nil || c.RemainingSeconds != 0 {
		t.Errorf("a new clock = %+v, want idle", c)
	}
	bad := []struct {
		what, token string
		body        any
		status      int
		code        string
	}{
		{"pause an idle clock", org, map[string]any{"action": "pause"}, 409, "clock_state"},
		{"start without minutes", org, map[string]any{"action": "start"}, 400, "invalid_minutes"},
		{"start for 2000 minutes", org, map[string]any{"action": "start", "minutes": 2000}, 400, "invalid_minutes"},
		{"an unknown action", org, map[string]any{"action": "stop"}, 400, "invalid_action"},
		{"pause with minutes", org, map[string]any{"action": "pause", "minutes": 3}, 400, "invalid_minutes"},
		{"minutes as text", org, `{"action":"add","minutes":"5"}`, 400, "invalid_field_type"},
		{"a table's code", g.tb.Code, map[string]any{"action": "start", "minutes": 5}, 403, "forbidden"},
		{"no token", "", map[string]any{"action": "start", "minutes": 5}, 401, "missing_token"},
	}
	for _, b := range bad {
		resp, body := s.call(t, "POST", clock, b.token, b.body)
		wantProblem(t, b.what, resp, body, b.status, b.code)
	}
	resp, body := s.call(t, "GET", fmt.Sprintf("/api/v1/tournaments/%s/rounds/9/clock", g.tt.ID), "", nil)
	wantProblem(t, "the clock of an unknown round", resp, body, http.StatusNotFound, "round_not_found")
	resp, body = s.call(t, "GET", "/api/v1/tournaments/nope/rounds/1/clock", "", nil)
	wantProblem(t, "the clock of an unknown tournament", resp, body, http.StatusNotFound, "tournament_not_found")

	steps := []struct {
		body      map[string]any
		state     string
		remaining [2]int // bounds
	}{
		{map[string]any{"action": "start", "minutes": 30}, "running", [2]int{1795, 1800}},
		{map[string]any{"action": "add", "minutes": 5}, "running", [2]int{2095, 2100}},
		{map[string]any{"action": "pause"}, "paused", [2]int{2095, 2100}},
		{map[string]any{"action": "add", "minutes": -10}, "paused", [2]int{1495, 1500}},
		{map[string]any{"action": "resume"}, "running", [2]int{1490, 1500}},
	}
	for _, st := range steps {
		s.must(t, http.StatusOK, &c, "POST", clock, org, st.body)
		if c.State != st.state || c.RemainingSeconds < st.remaining[0] || c.RemainingSeconds > st.remaining[1] {
			t.Errorf("%v = %s with %d s left, want %s with %d-%d s", st.body, c.State, c.RemainingSeconds, st.state, st.remaining[0], st.remaining[1])
		}
	}
	resp, body = s.call(t, "POST", clock, org, map[string]any{"action": "start", "minutes": 5})
	wantProblem(t, "starting a running clock", resp, body, http.StatusConflict, "clock_state")

	// A deal before time is called leaves the game going; the first after
	// it ends the game by time, placed by the totals.
	a, b := g.tb.Players[0], g.tb.Players[1]
	g.deal(t, http.StatusCreated, 1, line(a, 6, 6))
	s.must(t, http.StatusOK, &c, "POST", clock, org, map[string]any{"action": "call_time"})
	if c.State != "time_called" || c.CalledAt == nil || c.RemainingSeconds != 0 {
		t.Errorf("call_time = %+v", c)
	}
	// A call made by mistake is undone, with a reason, by the organizer only.
	resp, body = s.call(t, "POST", clock, org, map[string]any{"action": "undo_call_time"})
	wantProblem(t, "undo without a reason", resp, body, http.StatusBadRequest, "invalid_reason")
	resp, body = s.call(t, "POST", clock, g.tb.Code, map[string]any{"action": "undo_call_time", "reason": "x"})
	wantProblem(t, "undo with a table's code", resp, body, http.StatusForbidden, "forbidden")
	s.must(t, http.StatusOK, &c, "POST", clock, org, map[string]any{"action": "undo_call_time", "reason": "pressed too early"})
	if c.State != "running" || c.CalledAt != nil || c.RemainingSeconds < 1400 {
		t.Errorf("undo_call_time = %+v, want running again", c)
	}
	s.must(t, http.StatusOK, &c, "POST", clock, org, map[string]any{"action": "call_time"})
	d := g.deal(t, http.StatusCreated, 2, line(b, 2, 0))
	if !d.GameOver || d.EndedBy != "time" || d.Game == nil || d.Game.Places[0].Player != a {
		t.Fatalf("the deal after time was called = %+v, want the game over by time, A first", d)
	}
	if again := g.deal(t, http.StatusOK, 2, line(b, 2, 0)); again.EndedBy != "time" || again.Game == nil || again.Game.ID != d.Game.ID {
		t.Errorf("the last deal again = %+v, want the same result, ended by time", again)
	}
	resp, body = s.call(t, "POST", clock, org, map[string]any{"action": "undo_call_time", "reason": "too late"})
	wantProblem(t, "undo after a game ended by the call", resp, body, http.StatusConflict, "clock_undo_games_ended")
	resp, body = s.call(t, "POST", fmt.Sprintf("%s/deals?deal=3", g.game), g.tb.Code, line(a, 2, 0))
	wantProblem(t, "a deal after the game ended by time", resp, body, http.StatusConflict, "game_over")
	var rec struct {
		Record struct {
			EndedBy string `json:"ended_by"`
		} `json:"record"`
	}
	s.must(t, http.StatusOK, &rec, "GET", g.game, "", nil)
	if rec.Record.EndedBy != "time" {
		t.Errorf("stored record ended_by = %q, want time", rec.Record.EndedBy)
	}
	// A correction keeps the game ended by time.
	if corr := g.correct(t, http.StatusCreated, 2, line(g.tb.Players[2], 2, 0), "C had the pair"); corr.EndedBy != "time" || corr.Game == nil {
		t.Errorf("correcting a game ended by time = %+v", corr)
	}
	resp, body = s.call(t, "POST", closePath(g.tt.ID, 1, "?accept_unconfirmed=maybe"), org, nil)
	wantProblem(t, "accept_unconfirmed=maybe", resp, body, http.StatusBadRequest, "invalid_accept_unconfirmed")
	s.must(t, http.StatusOK, nil, "POST", closePath(g.tt.ID, 1, "?accept_unconfirmed=true"), org, nil)
	resp, body = s.call(t, "POST", clock, org, map[string]any{"action": "add", "minutes": 5})
	wantProblem(t, "the clock of a closed round", resp, body, http.StatusConflict, "round_closed")

	var audit struct {
		Entries []json.RawMessage `json:"entries"`
	}
	s.must(t, http.StatusOK, &audit, "GET", "/api/v1/tournaments/"+g.tt.ID+"/audit?kind=round_clocks", org, nil)
	if len(audit.Entries) != 8 {
		t.Errorf("audit has %d clock entries, want 8 (start, add, pause, add, resume, call_time, undo_call_time, call_time)", len(audit.Entries))
	}
}

// TestDisputeNamesDeal opens a dispute that names the disputed deal.
func TestDisputeNamesDeal(t *testing.T) {
	t.Parallel()
	g := newTableGame(t)
	path := "/api/v1/tournaments/" + g.tt.ID + "/disputes"
	var d struct {
		Deal *int `json:"deal"`
	}
	g.s.must(t, http.StatusCreated, &d, "POST", path, g.tb.Code, map[string]any{"round": 1, "table": g.tb.Number, "game": 1,
		"description": "Deal 3 was scored wrong", "deal": 3})
	if d.Deal == nil || *d.Deal != 3 {
		t.Errorf("dispute deal = %v, want 3", d.Deal)
	}
	g.s.must(t, http.StatusCreated, &d, "POST", path, g.tb.Code, map[string]any{"round": 1, "table": g.tb.Number, "game": 1,
		"description": "Something else"})
	if d.Deal != nil {
		t.Errorf("a dispute without deal has deal %d, want null", *d.Deal)
	}
	resp, body := g.s.call(t, "POST", path, g.tb.Code, map[string]any{"round": 1, "table": g.tb.Number, "game": 1,
		"description": "x", "deal": -2})
	wantProblem(t, "a negative deal", resp, body, http.StatusBadRequest, "invalid_deal")
}

// TestRoom shows the organizer every table of the round as it stands.
func TestRoom(t *testing.T) {
	t.Parallel()
	g := newTableGameN(t, 8)
	s, org := g.s, g.tt.OrganizerToken
	a := g.tb.Players[0]
	g.deal(t, http.StatusCreated, 1, line(a, 6, 6))
	g.deal(t, http.StatusCreated, 2, line(a, 6, 6))
	room := fmt.Sprintf("/api/v1/tournaments/%s/rounds/1/room", g.tt.ID)
	var got struct {
		Round  int `json:"round"`
		Clock  struct{ State string }
		Tables []struct {
			Table int `json:"table"`
			Games []struct {
				Deals       int            `json:"deals"`
				Scores      map[string]int `json:"scores"`
				MinutesIdle *int           `json:"minutes_since_last_entry"`
				Over        bool           `json:"over"`
			} `json:"games"`
		} `json:"tables"`
	}
	s.must(t, http.StatusOK, &got, "GET", room, org, nil)
	if len(got.Tables) != 2 || got.Clock.State != "idle" {
		t.Fatalf("room = %+v, want 2 tables and an idle clock", got)
	}
	first, second := got.Tables[0].Games[0], got.Tables[1].Games[0]
	if first.Deals != 2 || first.Scores[a] != 34 || first.MinutesIdle == nil || first.Over {
		t.Errorf("table 1 = %+v, want 2 deals, %s at 34, minutes since the last entry", first, a)
	}
	if second.Deals != 0 || second.MinutesIdle != nil || len(second.Scores) != 4 {
		t.Errorf("table 2 = %+v, want nothing entered and four totals of 0", second)
	}
	for _, c := range []struct {
		what, path, token string
		status            int
		code              string
	}{
		{"a table's code", room, g.codes[0], 403, "forbidden"},
		{"no token", room, "", 401, "missing_token"},
		{"an unknown round", fmt.Sprintf("/api/v1/tournaments/%s/rounds/5/room", g.tt.ID), org, 404, "round_not_found"},
		{"round x", fmt.Sprintf("/api/v1/tournaments/%s/rounds/x/room", g.tt.ID), org, 404, "round_not_found"},
	} {
		resp, body := s.call(t, "GET", c.path, c.token, nil)
		wantProblem(t, c.what, resp, body, c.status, c.code)
	}
}
