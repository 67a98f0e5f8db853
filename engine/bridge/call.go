package bridge

import (
	"errors"
	"strings"
)

// Strain is the denomination of a bid: clubs, diamonds, hearts, spades or
// notrump, in rising order.
type Strain uint8

// The strains, in the order of the bidding ladder.
const (
	Clubs Strain = iota
	Diamonds
	Hearts
	Spades
	NoTrump
)

var strainNames = [...]string{"C", "D", "H", "S", "NT"}

// String returns the strain as a bid spells it: C, D, H, S or NT.
func (s Strain) String() string {
	if int(s) < len(strainNames) {
		return strainNames[s]
	}
	return "?"
}

// Call is one call of an auction: pass, double, redouble or a bid. The zero
// Call is a pass. Bids compare as integers: a higher Call is a higher bid.
type Call uint8

// The calls that are not bids.
const (
	Pass     Call = 0
	Double   Call = 1
	Redouble Call = 2
	firstBid Call = 3
	lastBid  Call = firstBid + 7*5 - 1
)

// Bid returns the bid of level (1-7) in strain s.
func Bid(level int, s Strain) Call { return firstBid + Call((level-1)*5) + Call(s) }

// IsBid reports whether c is a bid (1C to 7NT).
func (c Call) IsBid() bool { return c >= firstBid && c <= lastBid }

// Level returns the level of a bid, 1 to 7 (0 for pass, double, redouble).
func (c Call) Level() int {
	if !c.IsBid() {
		return 0
	}
	return int(c-firstBid)/5 + 1
}

// Strain returns the strain of a bid.
func (c Call) Strain() Strain { return Strain((c - firstBid) % 5) }

// String returns the canonical spelling: "P", "X", "XX" or a bid like "3NT".
func (c Call) String() string {
	switch {
	case c == Pass:
		return "P"
	case c == Double:
		return "X"
	case c == Redouble:
		return "XX"
	case c.IsBid():
		return string(rune('0'+c.Level())) + c.Strain().String()
	}
	return "?"
}

// ErrInvalidCall is the error of ParseCall.
var ErrInvalidCall = errors.New("not a call: want P, X, XX or a bid 1C to 7NT (strains C, D, H, S, NT)")

// ParseCall reads a call: P, X, XX or a level 1-7 followed by C, D, H, S or
// NT, in either case.
func ParseCall(s string) (Call, error) {
	switch strings.ToUpper(s) {
	case "P":
		return Pass, nil
	case "X":
		return Double, nil
	case "XX":
		return Redouble, nil
	}
	if len(s) < 2 || s[0] < '1' || s[0] > '7' {
		return 0, ErrInvalidCall
	}
	up := strings.ToUpper(s[1:])
	for i, name := range strainNames {
		if up == name {
			return Bid(int(s[0]-'0'), Strain(i)), nil
		}
	}
	return 0, ErrInvalidCall
}

// Doubling is the double state of a contract.
type Doubling uint8

// Double states.
const (
	Undoubled Doubling = iota
	Doubled
	Redoubled
)

// Contract is the final bid of an auction with its double state.
type Contract struct {
	Level  int
	Strain Strain
	Double Doubling
}

// String spells the contract as the records do: "3NT", "4SX", "1SXX".
func (c Contract) String() string {
	s := Bid(c.Level, c.Strain).String()
	switch c.Double {
	case Doubled:
		s += "X"
	case Redoubled:
		s += "XX"
	}
	return s
}
