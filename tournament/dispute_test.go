package tournament_test

import (
	"testing"

	"github.com/revisor-sm/revisor/tournament"
)

// TestStandingsWithAdjustments: referees' adjustments move placement points
// or game points (a tiebreak); the game itself is unchanged.
func TestStandingsWithAdjustments(t *testing.T) {
	t.Parallel()
	set := tournament.Settings{PlacementPoints: []int{20, 12, 8, 5}, Tiebreaks: []string{"game_points"}}
	base := func() *tournament.State {
		return &tournament.State{
			Tournament: tournament.Tournament{Format: tournament.FormatSwiss, Settings: set},
			Players:    players("a", "b", "c", "d"),
			Results: []tournament.GameResult{
				game(1, 1, 1, set, map[string][2]int{"a": {1, 60}, "b": {2, 40}, "c": {3, 30}, "d": {4, 10}}),
			},
		}
	}
	adj := func(p string, points int, scale string) tournament.Adjustment {
		return tournament.Adjustment{Key: tournament.GameKey{Round: 1, Table: 1, Game: 1}, Player: p, Points: points, Scale: scale}
	}
	tests := []struct {
		name string
		adjs []tournament.Adjustment
		want string
	}{
		{"none", nil, "1:a 2:b 3:c 4:d "},
		{"a loses 9 placement points", []tournament.Adjustment{adj("a", -9, tournament.ScalePlacementPoints)}, "1:b 2:a 3:c 4:d "},
		{"a loses 8: tied with b, a ahead on game points", []tournament.Adjustment{adj("a", -8, tournament.ScalePlacementPoints)}, "1:a 2:b 3:c 4:d "},
		{"a loses 8 and 25 game points", []tournament.Adjustment{adj("a", -8, tournament.ScalePlacementPoints), adj("a", -25, tournament.ScaleGamePoints)}, "1:b 2:a 3:c 4:d "},
		{"d gains 3: tied with c, behind on game points", []tournament.Adjustment{adj("d", 3, tournament.ScalePlacementPoints)}, "1:a 2:b 3:c 4:d "},
		{"d gains 4", []tournament.Adjustment{adj("d", 4, tournament.ScalePlacementPoints)}, "1:a 2:b 3:d 4:c "},
	}
	for _, tt := range tests {
		st := base()
		st.Adjustments = tt.adjs
		rows := tournament.Standings(st)
		if got := ranks(rows); got != tt.want {
			t.Errorf("%s: Standings = %q, want %q", tt.name, got, tt.want)
		}
		if rows[0].GamesPlayed != 1 {
			t.Errorf("%s: games played = %d, want 1: an adjustment is not a game", tt.name, rows[0].GamesPlayed)
		}
	}
}
