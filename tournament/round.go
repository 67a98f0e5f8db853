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
	Final        bool // sm: the final table
	Status       RoundStatus
	Tables       []Table
	CreatedAt    time.Time
	ClosedAt     *time.Time
}

// Table is one table of a round. Players are player IDs in seat order
// (clockwise); FirstDealer is the dealer of the first deal of game 1.
type Table struct {
	Number      int // 1-based
	Players     []string
	FirstDealer string
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
