package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
)

// TestDisqualificationFollowsAdvancement: a player disqualified after the
// round closed leaves advancement at once; the next at the table goes on
// in their place, and the standings mark and rank the player last.
func TestDisqualificationFollowsAdvancement(t *testing.T) {
	s := startRefereeServer(t)
	tt := s.createTournament(t, `{"name": "SM", "format": "sm", "games_per_round": 1}`)
	tid, org := tt.ID, tt.OrganizerToken
	s.importPlayers(t, tt, 8)
	round := s.draw(t, tt, 5)
	for _, tb := range round.Tables {
		s.must(t, http.StatusCreated, nil, "PUT", gamePath(tid, 1, tb.Number, 1), tb.Code, json.RawMessage(cleanGame(t, tb.Players, firstDealerOf(tb, 1))))
	}
	var closed tClose
	s.must(t, http.StatusOK, &closed, "POST", fmt.Sprintf("/api/v1/tournaments/%s/rounds/1/close", tid), org, nil)
	byRank := map[int]string{}
	for _, o := range closed.Outcomes {
		if o.Table == 1 {
			byRank[o.Rank] = o.Player
		}
	}
	cheat, next := byRank[1], byRank[3]
	if cheat == "" || next == "" {
		t.Fatalf("outcomes %+v: table 1 has no ranks 1 and 3", closed.Outcomes)
	}
	ref := s.newReferee(t, tt, "Greta")
	var d tDispute
	s.must(t, http.StatusCreated, &d, "POST", disputesPath(tid), org, map[string]any{"round": 1, "table": 1, "game": 1,
		"description": "marked cards"})
	var ans tRulingAnswer
	s.must(t, http.StatusOK, &ans, "POST", disputesPath(tid)+"/"+d.ID+"/ruling", ref.Token, map[string]any{
		"decision": "upheld", "reason": "cheating", "disqualify": []string{cheat}})
	if ans.Advancement != "" {
		t.Errorf("advancement note %q, want none: the round is the latest", ans.Advancement)
	}
	var st tStandings
	s.must(t, http.StatusOK, &st, "GET", "/api/v1/tournaments/"+tid+"/standings", "", nil)
	last := st.Rows[len(st.Rows)-1]
	if last.Player != cheat || last.Status != "disqualified" || last.Advanced {
		t.Errorf("last standings row = %+v, want %s disqualified and not advanced", last, cheat)
	}
	if row := standingOf(t, st.Rows, next); !row.Advanced || row.Status != "active" {
		t.Errorf("%s (third at table 1) = %+v, want advanced and active in place of the disqualified", next, row)
	}
	log := s.audit(t, tid, ref.Token, "?round=1&kind=advancement_changed")
	if len(log.Entries) != 2 {
		t.Errorf("advancement_changed entries = %d, want 2 (the disqualified and the next)", len(log.Entries))
	}
	for _, kind := range []string{"disqualification", "reinstatement"} {
		e := s.audit(t, tid, ref.Token, "?kind="+kind)
		if len(e.Entries) != 1 || e.Entries[0].Actor.Token != "referee:"+ref.ID || e.Entries[0].Reason != "cheating" {
			t.Errorf("%s entries = %+v, want one by the referee with the reason", kind, e.Entries)
		}
	}
	// The final is drawn from the players still in: the disqualified is not.
	final := s.draw(t, tt, 6)
	for _, p := range final.Tables[0].Players {
		if p == cheat {
			t.Errorf("the final seats the disqualified %s", cheat)
		}
	}
	if len(final.Tables) != 1 || len(final.Tables[0].Players) != 4 {
		t.Errorf("final = %+v, want one table of 4", final.Tables)
	}
}
