package tournament_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/revisor-sm/revisor/internal/racecheck"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/referee"
)

func playerIDs(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("p%02d", i+1)
	}
	return out
}

// drawAll draws rounds one after another with ReplayDraw (the code the
// service draws with), seeds[w] seeding round w+1.
func drawAll(t *testing.T, in referee.DrawInputs, seeds []int64) []tournament.Round {
	t.Helper()
	var rounds []tournament.Round
	for w, seed := range seeds {
		in.Round, in.Seed, in.History = w+1, seed, rounds
		tables, err := referee.ReplayDraw(in)
		if err != nil {
			t.Fatalf("ReplayDraw(round %d) = %v", w+1, err)
		}
		rounds = append(rounds, tournament.Round{Number: w + 1, Seed: seed, Tables: tables})
	}
	return rounds
}

// seatCounts counts, per player, the rounds spent in each seat.
func seatCounts(t *testing.T, rounds []tournament.Round) map[string][4]int {
	t.Helper()
	counts := map[string][4]int{}
	for _, r := range rounds {
		for _, tb := range r.Tables {
			if !tournament.ValidSeats(tb.Seats, len(tb.Players)) {
				t.Fatalf("round %d table %d: seats %v for players %v", r.Number, tb.Number, tb.Seats, tb.Players)
			}
			if tb.FirstDealer != tb.Players[0] {
				t.Errorf("round %d table %d: first dealer %s, want %s in the lowest seat", r.Number, tb.Number, tb.FirstDealer, tb.Players[0])
			}
			for i, p := range tb.Players {
				c := counts[p]
				c[tb.Seats[i]-1]++
				counts[p] = c
			}
		}
	}
	return counts
}

func spread(c [4]int) int {
	return max(c[0], c[1], c[2], c[3]) - min(c[0], c[1], c[2], c[3])
}

// TestSwissMixedFollowsPlan: a Swiss mixed tournament of 16 players over 5
// rounds is seated from one plan: no repeat meeting, every player's seats
// spread evenly, the later rounds' seeds do not change it and round 1's
// seed does.
func TestSwissMixedFollowsPlan(t *testing.T) {
	t.Parallel()
	in := referee.DrawInputs{Format: tournament.FormatSwiss, Seating: tournament.SeatingMixed, Rounds: 5, Players: playerIDs(16)}
	rounds := drawAll(t, in, []int64{7, 8, 9, 10, 11})
	met := map[[2]string]int{}
	for _, r := range rounds {
		for _, tb := range r.Tables {
			for i, a := range tb.Players {
				for _, b := range tb.Players[i+1:] {
					if met[[2]string{min(a, b), max(a, b)}]++; met[[2]string{min(a, b), max(a, b)}] > 1 {
						t.Errorf("round %d: %s and %s meet again", r.Number, a, b)
					}
				}
			}
		}
	}
	for p, c := range seatCounts(t, rounds) {
		if spread(c) > 1 {
			t.Errorf("player %s seats %v, want a spread <= 1", p, c)
		}
	}
	same := drawAll(t, in, []int64{7, 99, 98, 97, 96})
	other := drawAll(t, in, []int64{8, 8, 9, 10, 11})
	for w := range rounds {
		if !slices.EqualFunc(rounds[w].Tables, same[w].Tables, sameTable) {
			t.Errorf("round %d with other seeds after round 1 = %v, want the plan's %v", w+1, same[w].Tables, rounds[w].Tables)
		}
	}
	if slices.EqualFunc(rounds[0].Tables, other[0].Tables, sameTable) {
		t.Errorf("round 1 seeds 7 and 8 both drew %v", rounds[0].Tables)
	}
}

func sameTable(a, b tournament.Table) bool {
	return a.FirstDealer == b.FirstDealer && slices.Equal(a.Players, b.Players) && slices.Equal(a.SeatNumbers(), b.SeatNumbers())
}

// TestDrawReadsEmptySeats: the draw reads which seat a table of 3 left
// empty. Three players who sat in seats 2, 3 and 4 twice are not put back
// in those seats, whatever the seed.
func TestDrawReadsEmptySeats(t *testing.T) {
	t.Parallel()
	racecheck.OutOfRace(t) // the draw's search
	ps := []string{"a", "b", "c"}
	past := tournament.Table{Number: 1, Players: ps, Seats: []int{2, 3, 4}, FirstDealer: "a"}
	history := []tournament.Round{{Number: 1, Tables: []tournament.Table{past}}, {Number: 2, Tables: []tournament.Table{past}}}
	for seed := range int64(40) {
		for _, format := range []tournament.Format{tournament.FormatSM, tournament.FormatSwiss} {
			in := referee.DrawInputs{Format: format, Seating: tournament.SeatingByStandings, Rounds: 5, Round: 3,
				Seed: seed, Players: ps, History: history, Standings: ps}
			tables, err := referee.ReplayDraw(in)
			if err != nil {
				t.Fatal(err)
			}
			pastSeat := map[string]int{"a": 2, "b": 3, "c": 4}
			for i, seat := range tables[0].SeatNumbers() {
				if p := tables[0].Players[i]; pastSeat[p] == seat {
					t.Errorf("%s seed %d: %s seated in seat %d again: %v in seats %v", format, seed, p, seat, tables[0].Players, tables[0].SeatNumbers())
				}
			}
		}
	}
}

// TestDrawSpreadsSeatsAtTablesOf3: 13 players over 6 rounds (a table of 4
// and three of 3 each round), drawn round by round: every table keeps its
// seats and nobody's seats spread by more than 2.
func TestDrawSpreadsSeatsAtTablesOf3(t *testing.T) {
	t.Parallel()
	racecheck.OutOfRace(t) // the draw's search
	for _, format := range []tournament.Format{tournament.FormatSM, tournament.FormatSwiss} {
		in := referee.DrawInputs{Format: format, Seating: tournament.SeatingMixed, Rounds: 6, Players: playerIDs(13)}
		rounds := drawAll(t, in, []int64{1, 2, 3, 4, 5, 6})
		for p, c := range seatCounts(t, rounds) {
			if spread(c) > 2 {
				t.Errorf("%s: player %s seats %v, want a spread <= 2", format, p, c)
			}
		}
	}
}

func TestSeatNumbers(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		players int
		seats   []int
		want    []int
		valid   bool
	}{
		{4, nil, []int{1, 2, 3, 4}, false},
		{3, nil, []int{1, 2, 3}, false},
		{3, []int{1, 3, 4}, []int{1, 3, 4}, true},
		{3, []int{2, 3, 4}, []int{2, 3, 4}, true},
		{4, []int{1, 2, 3, 4}, []int{1, 2, 3, 4}, true},
		{3, []int{1, 2}, []int{1, 2, 3}, false},
		{3, []int{1, 3, 3}, []int{1, 2, 3}, false},
		{3, []int{3, 2, 1}, []int{1, 2, 3}, false},
		{3, []int{0, 1, 2}, []int{1, 2, 3}, false},
		{3, []int{2, 4, 5}, []int{1, 2, 3}, false},
	} {
		tb := tournament.Table{Players: playerIDs(tt.players), Seats: tt.seats}
		if got := tb.SeatNumbers(); !slices.Equal(got, tt.want) {
			t.Errorf("Table{%d players, Seats %v}.SeatNumbers() = %v, want %v", tt.players, tt.seats, got, tt.want)
		}
		if got := tournament.ValidSeats(tt.seats, tt.players); got != tt.valid {
			t.Errorf("ValidSeats(%v, %d) = %v, want %v", tt.seats, tt.players, got, tt.valid)
		}
	}
}
