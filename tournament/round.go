package tournament

import (
	"slices"
	"time"
)

// RoundStatus says whether a round still takes results.
type RoundStatus string

// The statuses of a round.
const (
	RoundOpen   RoundStatus = "open"   // tables are playing; results are taken
	RoundClosed RoundStatus = "closed" // every game has a result and the round's outcome is recorded
)

// Round is one drawn round: who sits where, and (once closed) who advanced.
type Round struct {
	TournamentID string
	Number       int
	Seed         int64
	Constraints  *DrawConstraints // what the draw was asked to keep; nil for none
	// SearchSteps is how far the seating's search ran when its clock cap
	// (seating.DefaultBudget) cut it short, in the search's deterministic
	// iterations (seating.Result.Steps); 0 when the search was not cut.
	// ReplayDraw stops there, so a cut draw still verifies.
	SearchSteps int
	Final       bool // sm: the final table
	Status      RoundStatus
	Tables      []Table
	CreatedAt   time.Time
	ClosedAt    *time.Time
	// TimeCalled: the round's clock has called time (read by Store.Table
	// only, for the deals that then end their games).
	TimeCalled bool
	// ResultsSinceCall: the games of the round whose results were stored
	// since time was called (read by Store.SetRoundClock only, for undoing
	// the call).
	ResultsSinceCall int
}

// Table is one table of a round. Players are player IDs in seat order
// (clockwise); FirstDealer is the dealer of the first deal of game 1.
type Table struct {
	Number  int // 1-based
	Players []string
	// Seats holds the seat (1 to 4) of each of Players, in the same order,
	// so that a table of 3 keeps which of the four seats was left empty:
	// the seating reads every player's past seats to spread them evenly.
	// nil means seats 1, 2, … in order.
	Seats       []int
	FirstDealer string
	// Drawn is the table as the draw made it when it was re-seated since
	// (reseat.go); nil when it was not.
	Drawn *Table
	// Withdrawals are the players withdrawn during a game at this table
	// (withdrawal.go); they change the places of that game and the later ones.
	Withdrawals []GameWithdrawal
}

// SeatNumbers returns the seat (1 to 4) of each player in t.Players: t.Seats
// when they fit the table (one per player, increasing, 1 to 4), else seats
// 1, 2, … in order.
func (t Table) SeatNumbers() []int {
	if ValidSeats(t.Seats, len(t.Players)) {
		return slices.Clone(t.Seats)
	}
	out := make([]int, len(t.Players))
	for i := range out {
		out[i] = i + 1
	}
	return out
}

// ValidSeats reports whether seats can be the seats of a table of n
// players in seat order: n increasing seat numbers from 1 to 4.
func ValidSeats(seats []int, n int) bool {
	if len(seats) != n {
		return false
	}
	for i, s := range seats {
		if s < 1 || s > 4 || (i > 0 && s <= seats[i-1]) {
			return false
		}
	}
	return true
}

// FirstDealerOf returns the first dealer of game g (1-based) at the table:
// the drawn first dealer for game 1, then one seat to the left (the next
// player in seat order) for each later game, so the deal keeps rotating.
func (t Table) FirstDealerOf(g int) string {
	i := slices.Index(t.Players, t.FirstDealer)
	if i < 0 || len(t.Players) == 0 {
		return t.FirstDealer
	}
	return t.Players[(i+g-1)%len(t.Players)]
}

// Table returns the table numbered n.
func (r *Round) Table(n int) (Table, bool) {
	if n < 1 || n > len(r.Tables) {
		return Table{}, false
	}
	return r.Tables[n-1], true
}

// TableOf returns the table a player sits at, or false.
func (r *Round) TableOf(player string) (Table, bool) {
	for _, t := range r.Tables {
		if slices.Contains(t.Players, player) {
			return t, true
		}
	}
	return Table{}, false
}

// GameKey names one game of a tournament.
type GameKey struct {
	TournamentID string
	Round        int
	Table        int
	Game         int
}
