package main

import (
	"slices"
	"testing"
)

// TestE2ESMTwoDays runs Chicago-SM as it is played over two days (its rule
// 7): on day 1 the two best of each table go on, on day 2 only the best,
// then a final table of three that plays four games. 40 players: 10 tables,
// 5 tables (day 1 ends), then 4+3+3 with one going on from each, and the
// final of 3.
func TestE2ESMTwoDays(t *testing.T) {
	t.Parallel()
	c := startE2E(t)
	c.create(`{"name": "Chicago-SM, två dagar", "format": "sm", "advance_per_table": [2, 2, 1],
		"day_breaks": [2], "final_games": 4}`, 40)
	var tt struct {
		AdvancePerTable []int `json:"advance_per_table"`
		DayBreaks       []int `json:"day_breaks"`
		FinalGames      int   `json:"final_games"`
	}
	c.must(200, &tt, "GET", "/tournaments/"+c.tid, "", nil)
	if !slices.Equal(tt.AdvancePerTable, []int{2, 2, 1}) || !slices.Equal(tt.DayBreaks, []int{2}) || tt.FinalGames != 4 {
		t.Fatalf("settings read back %+v, want advance [2 2 1], day breaks [2], final games 4", tt)
	}
	want := []struct {
		sizes   []int
		advance int
		final   bool
		games   int
	}{
		{[]int{4, 4, 4, 4, 4, 4, 4, 4, 4, 4}, 2, false, 3},
		{[]int{4, 4, 4, 4, 4}, 2, false, 3},
		{[]int{4, 3, 3}, 1, false, 3},
		{[]int{3}, 1, true, 4},
	}
	var going []string
	var finalCode string
	for i, w := range want {
		r := c.draw()
		finalCode = r.Tables[0].Code
		if got := tableSizes(r); !slices.Equal(got, w.sizes) || r.Final != w.final {
			t.Fatalf("round %d: tables %v final %v, want %v final %v", i+1, got, r.Final, w.sizes, w.final)
		}
		for _, tb := range r.Tables {
			for _, p := range tb.Players {
				if i > 0 && !slices.Contains(going, p) {
					t.Errorf("round %d seats %s, who did not go on", i+1, p)
				}
			}
		}
		c.play(r, w.games)
		ch := c.close(r.Number)
		going = c.checkAdvancement(c.round(r.Number), ch, w.advance)
		if w.final {
			if ch.TournamentStatus != "finished" || ch.Champion == "" || going[0] != ch.Champion {
				t.Fatalf("final close = %+v, want finished with the champion", ch)
			}
		}
	}
	// A fifth game at the final table is refused: the final plays four.
	status, _ := c.do("PUT", "/tournaments/"+c.tid+"/rounds/4/tables/1/games/5", finalCode,
		"application/json", []byte(`{}`))
	if status != 404 {
		t.Errorf("game 5 of the final = %d, want 404", status)
	}
}
