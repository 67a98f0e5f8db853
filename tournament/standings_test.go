package tournament_test

import (
	"fmt"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
)

// game is a result at a table: places given as player → (place, score).
func game(round, table, g int, s tournament.Settings, places map[string][2]int) tournament.GameResult {
	r := tournament.GameResult{Key: tournament.GameKey{Round: round, Table: table, Game: g}}
	for p, ps := range places {
		r.Places = append(r.Places, tournament.GamePlace{Player: p, Place: ps[0], Score: ps[1], Points: s.PlacementPoints[ps[0]-1]})
	}
	return r
}

func players(ids ...string) []tournament.Player {
	out := make([]tournament.Player, len(ids))
	for i, id := range ids {
		out[i] = tournament.Player{ID: id, Name: id, Status: tournament.PlayerActive, Seq: i + 1}
	}
	return out
}

func ranks(rows []tournament.Standing) string {
	s := ""
	for _, r := range rows {
		s += fmt.Sprintf("%d:%s ", r.Rank, r.Player.ID)
	}
	return s
}

func TestStandingsSwiss(t *testing.T) {
	t.Parallel()
	set := tournament.Settings{PlacementPoints: []int{20, 12, 8, 5}, Tiebreaks: []string{"game_points", "games_won", "best_game", "lot"}}
	st := &tournament.State{
		Tournament: tournament.Tournament{Format: tournament.FormatSwiss, Settings: set},
		Players:    players("a", "b", "c", "d", "e"),
		Results: []tournament.GameResult{
			// a and b share first with 52; c third; d fourth.
			game(1, 1, 1, set, map[string][2]int{"a": {1, 52}, "b": {1, 52}, "c": {3, 30}, "d": {4, 10}}),
			// d wins game 2, c second, a and b share third.
			game(1, 1, 2, set, map[string][2]int{"d": {1, 60}, "c": {2, 40}, "a": {3, 20}, "b": {3, 20}}),
		},
	}
	st.Players[4].Status = tournament.PlayerDisqualified
	st.Results = append(st.Results, game(2, 1, 1, set, map[string][2]int{"e": {1, 99}, "a": {2, 0}, "b": {2, 0}, "c": {2, 0}}))
	// a: 20+8+12=40 gp 72; b: 20+8+12=40 gp 72; c: 8+12+12=32 gp 70; d: 5+20=25 gp 70; e disqualified.
	got := ranks(tournament.Standings(st))
	if want := "1:a 1:b 3:c 4:d 5:e "; got != want {
		t.Errorf("Standings = %q, want %q", got, want)
	}
}

func TestStandingsTiebreakOrder(t *testing.T) {
	t.Parallel()
	set := tournament.Settings{PlacementPoints: []int{20, 12, 8, 5}}
	res := []tournament.GameResult{
		game(1, 1, 1, tournament.Settings{PlacementPoints: set.PlacementPoints}, map[string][2]int{"a": {1, 60}, "b": {2, 10}, "c": {3, 5}}),
		game(1, 1, 2, tournament.Settings{PlacementPoints: set.PlacementPoints}, map[string][2]int{"b": {1, 53}, "a": {2, 40}, "c": {3, 5}}),
	}
	// a and b: 32 placement points each; a: 100 game points, 1 win, best 60;
	// b: 63 game points, 1 win, best 53.
	cases := []struct {
		tiebreaks []string
		want      string
	}{
		{[]string{"game_points"}, "1:a 2:b 3:c "},
		{[]string{"games_won"}, "1:a 1:b 3:c "},
		{[]string{"games_won", "best_game"}, "1:a 2:b 3:c "},
		{nil, "1:a 1:b 3:c "},
	}
	for _, c := range cases {
		s := set
		s.Tiebreaks = c.tiebreaks
		st := &tournament.State{Tournament: tournament.Tournament{Format: tournament.FormatSwiss, Settings: s}, Players: players("a", "b", "c"), Results: res}
		if got := ranks(tournament.Standings(st)); got != c.want {
			t.Errorf("Standings with tiebreaks %v = %q, want %q", c.tiebreaks, got, c.want)
		}
	}
}

func TestStandingsSM(t *testing.T) {
	t.Parallel()
	set := tournament.Settings{PlacementPoints: []int{20, 12, 8, 5}, Tiebreaks: []string{"game_points"}}
	round := func(n int, final bool, tables ...[]string) tournament.Round {
		r := tournament.Round{Number: n, Final: final, Status: tournament.RoundClosed}
		for i, ps := range tables {
			r.Tables = append(r.Tables, tournament.Table{Number: i + 1, Players: ps, FirstDealer: ps[0]})
		}
		return r
	}
	st := &tournament.State{
		Tournament: tournament.Tournament{Format: tournament.FormatSM, Settings: set, Champion: "c"},
		Players:    players("a", "b", "c", "d", "e", "f", "g"),
		Rounds:     []tournament.Round{round(1, false, []string{"a", "b", "c", "d"}, []string{"e", "f", "g"}), round(2, true, []string{"a", "c", "e", "f"})},
		Results: []tournament.GameResult{
			game(1, 1, 1, set, map[string][2]int{"a": {1, 60}, "c": {2, 50}, "b": {3, 5}, "d": {4, 0}}),
			game(1, 2, 1, set, map[string][2]int{"g": {1, 60}, "e": {2, 50}, "f": {3, 5}}),
			game(2, 1, 1, set, map[string][2]int{"a": {1, 55}, "c": {1, 55}, "e": {3, 20}, "f": {4, 0}}),
		},
		Outcomes: []tournament.Outcome{{Round: 1, Table: 1, Player: "a", Advanced: true}, {Round: 1, Table: 1, Player: "c", Advanced: true},
			{Round: 1, Table: 2, Player: "e", Advanced: true}, {Round: 1, Table: 2, Player: "f", Advanced: true}},
	}
	// g won table 2 but withdrew: f advanced in g's place.
	st.Players[6].Status = tournament.PlayerWithdrawn
	got := ranks(tournament.Standings(st))
	// c is champion (the lot), a second; e, f by final points; then round 1's
	// non-advancing by their round: g (20) before b (8) and d (5).
	if want := "1:c 2:a 3:e 4:f 5:g 6:b 7:d "; got != want {
		t.Errorf("Standings = %q, want %q", got, want)
	}
}
