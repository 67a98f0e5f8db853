// Five-card poker hands: their categories and values.

package cards

import "math/bits"

// Category is a poker category. HighCard is no category: it cannot be
// announced and scores nothing.
type Category uint8

// The categories, lowest first. RoyalStraightFlush is a category of its own.
const (
	HighCard Category = iota
	Pair
	TwoPair
	ThreeOfAKind
	Straight
	Flush
	FullHouse
	FourOfAKind
	StraightFlush
	RoyalStraightFlush
)

// NumCategories is the number of categories including HighCard.
const NumCategories = 10

// categoryNames is a read-only table: it is never written.
var categoryNames = [NumCategories]string{
	"high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush",
	"full_house", "four_of_a_kind", "straight_flush", "royal_straight_flush",
}

// String returns the record spelling of c, such as "two_pair".
func (c Category) String() string {
	if int(c) < len(categoryNames) {
		return categoryNames[c]
	}
	return "unknown"
}

// ParseCategory reads an announceable category ("pair" ... "royal_straight_flush").
// It reports false for anything else, high_card included.
func ParseCategory(s string) (Category, bool) {
	for i := Pair; i <= RoyalStraightFlush; i++ {
		if categoryNames[i] == s {
			return i, true
		}
	}
	return HighCard, false
}

// HandValue is the value of a five-card poker hand: comparing two values as
// integers compares the hands under ordinary poker rules (category first,
// then ranks in order of significance); equal values are exact ties.
//
// Layout: category in bits 52-55, then four 13-bit rank masks for the ranks
// held four, three, two and one times (for straights only the top card is
// kept, so A-2-3-4-5 ranks as five high).
type HandValue uint64

// Category returns the category of the hand.
func (v HandValue) Category() Category { return Category(v >> 52) }

// TopRank returns the most significant rank of the comparison.
func (v HandValue) TopRank() int {
	return (63 - bits.LeadingZeros64(uint64(v)&(1<<52-1))) % 13
}

const wheelMask = 1<<Ace | 1<<Two | 1<<Three | 1<<Four | 1<<Five

// Evaluate returns the value of a five-card hand. The cards must be five
// different valid cards.
func Evaluate(h [5]Card) HandValue {
	m := uint64(1)<<h[0] | uint64(1)<<h[1] | uint64(1)<<h[2] | uint64(1)<<h[3] | uint64(1)<<h[4]
	return EvaluateSet(Set(m))
}

// EvaluateSet values a set of at most five cards. For fewer than five cards
// only the category counts (straights and flushes need five cards).
func EvaluateSet(m Set) HandValue {
	c := uint64(m) & 0x1fff
	d := uint64(m) >> 13 & 0x1fff
	h := uint64(m) >> 26 & 0x1fff
	s := uint64(m) >> 39 & 0x1fff
	any := c | d | h | s
	two := c&d | c&h | c&s | d&h | d&s | h&s
	if two == 0 {
		return evaluateDistinct(any, c == any || d == any || h == any || s == any)
	}
	three := c&d&h | c&d&s | c&h&s | d&h&s
	four := c & d & h & s
	trips := three &^ four
	pairs := two &^ three
	singles := any &^ two
	var cat Category
	switch {
	case four != 0:
		cat = FourOfAKind
	case trips != 0 && pairs != 0:
		cat = FullHouse
	case trips != 0:
		cat = ThreeOfAKind
	case pairs&(pairs-1) != 0:
		cat = TwoPair
	default:
		cat = Pair
	}
	return HandValue(uint64(cat)<<52 | four<<39 | trips<<26 | pairs<<13 | singles)
}

// evaluateDistinct values cards of distinct ranks.
func evaluateDistinct(ranks uint64, flush bool) HandValue {
	if bits.OnesCount64(ranks) != 5 {
		return HandValue(ranks)
	}
	top := uint64(0)
	switch {
	case ranks == wheelMask:
		top = 1 << Five
	case ranks>>bits.TrailingZeros64(ranks) == 0x1f:
		top = 1 << (63 - bits.LeadingZeros64(ranks))
	}
	switch {
	case top == 1<<Ace && flush:
		return HandValue(uint64(RoyalStraightFlush)<<52 | top)
	case top != 0 && flush:
		return HandValue(uint64(StraightFlush)<<52 | top)
	case flush:
		return HandValue(uint64(Flush)<<52 | ranks)
	case top != 0:
		return HandValue(uint64(Straight)<<52 | top)
	}
	return HandValue(ranks)
}

// CategoryOf returns the best category among zero to five cards: for five
// cards the category of the hand, for fewer the best combination they still
// contain (pairs, trips, two pair, full house needs five cards, quads).
// More than five cards are not a hand; CategoryOf then returns HighCard.
func CategoryOf(cards []Card) Category {
	if len(cards) > 5 {
		return HighCard
	}
	m := SetOf(cards)
	if m.Count() != len(cards) {
		return HighCard
	}
	return EvaluateSet(m).Category()
}

// Compare compares two five-card hands: -1 if a is lower, 0 for an exact tie,
// +1 if a is higher.
func Compare(a, b [5]Card) int {
	va, vb := Evaluate(a), Evaluate(b)
	switch {
	case va < vb:
		return -1
	case va > vb:
		return 1
	}
	return 0
}
