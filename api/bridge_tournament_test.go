package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/engine/bridge"
	bridgesim "github.com/revisor-sm/revisor/engine/bridge/sim"
)

// bridgeMatch plays a whole simulated match for a drawn table: a Chicago
// at a table of four, a draw bridge rubber at a table of two.
func bridgeMatch(s *bridgesim.Sim, tb tTable) *bridge.Record {
	return s.MatchAt(tb.Players, tb.FirstDealer)
}

// TestBridgeEvening runs a 16-player Chicago bridge evening of 4 rounds
// through the API: draws with new partners every round, one Chicago per
// table submitted with the table's code, binding results, rounds closed,
// standings that add each round's difference.
func TestBridgeEvening(t *testing.T) {
	t.Parallel()
	s := startTournamentServer(t)
	tt := s.createTournament(t, `{"name":"Bridge evening","format":"bridge_chicago","rounds":4}`)
	s.importPlayers(t, tt, 16)
	sim := bridgesim.New(5, bridgesim.Options{Play: true})
	partnered := map[[2]string]bool{}
	want := map[string]int{}
	for r := 1; r <= 4; r++ {
		round := s.draw(t, tt, int64(r))
		if len(round.Tables) != 4 {
			t.Fatalf("round %d: %d tables, want 4", r, len(round.Tables))
		}
		for _, tb := range round.Tables {
			if len(tb.Players) != 4 || tb.Code == "" {
				t.Fatalf("round %d: table %+v", r, tb)
			}
			for _, pair := range [][2]string{{tb.Players[0], tb.Players[2]}, {tb.Players[1], tb.Players[3]}} {
				slices.Sort(pair[:])
				if partnered[pair] {
					t.Errorf("round %d: %v partner again", r, pair)
				}
				partnered[pair] = true
			}
			rec := bridgeMatch(sim, tb)
			body := string(rec.AppendJSON(nil))
			path := gamePath(tt.ID, r, tb.Number, 1)
			if tb.Number%2 == 1 { // deal by deal, each checked as it comes
				for i := range rec.Deals {
					var p struct {
						Deal     int  `json:"deal"`
						GameOver bool `json:"game_over"`
					}
					s.must(t, http.StatusCreated, &p, "POST", fmt.Sprintf("%s/deals?deal=%d", path, i+1), tb.Code, string(rec.Deals[i].AppendJSON(nil)))
					if p.Deal != i+1 || p.GameOver != (i == len(rec.Deals)-1) {
						t.Fatalf("round %d table %d deal %d: %+v", r, tb.Number, i+1, p)
					}
				}
			} else {
				s.must(t, http.StatusCreated, nil, "PUT", path, tb.Code, body)
			}
			s.must(t, http.StatusOK, nil, "PUT", path, tb.Code, body) // a harmless repeat
			other := bridgeMatch(sim, tb)
			if resp, b := s.call(t, "PUT", path, tb.Code, string(other.AppendJSON(nil))); resp.StatusCode != http.StatusConflict {
				t.Errorf("another match for a table with a result: %d %s, want 409", resp.StatusCode, b)
			}
			res := bridge.Check(rec)
			for i, p := range tb.Players {
				want[p] += res.Totals[i%2] - res.Totals[1-i%2]
			}
		}
		// The tables' players do not confirm here: the organizer closes anyway.
		s.must(t, http.StatusOK, nil, "POST", fmt.Sprintf("/api/v1/tournaments/%s/rounds/%d/close?accept_unconfirmed=true", tt.ID, r), tt.OrganizerToken, nil)
	}
	var st tStandings
	s.must(t, http.StatusOK, &st, "GET", "/api/v1/tournaments/"+tt.ID+"/standings", "", nil)
	if st.Status != "finished" || len(st.Rows) != 16 {
		t.Fatalf("standings: status %q, %d rows", st.Status, len(st.Rows))
	}
	sum := 0
	for i, row := range st.Rows {
		sum += row.PlacementPoints
		if row.PlacementPoints != want[row.Player] || row.GamesPlayed != 4 {
			t.Errorf("%s: %d points over %d rounds, want %d over 4", row.Name, row.PlacementPoints, row.GamesPlayed, want[row.Player])
		}
		if i > 0 && row.PlacementPoints > st.Rows[i-1].PlacementPoints {
			t.Errorf("standings out of order at row %d", i+1)
		}
	}
	if sum != 0 {
		t.Errorf("the rounds' differences add up to %d, want 0", sum)
	}
}

// TestBridgeTournamentRefusals: a card game record, a match of other
// players, an unfinished match and a wrong role are refused.
func TestBridgeTournamentRefusals(t *testing.T) {
	t.Parallel()
	s := startTournamentServer(t)
	tt := s.createTournament(t, `{"name":"Bridge","format":"bridge_chicago","rounds":2,"rules":{"vulnerability":"non_dealer"}}`)
	s.importPlayers(t, tt, 6) // a table of four and a table of two
	round := s.draw(t, tt, 9)
	if len(round.Tables) != 2 || len(round.Tables[1].Players) != 2 {
		t.Fatalf("6 players: tables %+v, want one of four and one of two", round.Tables)
	}
	sim := bridgesim.New(8, bridgesim.Options{Vulnerability: bridge.VulNonDealer})
	four, two := round.Tables[0], round.Tables[1]
	rec := bridgeMatch(sim, four)
	unfinished := *rec
	unfinished.Deals = unfinished.Deals[:1]
	wrongPlayers := *rec
	wrongPlayers.Players = slices.Clone(rec.Players)
	slices.Reverse(wrongPlayers.Players)
	for name, tc := range map[string]struct {
		token, body string
		status      int
		code        string
	}{
		"unfinished":         {four.Code, string(unfinished.AppendJSON(nil)), 422, "match_not_finished"},
		"other seats":        {four.Code, string(wrongPlayers.AppendJSON(nil)), 422, "players_mismatch"},
		"a card game":        {four.Code, `{"players":["` + strings.Join(four.Players, `","`) + `"],"first_dealer":"` + four.FirstDealer + `","deals":[]}`, 422, "invalid_record"},
		"other table's code": {two.Code, string(rec.AppendJSON(nil)), 403, ""},
		"no token":           {"", string(rec.AppendJSON(nil)), 401, ""},
	} {
		resp, b := s.call(t, "PUT", gamePath(tt.ID, 1, 1, 1), tc.token, tc.body)
		if resp.StatusCode != tc.status || (tc.code != "" && !strings.Contains(string(b), `"code":"`+tc.code+`"`)) {
			t.Errorf("%s: %d %s, want %d %s", name, resp.StatusCode, b, tc.status, tc.code)
		}
	}
	s.must(t, http.StatusCreated, nil, "PUT", gamePath(tt.ID, 1, 1, 1), four.Code, string(rec.AppendJSON(nil)))
	s.must(t, http.StatusCreated, nil, "PUT", gamePath(tt.ID, 1, 2, 1), two.Code, string(bridgeMatch(sim, two).AppendJSON(nil)))
	if resp, b := s.call(t, "PUT", gamePath(tt.ID, 1, 1, 2), four.Code, string(rec.AppendJSON(nil))); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a second Chicago in one round: %d %s, want 404", resp.StatusCode, b)
	}
}

// TestBridgeDealEntry enters a Chicago deal by deal in the score sheet's
// short form: live results, next dealer, repeats, conflicts, refusals.
func TestBridgeDealEntry(t *testing.T) {
	t.Parallel()
	s := startTournamentServer(t)
	tt := s.createTournament(t, `{"name":"Bridge","format":"bridge_chicago","rounds":1}`)
	s.importPlayers(t, tt, 4)
	tb := s.draw(t, tt, 3).Tables[0]
	path := gamePath(tt.ID, 1, 1, 1) + "/deals"
	i := slices.Index(tb.Players, tb.FirstDealer)
	seat := func(k int) string { return tb.Players[(i+k)%4] }
	type answer struct {
		Deal   int `json:"deal"`
		Result struct {
			Number   *int           `json:"number"`
			Contract string         `json:"contract"`
			Declarer string         `json:"declarer"`
			Points   map[string]int `json:"points"`
		} `json:"result"`
		Match struct {
			Totals     map[string]int `json:"totals"`
			NextDealer string         `json:"next_dealer"`
			Complete   bool           `json:"complete"`
		} `json:"match"`
		GameOver bool            `json:"game_over"`
		Game     json.RawMessage `json:"game"`
	}
	var a answer
	// Deal 1: 3NT by the dealer's partner, 10 tricks, not vulnerable: 430.
	first := fmt.Sprintf(`{"contract":"3NT","declarer":%q,"tricks":10}`, seat(2))
	s.must(t, http.StatusCreated, &a, "POST", path+"?deal=1", tb.Code, first)
	side := map[int]string{0: "ns", 1: "ew"}[(i+2)%2]
	if a.Deal != 1 || a.Result.Contract != "3NT" || a.Result.Declarer != seat(2) || a.Result.Points[side] != 430 ||
		a.Match.NextDealer != seat(1) || a.GameOver {
		t.Fatalf("deal 1: %+v", a)
	}
	s.must(t, http.StatusOK, &a, "POST", path+"?deal=1", tb.Code, first) // sent again: answered, not entered twice
	if resp, b := s.call(t, "POST", path+"?deal=1", tb.Code, `{"passed_out":true}`); resp.StatusCode != http.StatusConflict || !strings.Contains(string(b), "deal_exists") {
		t.Errorf("another deal 1: %d %s", resp.StatusCode, b)
	}
	for name, body := range map[string]string{
		"a stranger declares": `{"contract":"3NT","declarer":"nobody","tricks":9}`,
		"fourteen tricks":     fmt.Sprintf(`{"contract":"3NT","declarer":%q,"tricks":14}`, seat(1)),
		"no contract":         `{"contract":"3NX","declarer":"x","tricks":9}`,
		"a card game line":    `{"sheet":{"a":{"hand1":2}}}`,
	} {
		if resp, b := s.call(t, "POST", path, tb.Code, body); resp.StatusCode != http.StatusUnprocessableEntity && resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d %s, want 422 or 400", name, resp.StatusCode, b)
		}
	}
	if resp, _ := s.call(t, "POST", path, "", `{"passed_out":true}`); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("no token: %d, want 401", resp.StatusCode)
	}
	s.must(t, http.StatusCreated, &a, "POST", path, tb.Code, `{"passed_out":true}`)
	if a.Result.Number != nil || a.Match.NextDealer != seat(1) {
		t.Fatalf("passed out: %+v (the same dealer deals again)", a)
	}
	for k, e := range []string{
		fmt.Sprintf(`{"contract":"4SX","declarer":%q,"tricks":7}`, seat(1)),
		fmt.Sprintf(`{"contract":"2c","declarer":%q,"tricks":8}`, seat(3)),
		fmt.Sprintf(`{"contract":"1NTXX","declarer":%q,"tricks":7}`, seat(0)),
	} {
		a = answer{}
		s.must(t, http.StatusCreated, &a, "POST", path, tb.Code, e)
		if a.GameOver != (k == 2) {
			t.Fatalf("deal %d: game over %v", a.Deal, a.GameOver)
		}
	}
	if !a.Match.Complete || len(a.Game) == 0 || a.Match.NextDealer != "" {
		t.Fatalf("after the fourth deal: %+v", a)
	}
	if resp, b := s.call(t, "POST", path, tb.Code, `{"passed_out":true}`); resp.StatusCode != http.StatusConflict || !strings.Contains(string(b), "game_over") {
		t.Errorf("a deal after the match: %d %s", resp.StatusCode, b)
	}
}
