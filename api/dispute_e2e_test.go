package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"
)

// TestDisputeEndToEnd: a table disputes a game; the referee's
// reconstruction shows an unshown break and a false announcement; the
// ruling deducts 5 points from the one and the engine's forfeit places the
// other last; the standings follow and the audit log shows every step with
// its actor.
func TestDisputeEndToEnd(t *testing.T) {
	t.Parallel()
	s := startRefereeServer(t)
	tt := s.createTournament(t, `{"name": "Klubbkväll", "format": "swiss", "rounds": 2, "games_per_round": 1}`)
	tid := tt.ID
	s.importPlayers(t, tt, 4)
	round := s.draw(t, tt, 7)
	tb := round.Tables[0]
	dealer := firstDealerOf(tb, 1)
	ref := s.newReferee(t, tt, "Greta")

	s.must(t, http.StatusCreated, nil, "PUT", gamePath(tid, 1, 1, 1), tb.Code, json.RawMessage(cleanGame(t, tb.Players, dealer)))
	recon, penalized, bluffer := brokenGame(t, tb.Players, dealer)

	var d tDispute
	s.must(t, http.StatusCreated, &d, "POST", disputesPath(tid), tb.Code, map[string]any{
		"round": 1, "table": 1, "game": 1, "description": "we think the score sheet is wrong",
		"record": json.RawMessage(recon)})
	if d.Status != "open" || d.OpenedBy != (tActor{"table", "table:1/1"}) || d.ResultID == nil || d.Verdict == nil {
		t.Fatalf("opened dispute = %+v, want open, by table:1/1, on the submitted result, with a verdict", d)
	}

	var seen tDispute
	s.must(t, http.StatusOK, &seen, "GET", disputesPath(tid)+"/"+d.ID, ref.Token, nil)
	codes := map[string]string{}
	for _, v := range seen.Verdict.Result.Violations {
		codes[v.Code+" "+v.Player] = v.Consequence
	}
	if codes["unshown_break "+penalized] != "penalty" || codes["false_announcement "+bluffer] != "forfeit_game" {
		t.Fatalf("verdict violations %v, want unshown_break by %s (penalty) and false_announcement by %s (forfeit_game)", codes, penalized, bluffer)
	}
	if !seen.Verdict.Result.Valid || !slices.Equal(seen.Verdict.Result.Forfeits, []string{bluffer}) {
		t.Fatalf("verdict valid %v forfeits %v, want valid with forfeit %s", seen.Verdict.Result.Valid, seen.Verdict.Result.Forfeits, bluffer)
	}

	var ans tRulingAnswer
	s.must(t, http.StatusOK, &ans, "POST", disputesPath(tid)+"/"+d.ID+"/ruling", ref.Token, map[string]any{
		"decision": "upheld", "reason": "the reconstruction is what was played",
		"record":      json.RawMessage(recon),
		"adjustments": []map[string]any{{"player": penalized, "points": -5, "reason": "broke a pair without showing it"}}})
	if ans.Ruling.Decision != "upheld" || ans.Ruling.CorrectionID == nil || ans.Correction == nil ||
		ans.Ruling.RuledBy != (tActor{"referee", "referee:" + ref.ID}) {
		t.Fatalf("ruling = %+v, want upheld with a correction by referee:%s", ans.Ruling, ref.ID)
	}

	// Expected: the engine's placements of the reconstruction (the bluffer
	// last), the tournament's placement points, and the deduction.
	g := seen.Verdict.Result
	want := map[string]int{}
	for _, p := range g.Placements {
		want[p.Player] = []int{20, 12, 8, 5}[p.Place-1]
	}
	if last := g.Placements[len(g.Placements)-1]; last.Player != bluffer {
		t.Fatalf("placements %+v: the bluffer %s is not last", g.Placements, bluffer)
	}
	want[penalized] -= 5
	t.Logf("penalized %s bluffer %s want %v placements %+v", penalized, bluffer, want, g.Placements)
	var st tStandings
	s.must(t, http.StatusOK, &st, "GET", "/api/v1/tournaments/"+tid+"/standings", "", nil)
	for _, p := range tb.Players {
		if got := standingOf(t, st.Rows, p).PlacementPoints; got != want[p] {
			t.Errorf("standings: %s has %d placement points, want %d", p, got, want[p])
		}
		if got := standingOf(t, ans.Standings, p).PlacementPoints; got != want[p] {
			t.Errorf("ruling's standings: %s has %d placement points, want %d", p, got, want[p])
		}
	}
	var adj struct {
		Rows []struct {
			Player      string `json:"player"`
			Adjustments int    `json:"adjustments"`
		} `json:"rows"`
	}
	s.must(t, http.StatusOK, &adj, "GET", "/api/v1/tournaments/"+tid+"/standings", "", nil)
	for _, r := range adj.Rows {
		if want := map[bool]int{true: -5}[r.Player == penalized]; r.Adjustments != want {
			t.Errorf("standings: %s shows adjustments %d, want %d", r.Player, r.Adjustments, want)
		}
	}
	if st.Rows[len(st.Rows)-1].Player != bluffer && standingOf(t, st.Rows, bluffer).PlacementPoints > 5 {
		t.Errorf("the bluffer %s is not at the bottom: %+v", bluffer, st.Rows)
	}

	// The game now reads as the correction; the original stays in the history.
	var game struct {
		Kind string `json:"kind"`
		ID   string `json:"id"`
	}
	s.must(t, http.StatusOK, &game, "GET", gamePath(tid, 1, 1, 1), "", nil)
	if game.Kind != "correction" || game.ID != *ans.Ruling.CorrectionID {
		t.Errorf("game 1 = %+v, want the correction %s", game, *ans.Ruling.CorrectionID)
	}
	var rows int
	if err := s.pool.QueryRow(t.Context(), `SELECT count(*) FROM game_results WHERE tournament_id = $1`, tid).Scan(&rows); err != nil || rows != 2 {
		t.Errorf("result rows = %d (%v), want 2: the original and the correction", rows, err)
	}

	checkAuditTrail(t, s, tt, ref, d, penalized)
}

// checkAuditTrail checks that the audit log shows each step with its actor.
func checkAuditTrail(t *testing.T, s *refServer, tt tTournament, ref tReferee, d tDispute, penalized string) {
	t.Helper()
	tableActor := tActor{"table", "table:1/1"}
	refActor := tActor{"referee", "referee:" + ref.ID}
	orgActor := tActor{"organizer", "organizer"}
	steps := []struct {
		kind  string
		actor tActor
	}{
		{"tournament_created", tActor{"admin", "admin"}},
		{"registration", orgActor},
		{"round_drawn", orgActor},
		{"seating", orgActor},
		{"token_created", orgActor},
		{"submission", tableActor},
		{"dispute_opened", tableActor},
		{"correction", refActor},
		{"ruling", refActor},
		{"adjustment", refActor},
		{"dispute_closed", refActor},
	}
	log := s.audit(t, tt.ID, ref.Token, "?limit=1000")
	i := 0
	for _, e := range log.Entries {
		if i < len(steps) && e.Kind == steps[i].kind {
			if e.Actor != steps[i].actor {
				t.Errorf("audit %s by %+v, want %+v", e.Kind, e.Actor, steps[i].actor)
			}
			i++
		}
	}
	if i < len(steps) {
		var kinds []string
		for _, e := range log.Entries {
			kinds = append(kinds, e.Kind)
		}
		t.Fatalf("audit log %v lacks %s (in order %v)", kinds, steps[i].kind, steps)
	}
	for _, e := range log.Entries {
		if e.Kind == "correction" && (len(e.Before) < 5 || e.Reason != "the reconstruction is what was played") {
			t.Errorf("correction entry before %s reason %q, want the superseded result and the ruling's reason", e.Before, e.Reason)
		}
	}
	adj := s.audit(t, tt.ID, tt.OrganizerToken, fmt.Sprintf("?kind=adjustment&player=%s&round=1&table=1", penalized))
	if len(adj.Entries) != 1 || adj.Entries[0].Actor != refActor || adj.Next != nil {
		t.Errorf("audit filtered to the adjustment = %+v, want one entry by the referee", adj)
	}
	first := s.audit(t, tt.ID, ref.Token, "?limit=2")
	if len(first.Entries) != 2 || first.Next == nil {
		t.Fatalf("audit page of 2 = %+v, want 2 entries and a next", first)
	}
	second := s.audit(t, tt.ID, ref.Token, "?limit=2&after="+*first.Next)
	if len(second.Entries) != 2 || second.Entries[0].ID != log.Entries[2].ID {
		t.Errorf("second page starts at %v, want entry %s", second.Entries, log.Entries[2].ID)
	}
	var walked []string
	for after := ""; ; {
		page := s.audit(t, tt.ID, ref.Token, "?limit=3"+after)
		for _, e := range page.Entries {
			walked = append(walked, e.ID)
		}
		if page.Next == nil {
			break
		}
		after = "&after=" + *page.Next
	}
	if len(walked) != len(log.Entries) || walked[len(walked)-1] != log.Entries[len(log.Entries)-1].ID {
		t.Errorf("paging by 3 walked %d entries, want all %d", len(walked), len(log.Entries))
	}
	if d.ID == "" {
		t.Error("no dispute id")
	}
}
