package seating

import "fmt"

// SplitError reports a player count that cannot be split into tables of
// three and four. It says what the organizer can do about it.
type SplitError struct {
	Players int
}

// Error explains the problem and the ways out.
func (e *SplitError) Error() string {
	if e.Players == 5 {
		return "5 players cannot be split into tables of 3 and 4: add at least one player (6 = 3+3) or withdraw two (3)"
	}
	if e.Players < 0 {
		return fmt.Sprintf("%d players: a player count cannot be negative", e.Players)
	}
	return fmt.Sprintf("%d players cannot be seated: a table needs at least 3 players; add %d more", e.Players, 3-e.Players)
}

// SplitTables returns the table sizes for n players: tables of 4, with
// tables of 3 only as many as needed (6 = 3+3, 7 = 4+3, 9 = 3+3+3,
// 13 = 4+3+3+3). The tables of 4 come first. Counts that cannot be split
// (fewer than 3, or 5) give a *SplitError.
func SplitTables(n int) ([]int, error) {
	if n < 3 || n == 5 {
		return nil, &SplitError{Players: n}
	}
	threes := (4 - n%4) % 4
	fours := (n - 3*threes) / 4
	sizes := make([]int, 0, fours+threes)
	for range fours {
		sizes = append(sizes, 4)
	}
	for range threes {
		sizes = append(sizes, 3)
	}
	return sizes, nil
}
