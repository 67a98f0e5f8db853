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
	t.Parallel()
	s := startRefereeServer(t)
	tt := s.createTournament(t, `{"name": "SM", "format": "sm", "games_per_round": 1}`)
	tid, org := tt.ID, tt.OrganizerToken
	s.importPlayers(t, tt, 8)
	round := s.draw(t, tt, 5)
	for _, tb := range round.Tables {
		s.must(t, http.StatusCreated, nil, "PUT", gamePath(tid, 1, tb.Number, 1), tb.Code, json.RawMessage(cleanGame(t, tb.Players, firstDealerOf(tb, 1))))
	}
	var closed tClose
	s.must(t, http.StatusOK, &closed, "POST", fmt.Sprintf("/api/v1/tournaments/%s/rounds/1/close?accept_unconfirmed=true", tid), org, nil)
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

// TestRulingOnTheFinal: disqualifying the champion after the final makes
// the next at the final table champion; a ruling on a round whose next
// round is drawn leaves advancement and says so.
func TestRulingOnTheFinal(t *testing.T) {
	t.Parallel()
	s := startRefereeServer(t)
	tt := s.createTournament(t, `{"name": "SM", "format": "sm", "games_per_round": 1}`)
	tid, org := tt.ID, tt.OrganizerToken
	s.importPlayers(t, tt, 4)
	final := s.draw(t, tt, 9)
	tb := final.Tables[0]
	if !final.Final {
		t.Fatalf("round 1 of 4 players is not the final: %+v", final)
	}
	s.must(t, http.StatusCreated, nil, "PUT", gamePath(tid, 1, 1, 1), tb.Code, json.RawMessage(cleanGame(t, tb.Players, firstDealerOf(tb, 1))))
	var closed tClose
	s.must(t, http.StatusOK, &closed, "POST", fmt.Sprintf("/api/v1/tournaments/%s/rounds/1/close?accept_unconfirmed=true", tid), org, nil)
	second := ""
	for _, o := range closed.Outcomes {
		if o.Rank == 2 {
			second = o.Player
		}
	}
	ref := s.newReferee(t, tt, "Greta")
	var d tDispute
	s.must(t, http.StatusCreated, &d, "POST", disputesPath(tid), tb.Code, map[string]any{"round": 1, "table": 1, "game": 1,
		"description": "the winner had an extra card"})
	s.must(t, http.StatusOK, nil, "POST", disputesPath(tid)+"/"+d.ID+"/ruling", ref.Token, map[string]any{
		"decision": "upheld", "reason": "six cards", "disqualify": []string{closed.Champion}})
	var st tStandings
	s.must(t, http.StatusOK, &st, "GET", "/api/v1/tournaments/"+tid+"/standings", "", nil)
	if st.Champion != second || st.Rows[0].Player != second || !st.Rows[0].Champion {
		t.Errorf("standings champion %q, first row %+v; want %s, second at the final", st.Champion, st.Rows[0], second)
	}
	if last := st.Rows[len(st.Rows)-1]; last.Player != closed.Champion || last.Status != "disqualified" {
		t.Errorf("last row = %+v, want the disqualified %s", last, closed.Champion)
	}
}

// TestRulingAfterTheNextDraw: once the next round is drawn, a ruling on
// the round before changes the standings but not who advanced.
func TestRulingAfterTheNextDraw(t *testing.T) {
	t.Parallel()
	c := newClosedRound(t)
	s, tid := c.s, c.tt.ID
	s.draw(t, c.tt, 8)
	var d tDispute
	s.must(t, http.StatusCreated, &d, "POST", disputesPath(tid), c.tt.OrganizerToken, c.dispute(""))
	var ans tRulingAnswer
	p := c.round.Tables[0].Players[0]
	s.must(t, http.StatusOK, &ans, "POST", disputesPath(tid)+"/"+d.ID+"/ruling", c.ref.Token, map[string]any{
		"decision": "rejected", "reason": "slow play", "adjustments": []map[string]any{{"player": p, "points": -3}}})
	if ans.Advancement == "" {
		t.Errorf("ruling on round 1 after round 2 was drawn: no advancement note")
	}
	if got := s.audit(t, tid, c.ref.Token, "?kind=advancement_changed"); len(got.Entries) != 0 {
		t.Errorf("advancement changed: %+v", got.Entries)
	}
}
