package bridge

import "github.com/revisor-sm/revisor/engine"

// The games a record can hold (its "game" member).
const (
	GameChicago = "bridge_chicago" // four players, four counted deals
	GameDraw    = "draw_bridge"    // two players, one rubber
)

// The vulnerability schedules of a Chicago (the rule "vulnerability").
const (
	VulDealer    = "dealer"     // deals 2 and 3: the dealer's side is vulnerable (the default)
	VulNonDealer = "non_dealer" // deals 2 and 3: the side that did not deal
)

// Record is a match record: a Chicago of four players or a draw bridge
// rubber of two.
type Record struct {
	Game        string
	Players     []string // in seat order; seats 1 and 3 are side ns, 2 and 4 side ew
	FirstDealer string
	Rules       Rules
	Deals       []Deal
	// EndedByTime marks a match or rubber cut short by the clock
	// (ended_by: "time").
	EndedByTime bool
}

// Rules are the switches of a Chicago.
type Rules struct {
	// Vulnerability is VulDealer (also when empty) or VulNonDealer.
	Vulnerability string
}

// NoTricks is Deal.Tricks when the record gives none (a passed-out deal).
const NoTricks = -1

// Deal is one deal of a match, passed out or played.
type Deal struct {
	// Dealer is the player who dealt; empty when the record leaves it out
	// (then it is the one the match's order gives).
	Dealer  string
	Auction []Call
	// Tricks is the number of tricks the declarer's side took, or NoTricks.
	Tricks int
	// Hands (optional) are the cards dealt, by player.
	Hands map[string][]engine.Card
	// Play (optional, needs Hands) holds the tricks, each its plays in the
	// order made.
	Play [][]Play
}

// Play is one card played to a trick.
type Play struct {
	Player string
	Card   engine.Card
}

// seats returns the table size of a game (0 for an unknown game).
func seats(game string) int {
	switch game {
	case GameChicago:
		return 4
	case GameDraw:
		return 2
	}
	return 0
}
