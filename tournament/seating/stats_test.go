package seating_test

import (
	"testing"

	"github.com/revisor-sm/revisor/tournament/seating"
)

func TestLowerBound(t *testing.T) {
	t.Parallel()
	tests := []struct{ n, rounds, want int }{
		{8, 4, 20},  // 48 meetings, 28 pairs
		{16, 6, 24}, // each player meets 18, only 15 distinct
		{16, 5, 0},  // the affine plane reaches it
		{12, 3, 0},  // the bound is not tight here: 6 is best
		{7, 3, 6},   // 27 meetings, 21 pairs
		{6, 4, 9},   // tables of 3 only: 24 meetings, 15 pairs
		{4, 10, 54}, // one table: 60 meetings of 6 pairs
		{3, 1, 0},
		{5, 3, 0}, // cannot be seated
		{16, 0, 0},
		{32, 10, 0},  // 30 meetings each, 31 others
		{32, 11, 32}, // 33 meetings each, 31 others: 2 extra per player, each repeat seen twice
		{10, 3, 0},   // 4+3+3: a player at tables of 3 twice meets 7 of 9
	}
	for _, tt := range tests {
		if got := seating.LowerBound(tt.n, tt.rounds); got != tt.want {
			t.Errorf("LowerBound(%d, %d) = %d, want %d", tt.n, tt.rounds, got, tt.want)
		}
	}
}

func TestRepeatsAndSpread(t *testing.T) {
	t.Parallel()
	tb := func(a, b, c, d int) seating.Table { return seating.Table{Seats: [4]int{a, b, c, d}} }
	rounds := []seating.Seating{
		{Tables: []seating.Table{tb(0, 1, 2, 3), tb(4, 5, 6, seating.Empty)}},
		{Tables: []seating.Table{tb(0, 1, 4, 5), tb(2, 3, seating.Empty, 6)}},
		{Tables: []seating.Table{tb(0, 1, 2, 6), tb(3, 4, 5, seating.Empty)}},
	}
	// 0-1 three times (2), 2-3 twice (1), 4-5 three times (2), 0-2 twice (1),
	// 1-2 twice (1), 2-6 twice (1): 8.
	if got := seating.Repeats(7, rounds); got != 8 {
		t.Errorf("Repeats = %d, want 8", got)
	}
	// Player 0 sat in seat 1 three times: spread 3.
	if got := seating.SeatSpread(7, rounds); got != 3 {
		t.Errorf("SeatSpread = %d, want 3", got)
	}
	if got := seating.SeatSpread(7, rounds[:1]); got != 1 {
		t.Errorf("SeatSpread(one round) = %d, want 1", got)
	}
}
