// Package cards is the standard 52-card deck and five-card poker hands:
// cards, their spellings, sets of cards and the value of a hand. It knows
// no rule of Chicago; package engine plays the game with it.
package cards

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"
)

// Card is one card of the standard 52-card deck. Its value is
// 13*suit + rank, with ranks 0 (two) to 12 (ace) and suits 0 (clubs),
// 1 (diamonds), 2 (hearts) and 3 (spades). The zero Card is the two of clubs.
type Card uint8

// Ranks of cards, from two (0) to ace (12).
const (
	Two = iota
	Three
	Four
	Five
	Six
	Seven
	Eight
	Nine
	Ten
	Jack
	Queen
	King
	Ace
)

// Suits of cards.
const (
	Clubs = iota
	Diamonds
	Hearts
	Spades
)

// SuitChars spells the suits in Card order: clubs, diamonds, hearts, spades.
const SuitChars = "cdhs"

// ErrInvalidCard is the error ParseCard returns for a string that is not a
// card.
var ErrInvalidCard = errors.New("not a card: want rank 2-9, T or 10, J, Q, K, A then suit c, d, h, s or ♣ ♦ ♥ ♠")

// NewCard returns the card of rank r (0 two to 12 ace) and suit s (0 clubs,
// 1 diamonds, 2 hearts, 3 spades).
func NewCard(r, s int) Card { return Card(s*13 + r) }

// NewDeck returns the 52 cards in Card order (clubs two to ace, then
// diamonds, hearts, spades), for a caller to shuffle.
func NewDeck() []Card {
	deck := make([]Card, 52)
	for i := range deck {
		deck[i] = Card(i)
	}
	return deck
}

// Rank returns the rank of c, 0 (two) to 12 (ace).
func (c Card) Rank() int { return int(c) % 13 }

// Suit returns the suit of c, 0 (clubs) to 3 (spades).
func (c Card) Suit() int { return int(c) / 13 }

// Valid reports whether c is one of the 52 cards.
func (c Card) Valid() bool { return c < 52 }

// String returns the canonical spelling of c, such as "Th" or "As".
func (c Card) String() string {
	if !c.Valid() {
		return "??"
	}
	return cardNames[c*2 : c*2+2]
}

// cardNames holds the canonical two-letter names of all cards in Card order;
// it is a constant, so String needs no allocation.
const cardNames = "2c3c4c5c6c7c8c9cTcJcQcKcAc" +
	"2d3d4d5d6d7d8d9dTdJdQdKdAd" +
	"2h3h4h5h6h7h8h9hThJhQhKhAh" +
	"2s3s4s5s6s7s8s9sTsJsQsKsAs"

// MarshalText writes the canonical spelling of c.
func (c Card) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, ErrInvalidCard
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads any accepted spelling of a card (see ParseCard).
func (c *Card) UnmarshalText(b []byte) error {
	v, err := ParseCard(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// ParseCard reads a card: a rank 2-9, T (or 10), J, Q, K, A followed by a
// suit c, d, h, s, in lower or upper case, or one of ♣ ♦ ♥ ♠ (optionally
// followed by the emoji variation selector U+FE0F).
func ParseCard(s string) (Card, error) {
	if len(s) == 2 { // the common case: canonical or upper-case ASCII
		if r, st := rankIndex(s[0]), suitByte(s[1]); r >= 0 && st >= 0 {
			return NewCard(r, st), nil
		}
	}
	var r int
	switch {
	case len(s) >= 2 && s[0] == '1' && s[1] == '0':
		r, s = Ten, s[2:]
	case len(s) >= 1:
		r = rankIndex(s[0])
		s = s[1:]
	default:
		return 0, ErrInvalidCard
	}
	st := suitIndex(s)
	if r < 0 || st < 0 {
		return 0, ErrInvalidCard
	}
	return NewCard(r, st), nil
}

// ParseList reads cards separated by spaces, as a hand is written
// ("As Kd 7c 5h 2s"); the first that is not a card is the error.
func ParseList(s string) ([]Card, error) {
	var out []Card
	for _, f := range strings.Fields(s) {
		c, err := ParseCard(f)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", f, err)
		}
		out = append(out, c)
	}
	return out, nil
}

func rankIndex(b byte) int {
	switch {
	case b >= '2' && b <= '9':
		return int(b - '2')
	case b == 'T':
		return Ten
	case b == 'J':
		return Jack
	case b == 'Q':
		return Queen
	case b == 'K':
		return King
	case b == 'A':
		return Ace
	}
	return -1
}

func suitByte(b byte) int {
	switch b {
	case 'c', 'C':
		return Clubs
	case 'd', 'D':
		return Diamonds
	case 'h', 'H':
		return Hearts
	case 's', 'S':
		return Spades
	}
	return -1
}

func suitIndex(s string) int {
	switch s {
	case "c", "C", "♣", "♣\ufe0f":
		return Clubs
	case "d", "D", "♦", "♦\ufe0f":
		return Diamonds
	case "h", "H", "♥", "♥\ufe0f":
		return Hearts
	case "s", "S", "♠", "♠\ufe0f":
		return Spades
	}
	return -1
}

// Set is a set of cards as a bit mask: bit c is card c.
type Set uint64

// Has reports whether c is in m.
func (m Set) Has(c Card) bool { return m>>c&1 != 0 }

// Count returns the number of cards in m.
func (m Set) Count() int { return bits.OnesCount64(uint64(m)) }

// SetOf returns the set of the valid cards among cards.
func SetOf(cards []Card) Set {
	var m Set
	for _, c := range cards {
		if c.Valid() {
			m |= 1 << c
		}
	}
	return m
}
