package seating

import "testing"

// tightCounts gives players 2k and 2k+1 seat k as their only least-used
// seat, as after three rounds at tables of 4.
func tightCounts(n int) [][4]int {
	counts := make([][4]int, n)
	for p := range counts {
		counts[p] = [4]int{1, 1, 1, 1}
		counts[p][(p/2)%4] = 0
	}
	return counts
}

func tightSearch(n int, baseMeet meetings) *search {
	sizes := make([]int, n/4)
	tab := make([]int, n)
	for p := range tab {
		sizes[p/4], tab[p] = 4, p/4
	}
	s := newSearch(n, sizes, costModel{convex: true, repW: 1}, newRNG(1), baseMeet, nil)
	s.load([][]int{tab})
	s.regroupLeft = regroupWork
	return s
}

func seatPenalties(s *search, counts [][4]int) int {
	sum := 0
	for _, ps := range s.tables[0] {
		sum += seatPenalty(ps, counts)
	}
	return sum
}

// TestRegroupSeats: two tables each holding two players short of the same
// seats are re-dealt so that every table has one player short of each
// seat, and the search cost is never raised to get there.
func TestRegroupSeats(t *testing.T) {
	t.Parallel()
	counts := tightCounts(8)
	s := tightSearch(8, meetings{})
	if got := seatPenalties(s, counts); got != 4 {
		t.Fatalf("seat penalty before = %d, want 4", got)
	}
	s.regroupSeats(counts)
	if got := seatPenalties(s, counts); got != 0 {
		t.Errorf("regroupSeats: seat penalty = %d with tables %v, want 0", got, s.tables[0])
	}
	if s.cost() != 0 {
		t.Errorf("regroupSeats: search cost %d, want 0", s.cost())
	}

	// Players 0 and 2 met before and every other pair did not, except the
	// pairs of players short of the same seat: even seats would cost a
	// repeat, so the tables stay as they are.
	meet := newMeetings(8)
	for _, pair := range [][2]int{{0, 2}, {4, 6}, {1, 3}, {5, 7}, {0, 4}, {0, 6}, {2, 4}, {2, 6}} {
		meet.add(pair[0], pair[1], 1)
	}
	s = tightSearch(8, meet)
	before := s.cost()
	s.regroupSeats(counts)
	if s.cost() > before {
		t.Errorf("regroupSeats raised the search cost from %d to %d (tables %v)", before, s.cost(), s.tables[0])
	}
}

// TestRegroupThreeTables: 12 players in three tables, where a fix needs
// players of all three tables.
func TestRegroupThreeTables(t *testing.T) {
	t.Parallel()
	counts := make([][4]int, 12)
	for p := range counts {
		counts[p] = [4]int{1, 1, 1, 1}
		counts[p][[]int{0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3}[p]] = 0
	}
	s := tightSearch(12, meetings{})
	s.regroupSeats(counts)
	if got := seatPenalties(s, counts); got != 0 {
		t.Errorf("regroupSeats: seat penalty = %d with tables %v, want 0", got, s.tables[0])
	}
}
