// The cards and poker hands the rules are played with are package cards'
// (engine/cards); engine names them as its own, so that its callers speak
// of engine.Card and engine.Pair as the records do, as package os names
// io/fs's FileMode.

package engine

import "github.com/revisor-sm/revisor/engine/cards"

type (
	// Card is one card of the standard 52-card deck (cards.Card).
	Card = cards.Card
	// Category is a poker category (cards.Category).
	Category = cards.Category
	// HandValue is the value of a five-card poker hand (cards.HandValue).
	HandValue = cards.HandValue
	// cardSet is a set of cards as a bit mask (cards.Set).
	cardSet = cards.Set
)

// Ranks, from two (0) to ace (12).
const (
	Two, Three, Four, Five, Six, Seven, Eight = cards.Two, cards.Three, cards.Four, cards.Five, cards.Six, cards.Seven, cards.Eight
	Nine, Ten, Jack, Queen, King, Ace         = cards.Nine, cards.Ten, cards.Jack, cards.Queen, cards.King, cards.Ace
)

// Suits.
const Clubs, Diamonds, Hearts, Spades = cards.Clubs, cards.Diamonds, cards.Hearts, cards.Spades

// The categories, lowest first; HighCard is no category.
const (
	HighCard, Pair, TwoPair, ThreeOfAKind, Straight = cards.HighCard, cards.Pair, cards.TwoPair, cards.ThreeOfAKind, cards.Straight
	Flush, FullHouse, FourOfAKind, StraightFlush    = cards.Flush, cards.FullHouse, cards.FourOfAKind, cards.StraightFlush
	RoyalStraightFlush                              = cards.RoyalStraightFlush
	NumCategories                                   = cards.NumCategories
)

// ErrInvalidCard is the error ParseCard returns for a string that is not a
// card.
var ErrInvalidCard = cards.ErrInvalidCard

// NewCard returns the card of rank r and suit s (cards.NewCard).
func NewCard(r, s int) Card { return cards.NewCard(r, s) }

// NewDeck returns the 52 cards in Card order (cards.NewDeck).
func NewDeck() []Card { return cards.NewDeck() }

// ParseCard reads a card in any accepted spelling (cards.ParseCard).
func ParseCard(s string) (Card, error) { return cards.ParseCard(s) }

// ParseCategory reads an announceable category (cards.ParseCategory).
func ParseCategory(s string) (Category, bool) { return cards.ParseCategory(s) }

// Evaluate returns the value of a five-card hand (cards.Evaluate).
func Evaluate(h [5]Card) HandValue { return cards.Evaluate(h) }

// CategoryOf returns the best category among zero to five cards
// (cards.CategoryOf).
func CategoryOf(cs []Card) Category { return cards.CategoryOf(cs) }

// Compare compares two five-card hands (cards.Compare).
func Compare(a, b [5]Card) int { return cards.Compare(a, b) }
