package api_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestDrawConstraintsAPI: POST …/rounds takes fixed_tables, keep_apart and
// clubs_apart; they shape the tables and come back in the draw's inputs.
func TestDrawConstraintsAPI(t *testing.T) {
	t.Parallel()
	s := startRefereeServer(t).testServer
	tt := s.createTournament(t, `{"name":"Clubs","format":"swiss","rounds":2}`)
	var csv strings.Builder
	for i := range 16 {
		fmt.Fprintf(&csv, "Player %d,Club %c\n", i+1, 'A'+i/4)
	}
	var imported struct{ Players []tPlayer }
	rounds := "/api/v1/tournaments/" + tt.ID + "/rounds"
	s.must(t, http.StatusCreated, &imported, "POST", "/api/v1/tournaments/"+tt.ID+"/players:import", tt.OrganizerToken, csv.String(), "text/csv")
	for _, bad := range []struct{ body, code string }{
		{`{"fixed_tables":{"p99":1}}`, "invalid_fixed_tables"},
		{`{"fixed_tables":{"p1":"one"}}`, "invalid_field_type"},
		{`{"keep_apart":[["p1","ghost"]]}`, "invalid_keep_apart"},
		{`{"keep_apart":"p1"}`, "invalid_field_type"},
	} {
		resp, body := s.call(t, "POST", rounds, tt.OrganizerToken, bad.body)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), `"code":"`+bad.code+`"`) {
			t.Errorf("POST rounds %s = %d %s, want 400 %s", bad.body, resp.StatusCode, body, bad.code)
		}
	}
	resp, body := s.call(t, "POST", rounds, tt.OrganizerToken, `{"fixed_tables":{"p1":5}}`)
	if resp.StatusCode != http.StatusConflict || !strings.Contains(string(body), "cannot_fix_table") {
		t.Errorf("POST rounds with table 5 of 4 = %d %s, want 409 cannot_fix_table", resp.StatusCode, body)
	}
	const good = `{"seed":9,"fixed_tables":{"p6":2},"clubs_apart":true}`
	for _, token := range []string{"", "not-a-token"} {
		if resp, _ := s.call(t, "POST", rounds, token, good); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("POST rounds with token %q = %d, want 401", token, resp.StatusCode)
		}
	}
	var r tRound
	s.must(t, http.StatusCreated, &r, "POST", rounds, tt.OrganizerToken, good)
	clubOf := func(id string) int { var n int; fmt.Sscanf(id, "p%d", &n); return (n - 1) / 4 }
	for _, tb := range r.Tables {
		for i, a := range tb.Players {
			for _, b := range tb.Players[i+1:] {
				if clubOf(a) == clubOf(b) {
					t.Errorf("table %d seats %s and %s of one club", tb.Number, a, b)
				}
			}
		}
		if slices.Contains(tb.Players, "p6") != (tb.Number == 2) {
			t.Errorf("table %d = %v, want p6 at table 2 only", tb.Number, tb.Players)
		}
	}
	var draw struct {
		Constraints struct {
			FixedTables map[string]int `json:"fixed_tables"`
			KeepApart   [][]string     `json:"keep_apart"`
		} `json:"constraints"`
	}
	s.must(t, http.StatusOK, &draw, "GET", rounds+"/1/draw", "", nil)
	if resp, _ := s.call(t, "POST", rounds, r.Tables[0].Code, good); resp.StatusCode != http.StatusForbidden {
		t.Errorf("POST rounds with a table code = %d, want 403", resp.StatusCode)
	}
	if draw.Constraints.FixedTables["p6"] != 2 || len(draw.Constraints.KeepApart) != 4 {
		t.Errorf("draw inputs constraints = %+v, want p6 at table 2 and 4 club groups", draw.Constraints)
	}
}
