package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestDealExistsCarriesStored: another deal under a taken number is 409
// deal_exists with the deal the game holds (docs/table-protocol.md), so a
// phone can show both versions; the stored deal is unchanged.
func TestDealExistsCarriesStored(t *testing.T) {
	t.Parallel()
	g := newTableGame(t)
	p := g.tb.Players
	g.deal(t, http.StatusCreated, 1, line(p[0], 6, 6))
	resp, body := g.s.call(t, "POST", g.game+"/deals?deal=1", g.tb.Code, line(p[1], 6, 6))
	wantProblem(t, "another deal 1", resp, body, http.StatusConflict, "deal_exists")
	var prob struct {
		Deal   int `json:"deal"`
		Stored struct {
			Sheet map[string]map[string]int `json:"sheet"`
		} `json:"stored"`
	}
	if err := json.Unmarshal(body, &prob); err != nil {
		t.Fatal(err)
	}
	if prob.Deal != 1 || prob.Stored.Sheet[p[0]]["hand1"] != 6 || prob.Stored.Sheet[p[1]] != nil {
		t.Errorf("deal_exists = deal %d stored %v, want deal 1 with %s's hand1 6: %s", prob.Deal, prob.Stored.Sheet, p[0], body)
	}
}

// TestWithdrawnPlayerScoresNothing: after "the others finish the game" a
// deal giving the withdrawn player points is refused with her name; a deal
// without her is stored.
func TestWithdrawnPlayerScoresNothing(t *testing.T) {
	t.Parallel()
	g := newTableGame(t)
	s, org := g.s, g.tt.OrganizerToken
	p := g.tb.Players
	g.deal(t, http.StatusCreated, 1, line(p[3], 6, 6))
	// The warm path would take deal 2 at once: it must check too.
	g.deal(t, http.StatusCreated, 2, line(p[3], 3, 0))
	path := fmt.Sprintf("/api/v1/tournaments/%s/rounds/1/tables/%d/withdrawals", g.tt.ID, g.tb.Number)
	s.must(t, http.StatusCreated, nil, "POST", path, org, map[string]any{"player": p[3], "handling": "finish", "reason": "ill"})
	var list struct {
		Players []struct{ ID, Name string } `json:"players"`
	}
	s.must(t, http.StatusOK, &list, "GET", "/api/v1/tournaments/"+g.tt.ID+"/players", "", nil)
	var pl struct{ Name string }
	for _, x := range list.Players {
		if x.ID == p[3] {
			pl.Name = x.Name
		}
	}
	resp, body := s.call(t, "POST", g.game+"/deals?deal=3", g.tb.Code, line(p[3], 3, 0))
	prob := wantProblem(t, "a deal scoring the withdrawn player", resp, body, http.StatusConflict, "player_withdrawn")
	if pl.Name == "" || !strings.Contains(prob.Detail, pl.Name) || strings.Contains(prob.Detail, p[3]) {
		t.Errorf("detail = %q, want %q's name and not the id %s", prob.Detail, pl.Name, p[3])
	}
	g.deal(t, http.StatusCreated, 3, line(p[0], 3, 0))
}
