package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"
)

// closedRound is a swiss tournament of 4 players (2 rounds, 1 game each)
// whose round 1 was played and closed at the test clock's time.
type closedRound struct {
	s        *refServer
	tt       tTournament
	round    tRound
	ref      tReferee
	closedAt time.Time
}

func newClosedRound(t *testing.T) *closedRound {
	t.Helper()
	s := startRefereeServer(t)
	c := &closedRound{s: s}
	c.tt = s.createTournament(t, `{"name": "Klubbkväll", "format": "swiss", "rounds": 2, "games_per_round": 1}`)
	s.importPlayers(t, c.tt, 4)
	c.round = s.draw(t, c.tt, 11)
	tb := c.round.Tables[0]
	s.must(t, http.StatusCreated, nil, "PUT", gamePath(c.tt.ID, 1, 1, 1), tb.Code, json.RawMessage(cleanGame(t, tb.Players, firstDealerOf(tb, 1))))
	c.ref = s.newReferee(t, c.tt, "Greta")
	c.closedAt = s.clock.Now()
	s.must(t, http.StatusOK, nil, "POST", fmt.Sprintf("/api/v1/tournaments/%s/rounds/1/close?accept_unconfirmed=true", c.tt.ID), c.tt.OrganizerToken, nil)
	return c
}

func (c *closedRound) dispute(token string) map[string]any {
	return map[string]any{"round": 1, "table": 1, "game": 1, "description": "the last trick was miscounted"}
}

func (c *closedRound) window(t *testing.T) tWindow {
	t.Helper()
	var w tWindow
	c.s.must(t, http.StatusOK, &w, "GET", fmt.Sprintf("/api/v1/tournaments/%s/rounds/1/window", c.tt.ID), "", nil)
	return w
}

// TestCorrectionWindow: results are provisional for 30 minutes after the
// round closes, disputes are taken until then and refused after with the
// time the window closed; the organizer reopens with a reason.
func TestCorrectionWindow(t *testing.T) {
	t.Parallel()
	c := newClosedRound(t)
	s, tid, code := c.s, c.tt.ID, c.round.Tables[0].Code
	if w := c.window(t); w.Status != "provisional" || w.Minutes != 30 || w.SecondsLeft != 1800 || len(w.Results) != 1 || w.Results[0].Status != "provisional" {
		t.Fatalf("window just after closing = %+v, want provisional with 1800 s left", w)
	}
	s.clock.Advance(29 * time.Minute)
	s.must(t, http.StatusCreated, nil, "POST", disputesPath(tid), code, c.dispute(code))
	if w := c.window(t); w.SecondsLeft != 60 || w.Results[0].OpenDisputes != 1 {
		t.Errorf("window after 29 min = %+v, want 60 s left and the open dispute", w)
	}
	s.clock.Advance(time.Minute)
	resp, body := s.call(t, "POST", disputesPath(tid), code, c.dispute(code))
	wantProblem(t, "dispute after the window", resp, body, http.StatusConflict, "correction_window_closed")
	var p struct {
		ClosedAt string `json:"closed_at"`
	}
	_ = json.Unmarshal(body, &p)
	if want := c.closedAt.Add(30 * time.Minute).Format(time.RFC3339); p.ClosedAt != want {
		t.Errorf("closed_at = %q, want %q", p.ClosedAt, want)
	}
	if w := c.window(t); w.Status != "final" || w.SecondsLeft != 0 {
		t.Errorf("window after 30 min = %+v, want final", w)
	}
	reopen := fmt.Sprintf("/api/v1/tournaments/%s/rounds/1/reopen", tid)
	c.runCases(t, []refCase{
		{"reopen by the table", "POST", reopen, code, map[string]any{"reason": "x"}, 403, "forbidden"},
		{"reopen by a referee", "POST", reopen, c.ref.Token, map[string]any{"reason": "x"}, 403, "forbidden"},
		{"reopen without a reason", "POST", reopen, c.tt.OrganizerToken, map[string]any{"minutes": 10}, 400, "invalid_reason"},
		{"reopen for 0 minutes", "POST", reopen, c.tt.OrganizerToken, map[string]any{"reason": "x", "minutes": -1}, 400, "invalid_minutes"},
		{"reopen round 2", "POST", fmt.Sprintf("/api/v1/tournaments/%s/rounds/2/reopen", tid), c.tt.OrganizerToken, map[string]any{"reason": "x"}, 404, "round_not_found"},
		{"reopen", "POST", reopen, c.tt.OrganizerToken, map[string]any{"reason": "a player found a sheet error", "minutes": 10}, 201, ""},
		{"dispute after reopening", "POST", disputesPath(tid), code, c.dispute(code), 201, ""},
	})
	if w := c.window(t); w.Status != "provisional" || !w.Reopened || w.SecondsLeft != 600 {
		t.Errorf("window after reopening = %+v, want provisional, reopened, 600 s left", w)
	}
	log := s.audit(t, tid, c.ref.Token, "?kind=results_reopened")
	if len(log.Entries) != 1 || log.Entries[0].Reason != "a player found a sheet error" || log.Entries[0].Actor.Role != "organizer" {
		t.Errorf("audit of the reopening = %+v, want one by the organizer with the reason", log.Entries)
	}
	s.must(t, http.StatusOK, nil, "PUT", "/api/v1/tournaments/"+tid+"/correction-window", c.tt.OrganizerToken, map[string]int{"correction_minutes": 0})
	s.clock.Advance(11 * time.Minute)
	resp, body = s.call(t, "POST", disputesPath(tid), code, c.dispute(code))
	wantProblem(t, "dispute after the reopening ran out", resp, body, http.StatusConflict, "correction_window_closed")
}

// refCase is one request and the answer it must get.
type refCase struct {
	name         string
	method, path string
	token        string
	body         any
	status       int
	code         string
}

func (c *closedRound) runCases(t *testing.T, cases []refCase) {
	t.Helper()
	runRefCases(t, c.s, cases)
}

func runRefCases(t *testing.T, s *refServer, cases []refCase) {
	t.Helper()
	for _, tc := range cases {
		resp, body := s.call(t, tc.method, tc.path, tc.token, tc.body)
		if tc.code == "" {
			if resp.StatusCode != tc.status {
				t.Errorf("%s: %s %s = %d %s, want %d", tc.name, tc.method, tc.path, resp.StatusCode, body, tc.status)
			}
			continue
		}
		wantProblem(t, tc.name, resp, body, tc.status, tc.code)
	}
}

// TestRefereeEndpoints covers referee tokens, disputes, rulings and the
// audit log: success, bad input and the wrong role.
func TestRefereeEndpoints(t *testing.T) {
	t.Parallel()
	c := newClosedRound(t)
	s, tid, org, code := c.s, c.tt.ID, c.tt.OrganizerToken, c.round.Tables[0].Code
	other := s.createTournament(t, `{"name": "Other", "format": "sm"}`)
	base := "/api/v1/tournaments/" + tid
	gone := s.newReferee(t, c.tt, "Gone")
	var d tDispute
	s.must(t, http.StatusCreated, &d, "POST", disputesPath(tid), org, c.dispute(org))
	tb := c.round.Tables[0]
	valid := json.RawMessage(cleanGame(t, tb.Players, firstDealerOf(tb, 1)))
	ruling := base + "/disputes/" + d.ID + "/ruling"
	runRefCases(t, s, []refCase{
		{"create referee as public", "POST", base + "/referees", "", nil, 401, "missing_token"},
		{"create referee as table", "POST", base + "/referees", code, nil, 403, "forbidden"},
		{"create referee as referee", "POST", base + "/referees", c.ref.Token, nil, 403, "forbidden"},
		{"create referee as another organizer", "POST", base + "/referees", other.OrganizerToken, nil, 403, "wrong_tournament"},
		{"create referee with a bad name", "POST", base + "/referees", org, map[string]string{"name": "a\nb"}, 400, "invalid_name"},
		{"create referee in an unknown tournament", "POST", "/api/v1/tournaments/nope/referees", adminToken, nil, 404, "tournament_not_found"},
		{"list referees", "GET", base + "/referees", org, nil, 200, ""},
		{"list referees as referee", "GET", base + "/referees", c.ref.Token, nil, 403, "forbidden"},
		{"revoke unknown", "DELETE", base + "/referees/rnope", org, nil, 404, "referee_token_not_found"},
		{"revoke", "DELETE", base + "/referees/" + gone.ID, org, nil, 200, ""},
		{"revoke again", "DELETE", base + "/referees/" + gone.ID, org, nil, 409, "token_revoked"},
		{"revoked token", "GET", base + "/disputes", gone.Token, nil, 401, "token_revoked"},
		{"unknown referee token", "GET", base + "/disputes", "ref_" + gone.Token[4:10] + gone.Token[4:41], nil, 401, "unknown_token"},
		{"referee of another tournament", "GET", "/api/v1/tournaments/" + other.ID + "/disputes", c.ref.Token, nil, 403, "wrong_tournament"},

		{"dispute without description", "POST", disputesPath(tid), code, map[string]any{"round": 1, "table": 1, "game": 1}, 400, "invalid_description"},
		{"dispute on another table", "POST", disputesPath(tid), code, map[string]any{"round": 1, "table": 2, "game": 1, "description": "x"}, 403, "wrong_table"},
		{"dispute on game 2", "POST", disputesPath(tid), code, map[string]any{"round": 1, "table": 1, "game": 2, "description": "x"}, 404, "game_not_found"},
		{"dispute on round 3", "POST", disputesPath(tid), org, map[string]any{"round": 3, "table": 1, "game": 1, "description": "x"}, 404, "round_not_found"},
		{"dispute by a referee", "POST", disputesPath(tid), c.ref.Token, c.dispute(""), 403, "forbidden"},
		{"dispute by the public", "POST", disputesPath(tid), "", c.dispute(""), 401, "missing_token"},
		{"dispute with a broken body", "POST", disputesPath(tid), code, `{"round":`, 400, "malformed_json"},
		{"dispute with a bad record", "POST", disputesPath(tid), code, map[string]any{"round": 1, "table": 1, "game": 1, "description": "x", "record": map[string]any{"deals": 3}}, 201, ""},
		{"list disputes as table", "GET", disputesPath(tid), code, nil, 403, "forbidden"},
		{"list disputes as public", "GET", disputesPath(tid), "", nil, 401, "missing_token"},
		{"list disputes", "GET", disputesPath(tid), c.ref.Token, nil, 200, ""},
		{"list disputes with a bad status", "GET", disputesPath(tid) + "?status=closed", c.ref.Token, nil, 400, "invalid_status"},
		{"get unknown dispute", "GET", disputesPath(tid) + "/999", c.ref.Token, nil, 404, "dispute_not_found"},
		{"get dispute abc", "GET", disputesPath(tid) + "/abc", c.ref.Token, nil, 404, "dispute_not_found"},

		{"rule as table", "POST", ruling, code, map[string]any{"decision": "rejected", "reason": "x"}, 403, "forbidden"},
		{"rule with a bad decision", "POST", ruling, c.ref.Token, map[string]any{"decision": "maybe", "reason": "x"}, 400, "invalid_decision"},
		{"rule without a reason", "POST", ruling, c.ref.Token, map[string]any{"decision": "rejected"}, 400, "invalid_reason"},
		{"rule rejected with a record", "POST", ruling, c.ref.Token, map[string]any{"decision": "rejected", "reason": "x", "record": valid}, 400, "invalid_record"},
		{"rule with a zero adjustment", "POST", ruling, c.ref.Token, map[string]any{"decision": "rejected", "reason": "x", "adjustments": []map[string]any{{"player": tb.Players[0], "points": 0}}}, 400, "invalid_adjustments"},
		{"rule with an adjustment off the table", "POST", ruling, c.ref.Token, map[string]any{"decision": "rejected", "reason": "x", "adjustments": []map[string]any{{"player": "p99", "points": -1}}}, 400, "invalid_adjustments"},
		{"rule disqualifying a stranger", "POST", ruling, c.ref.Token, map[string]any{"decision": "rejected", "reason": "x", "disqualify": []string{"p99"}}, 400, "invalid_disqualify"},
		{"rule with an invalid record", "POST", ruling, c.ref.Token, map[string]any{"decision": "upheld", "reason": "x", "record": map[string]any{"players": tb.Players, "first_dealer": firstDealerOf(tb, 1), "deals": []any{}}}, 422, "invalid_record"},
		{"rule with another table's record", "POST", ruling, c.ref.Token, map[string]any{"decision": "upheld", "reason": "x", "record": json.RawMessage(cleanGame(t, []string{"p1", "p2", "p3"}, "p1"))}, 422, "players_mismatch"},
		{"rule upheld without a remedy", "POST", ruling, c.ref.Token, map[string]any{"decision": "upheld", "reason": "the sheet is wrong"}, 422, "remedy_required"},
		{"rule upheld without a remedy as organizer", "POST", ruling, org, map[string]any{"decision": "upheld", "reason": "the sheet is wrong"}, 422, "remedy_required"},
		{"rule on an unknown dispute", "POST", base + "/disputes/999/ruling", c.ref.Token, map[string]any{"decision": "rejected", "reason": "x"}, 404, "dispute_not_found"},
		{"rule", "POST", ruling, c.ref.Token, map[string]any{"decision": "rejected", "reason": "the sheet is right"}, 200, ""},
		{"rule again", "POST", ruling, org, map[string]any{"decision": "upheld", "reason": "x"}, 409, "dispute_ruled"},

		{"audit as table", "GET", base + "/audit", code, nil, 403, "forbidden"},
		{"audit as public", "GET", base + "/audit", "", nil, 401, "missing_token"},
		{"audit with limit 0", "GET", base + "/audit?limit=0", org, nil, 400, "invalid_limit"},
		{"audit with limit 5000", "GET", base + "/audit?limit=5000", org, nil, 400, "invalid_limit"},
		{"audit with round x", "GET", base + "/audit?round=x", org, nil, 400, "invalid_round"},
		{"audit with after -1", "GET", base + "/audit?after=-1", org, nil, 400, "invalid_after"},
		{"audit of an unknown tournament", "GET", "/api/v1/tournaments/nope/audit", adminToken, nil, 404, "tournament_not_found"},
		{"audit", "GET", base + "/audit?kind=ruling", org, nil, 200, ""},
	})
	var list struct{ Referees []tReferee }
	s.must(t, http.StatusOK, &list, "GET", base+"/referees", org, nil)
	if len(list.Referees) != 2 {
		t.Fatalf("referees = %+v, want 2", list.Referees)
	}
	for _, r := range list.Referees {
		if r.Token != "" || (r.RevokedAt != nil) != (r.ID == gone.ID) {
			t.Errorf("listed referee %+v: want no token, revoked only if it is %s", r, gone.ID)
		}
	}
	var open, ruled struct{ Disputes []tDispute }
	s.must(t, http.StatusOK, &open, "GET", disputesPath(tid)+"?status=open", org, nil)
	s.must(t, http.StatusOK, &ruled, "GET", disputesPath(tid)+"?status=ruled", org, nil)
	if len(open.Disputes) != 1 || len(ruled.Disputes) != 1 || ruled.Disputes[0].ID != d.ID {
		t.Errorf("open %+v, ruled %+v; want one each, %s ruled", open.Disputes, ruled.Disputes, d.ID)
	}
	var got tDispute
	s.must(t, http.StatusOK, &got, "GET", disputesPath(tid)+"/"+d.ID, org, nil)
	if got.Status != "ruled" || got.Ruling == nil || got.Ruling.Decision != "rejected" || got.Ruling.CorrectionID != nil {
		t.Errorf("ruled dispute = %+v, want ruled, rejected, no correction", got)
	}
}
