package api_test

import (
	"fmt"
	"net/http"
	"testing"
)

// TestWithdrawDuringGameHTTP: the organizer withdraws a player during a
// game with the choice "forfeit"; the others finish it, the result places
// the player last with nothing, the standings show it and the player is
// withdrawn. Bad input and wrong roles are refused, nothing written.
func TestWithdrawDuringGameHTTP(t *testing.T) {
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
