package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/sim"
)

// TestAppendDealNumbered sends a game deal by deal with ?deal=n, sending
// every deal twice as a table does after a lost answer: the repeat is 200
// with the same deal number and nothing is stored twice; a different deal
// under a taken number, a gap, and a bad number are refused.
func TestAppendDealNumbered(t *testing.T) {
	t.Parallel()
	s := startTournamentServer(t)
	tt := s.createTournament(t, `{"name":"Numbered deals","format":"sm","games_per_round":1}`)
	s.importPlayers(t, tt, 4)
	rd := s.draw(t, tt, 1)
	tb := rd.Tables[0]
	sm := sim.New(3, engine.SM())
	var rec *engine.GameRecord
	for range 100 {
		rec = sm.Game(tb.Players, firstDealerOf(tb, 1))
		if res := engine.CheckGame(rec, engine.GameOptions{}); res.Valid && res.GameOver && rec.EndedBy != engine.EndedByTime && len(rec.Deals) > 1 {
			break
		}
	}
	rec = sm.SheetsOf(rec, 1)
	path := gamePath(tt.ID, 1, tb.Number, 1) + "/deals"
	type answer struct {
		Deal     int  `json:"deal"`
		GameOver bool `json:"game_over"`
		Game     *struct {
			ID string `json:"id"`
		} `json:"game"`
	}
	var firstID string
	for i, d := range rec.Deals {
		body, _ := json.Marshal(d)
		last := i == len(rec.Deals)-1
		for try, want := range []int{http.StatusCreated, http.StatusOK} {
			var a answer
			s.must(t, want, &a, "POST", fmt.Sprintf("%s?deal=%d", path, i+1), tb.Code, body)
			if a.Deal != i+1 || a.GameOver != last || (last && a.Game == nil) {
				t.Fatalf("deal %d send %d = deal %d game over %v game %v, want deal %d game over %v", i+1, try+1, a.Deal, a.GameOver, a.Game, i+1, last)
			}
			if last && try == 0 {
				firstID = a.Game.ID
			}
			if last && try == 1 && a.Game.ID != firstID {
				t.Errorf("repeated last deal answers result %s, want the stored %s", a.Game.ID, firstID)
			}
		}
		if i == 0 && len(rec.Deals) > 1 {
			other, _ := json.Marshal(rec.Deals[1])
			resp, b := s.call(t, "POST", path+"?deal=1", tb.Code, other)
			wantProblem(t, "another deal 1", resp, b, http.StatusConflict, "deal_exists")
			resp, b = s.call(t, "POST", path+"?deal=3", tb.Code, other)
			wantProblem(t, "deal 3 before deal 2", resp, b, http.StatusConflict, "deal_out_of_order")
			resp, b = s.call(t, "POST", path+"?deal=zero", tb.Code, other)
			wantProblem(t, "deal=zero", resp, b, http.StatusBadRequest, "invalid_deal_number")
		}
	}
	var g struct {
		Record engine.GameRecord `json:"record"`
	}
	s.must(t, http.StatusOK, &g, "GET", gamePath(tt.ID, 1, tb.Number, 1), "", nil)
	if len(g.Record.Deals) != len(rec.Deals) {
		t.Errorf("stored game has %d deals, want %d (each sent twice)", len(g.Record.Deals), len(rec.Deals))
	}
}
