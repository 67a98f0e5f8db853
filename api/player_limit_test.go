package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
)

// TestPlayerLimit: a tournament takes at most the server's limit of
// players (issue 13: two imports of 10,000 rows and a draw took 3 GB); an
// import or registration beyond it is a 409 problem naming the limit, and
// nothing of it is stored.
func TestPlayerLimit(t *testing.T) {
	t.Parallel()
	s := startTournamentServer(t)
	tt := s.createTournament(t, `{"name":"Big","format":"sm"}`)
	limit := tournament.DefaultMaxPlayers
	var csv strings.Builder
	for i := range limit + 1 {
		fmt.Fprintf(&csv, "Player %d,\n", i+1)
	}
	path := "/api/v1/tournaments/" + tt.ID + "/players"
	resp, body := s.call(t, "POST", path+":import", tt.OrganizerToken, csv.String(), "text/csv")
	wantLimitProblem(t, "import of limit+1 rows", resp, body, limit)
	s.importPlayers(t, tt, limit)
	resp, body = s.call(t, "POST", path, tt.OrganizerToken, `{"name":"One more"}`)
	wantLimitProblem(t, "registration beyond the limit", resp, body, limit)
	var list struct{ Players []tPlayer }
	s.must(t, http.StatusOK, &list, "GET", path, "", nil)
	if len(list.Players) != limit {
		t.Errorf("GET players = %d players, want %d", len(list.Players), limit)
	}
}

func wantLimitProblem(t *testing.T, what string, resp *http.Response, body []byte, limit int) {
	t.Helper()
	var p struct {
		Code   string `json:"code"`
		Detail string `json:"detail"`
		Limit  int    `json:"limit"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatalf("%s: %v in %s", what, err, body)
	}
	if resp.StatusCode != http.StatusConflict || resp.Header.Get("Content-Type") != "application/problem+json" ||
		p.Code != "too_many_players" || p.Limit != limit || !strings.Contains(p.Detail, fmt.Sprint(limit)) {
		t.Errorf("%s = %d %s %s, want 409 problem+json too_many_players naming the limit %d", what, resp.StatusCode, resp.Header.Get("Content-Type"), body, limit)
	}
}
