package api_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestWithdrawDuringGameHTTP: the organizer withdraws a player during a
// game with the choice "forfeit"; the others finish it, the result places
// the player last with nothing, the standings show it and the player is
// withdrawn. Bad input and wrong roles are refused, nothing written.
func TestWithdrawDuringGameHTTP(t *testing.T) {
	t.Parallel()
	g := newTableGame(t)
	s, org := g.s, g.tt.OrganizerToken
	p := g.tb.Players
	path := fmt.Sprintf("/api/v1/tournaments/%s/rounds/1/tables/%d/withdrawals", g.tt.ID, g.tb.Number)
	g.deal(t, http.StatusCreated, 1, line(p[3], 6, 6))
	for _, c := range []struct {
		what, token string
		body        any
		status      int
		code        string
	}{
		{"the table's code", g.tb.Code, map[string]any{"player": p[3], "handling": "forfeit", "reason": "ill"}, 403, "forbidden"},
		{"no token", "", map[string]any{"player": p[3], "handling": "forfeit", "reason": "ill"}, 401, "missing_token"},
		{"an unknown handling", org, map[string]any{"player": p[3], "handling": "later", "reason": "ill"}, 400, "invalid_handling"},
		{"no reason", org, map[string]any{"player": p[3], "handling": "forfeit"}, 400, "invalid_reason"},
		{"a number for a player", org, map[string]any{"player": 3, "handling": "forfeit", "reason": "ill"}, 400, "invalid_field_type"},
		{"an unknown player", org, map[string]any{"player": "p99", "handling": "forfeit", "reason": "ill"}, 404, "player_not_found"},
	} {
		resp, body := s.call(t, "POST", path, c.token, c.body)
		wantProblem(t, c.what, resp, body, c.status, c.code)
	}
	resp, body := s.call(t, "POST", fmt.Sprintf("/api/v1/tournaments/%s/rounds/1/tables/x/withdrawals", g.tt.ID), org,
		map[string]any{"player": p[3], "handling": "forfeit", "reason": "ill"})
	wantProblem(t, "table x", resp, body, 404, "table_not_found")

	var w struct {
		Player, Handling, Reason, By string
		Game                         int
	}
	s.must(t, http.StatusCreated, &w, "POST", path, org, map[string]any{"player": p[3], "handling": "forfeit", "reason": " taken ill "})
	if w.Player != p[3] || w.Game != 1 || w.Handling != "forfeit" || w.Reason != "taken ill" || w.By != "organizer" {
		t.Errorf("withdrawal = %+v", w)
	}
	resp, body = s.call(t, "POST", path, org, map[string]any{"player": p[3], "handling": "finish", "reason": "again"})
	wantProblem(t, "the same player again", resp, body, 409, "invalid_status_change")
	for d := 2; d <= 5; d++ {
		g.deal(t, http.StatusCreated, d, line(p[0], 6, 6))
	}
	var res struct {
		Places []struct {
			Player          string `json:"player"`
			Place           int    `json:"place"`
			Score           int    `json:"score"`
			PlacementPoints int    `json:"placement_points"`
			Forfeit         bool   `json:"forfeit"`
		} `json:"places"`
	}
	s.must(t, http.StatusOK, &res, "GET", g.game, "", nil)
	last := res.Places[len(res.Places)-1]
	if len(res.Places) != 4 || last.Player != p[3] || last.Place != 4 || last.PlacementPoints != 0 || last.Score != 0 || !last.Forfeit ||
		res.Places[1].Place != 2 {
		t.Errorf("places = %+v; want %s last with nothing, a forfeit, and the others closed up", res.Places, p[3])
	}
	var st tStandings
	s.must(t, http.StatusOK, &st, "GET", fmt.Sprintf("/api/v1/tournaments/%s/standings", g.tt.ID), "", nil)
	for _, row := range st.Rows {
		if row.Player == p[3] && (row.PlacementPoints != 0 || row.Status != "withdrawn") {
			t.Errorf("standings row of %s = %+v, want 0 points, withdrawn", p[3], row)
		}
	}
}

// TestReseatHTTP: the organizer swaps two players of different tables
// before any result; the round shows it and the tables keep their codes.
// Once a table has a deal the swap is 409 with a clear message; bad input
// and wrong roles are refused.
func TestReseatHTTP(t *testing.T) {
	t.Parallel()
	g := newTableGameN(t, 8)
	s, org := g.s, g.tt.OrganizerToken
	path := fmt.Sprintf("/api/v1/tournaments/%s/rounds/1/reseat", g.tt.ID)
	var rd tRound
	s.must(t, http.StatusOK, &rd, "GET", fmt.Sprintf("/api/v1/tournaments/%s/rounds/1", g.tt.ID), "", nil)
	a, b := rd.Tables[0].Players[0], rd.Tables[1].Players[0]
	for _, c := range []struct {
		what, token string
		body        any
		status      int
		code        string
	}{
		{"a table's code", g.codes[0], map[string]any{"player": a, "with": b, "reason": "x"}, 403, "forbidden"},
		{"no token", "", map[string]any{"player": a, "with": b, "reason": "x"}, 401, "missing_token"},
		{"no reason", org, map[string]any{"player": a, "with": b}, 400, "invalid_reason"},
		{"neither with nor table", org, map[string]any{"player": a, "reason": "x"}, 400, "invalid_with"},
		{"a string for a table", org, map[string]any{"player": a, "table": "2", "reason": "x"}, 400, "invalid_field_type"},
		{"a full table", org, map[string]any{"player": a, "table": 2, "reason": "x"}, 409, "cannot_split"},
	} {
		resp, body := s.call(t, "POST", path, c.token, c.body)
		wantProblem(t, c.what, resp, body, c.status, c.code)
	}
	var after tRound
	s.must(t, http.StatusOK, &after, "POST", path, org, map[string]any{"player": a, "with": b, "reason": "wrong table"})
	if after.Tables[0].Players[0] != b || after.Tables[1].Players[0] != a {
		t.Errorf("after the swap: %+v", after.Tables)
	}
	var codes tRound
	s.must(t, http.StatusOK, &codes, "GET", fmt.Sprintf("/api/v1/tournaments/%s/rounds/1/codes", g.tt.ID), org, nil)
	if codes.Tables[0].Code != g.codes[0] || codes.Tables[0].Players[0] != b {
		t.Errorf("codes after the swap = %+v, want table 1's code %s kept, with %s", codes.Tables[0], g.codes[0], b)
	}
	g.deal(t, http.StatusCreated, 1, line(b, 6, 6))
	resp, body := s.call(t, "POST", path, org, map[string]any{"player": a, "with": b, "reason": "back"})
	p := wantProblem(t, "a table that has started", resp, body, 409, "table_has_result")
	if !strings.Contains(p.Detail, "only before its first result") {
		t.Errorf("detail %q does not say why", p.Detail)
	}
}

// TestDrawSeedByRatingHTTP: seed_by "rating" draws round 1 with the
// rating pots stored as its constraints (nobody is rated yet: pots in
// registration order); any other seed_by is 400.
func TestDrawSeedByRatingHTTP(t *testing.T) {
	t.Parallel()
	s := startRefereeServer(t).testServer
	tt := s.createTournament(t, `{"name":"Seeded","format":"sm"}`)
	s.importPlayers(t, tt, 8)
	path := fmt.Sprintf("/api/v1/tournaments/%s/rounds", tt.ID)
	resp, body := s.call(t, "POST", path, tt.OrganizerToken, map[string]any{"seed": 3, "seed_by": "elo"})
	wantProblem(t, "seed_by elo", resp, body, 400, "invalid_seed_by")
	var rd tRound
	s.must(t, http.StatusCreated, &rd, "POST", path, tt.OrganizerToken, map[string]any{"seed": 3, "seed_by": "rating"})
	var draw struct {
		Constraints struct {
			KeepApart [][]string `json:"keep_apart"`
		} `json:"constraints"`
	}
	s.must(t, http.StatusOK, &draw, "GET", path+"/1/draw", "", nil)
	if got := fmt.Sprint(draw.Constraints.KeepApart); got != "[[p1 p2] [p3 p4] [p5 p6] [p7 p8]]" {
		t.Errorf("published pots = %s, want the players in pots of two (no ratings yet: registration order)", got)
	}
	for _, tb := range rd.Tables {
		for i := 1; i <= 7; i += 2 {
			if slices.Contains(tb.Players, fmt.Sprintf("p%d", i)) && slices.Contains(tb.Players, fmt.Sprintf("p%d", i+1)) {
				t.Errorf("table %d seats p%d and p%d of one pot", tb.Number, i, i+1)
			}
		}
	}
}
