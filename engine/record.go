package engine

import (
	"encoding/json"
)

// DealRecord is one deal as docs/records.md describes it. Cards are parsed;
// everything else is as written, so that CheckDeal can report what is wrong.
type DealRecord struct {
	// Rules is the rule set; nil means the preset "sm".
	Rules *Rules `json:"rules,omitempty"`
	// Players are the seats clockwise.
	Players []string `json:"players,omitempty"`
	Dealer  string   `json:"dealer,omitempty"`
	// Scores are the game scores at the start of the deal; absent players have 0.
	Scores map[string]int `json:"scores,omitempty"`
	// Deck is the whole deck, top card first, or nil when not recorded.
	Deck []Card `json:"deck,omitempty"`
	// Hands are the five cards dealt to each player.
	Hands map[string][]Card `json:"hands"`
	// Exchanges are the three exchange rounds, each in turn order.
	Exchanges [][]Exchange `json:"exchanges"`
	// Announcements are the two announcement phases, one entry per player in turn order.
	Announcements [][]Announcement `json:"announcements"`
	// Chicago is the player who declared Chicago, or "".
	Chicago string `json:"chicago,omitempty"`
	// Tricks are the plays of each trick in the order made.
	Tricks [][]Play `json:"tricks"`
}

// Exchange is one player's exchange in one round.
type Exchange struct {
	Player string `json:"player"`
	// Show lists the cards shown before discarding (show when breaking).
	Show    []Card `json:"show,omitempty"`
	Discard []Card `json:"discard"`
	// Open is the card asked for face up in a one-card exchange, if any.
	Open *OpenCard `json:"open,omitempty"`
	// Draw is the cards that went into the hand.
	Draw []Card `json:"draw"`
	// Reshuffled marks an exchange during which the stock ran out.
	Reshuffled bool `json:"reshuffled,omitempty"`
}

// OpenCard is a card asked for face up and whether it was taken.
type OpenCard struct {
	Card  Card `json:"card"`
	Taken bool `json:"taken"`
}

// Announcement is an announcement or, with Announce empty, a pass.
type Announcement struct {
	Player string `json:"player"`
	// Announce is a category name such as "two_pair", or "" for a pass.
	Announce string `json:"announce,omitempty"`
}

// Play is one card played to a trick.
type Play struct {
	Player string `json:"player"`
	Card   Card   `json:"card"`
}

// Sheet is a score-sheet line: for each player the points scored in the deal
// by source ("hand1", "hand2", "last_trick", "chicago", "hand3").
type Sheet map[string]map[string]int

// Score-sheet sources, in scoring order.
const (
	SourceHand1     = "hand1"
	SourceHand2     = "hand2"
	SourceLastTrick = "last_trick"
	SourceChicago   = "chicago"
	SourceHand3     = "hand3"
)

// GameDeal is one entry of a game: a full deal or a score-sheet line.
type GameDeal struct {
	// Deal is the full deal; its Rules, Players, Dealer and Scores are
	// ignored (they follow from the game).
	Deal *DealRecord
	// Sheet is the score-sheet line when Deal is nil.
	Sheet Sheet
}

// MarshalJSON writes the deal, or {"sheet": ...}.
func (g GameDeal) MarshalJSON() ([]byte, error) {
	if g.Deal != nil {
		d := *g.Deal
		d.Rules, d.Players, d.Dealer, d.Scores = nil, nil, "", nil
		return json.Marshal(d)
	}
	s := g.Sheet
	if s == nil {
		s = Sheet{}
	}
	return json.Marshal(struct {
		Sheet Sheet `json:"sheet"`
	}{s})
}

// UnmarshalJSON reads an entry with DecodeGameDeal.
func (g *GameDeal) UnmarshalJSON(b []byte) error {
	v, err := DecodeGameDeal(b)
	if err != nil {
		return err
	}
	*g = v
	return nil
}

// GameRecord is a whole game: deals in order from the first dealer.
type GameRecord struct {
	// Rules is the rule set; nil means the preset "sm".
	Rules       *Rules     `json:"rules,omitempty"`
	Players     []string   `json:"players"`
	FirstDealer string     `json:"first_dealer"`
	Deals       []GameDeal `json:"deals"`
	// EndedBy is "target" (also when empty) or "time".
	EndedBy string `json:"ended_by,omitempty"`
}

// Ways a game ends (GameRecord.EndedBy).
const (
	EndedByTarget = "target"
	EndedByTime   = "time"
)

// AppendDeal adds a full deal to the game. Its Rules, Players, Dealer and
// Scores are ignored by CheckGame; the dealer is DealerOf(len(Deals)).
func (g *GameRecord) AppendDeal(d *DealRecord) { g.Deals = append(g.Deals, GameDeal{Deal: d}) }

// AppendSheet adds a score-sheet line to the game.
func (g *GameRecord) AppendSheet(s Sheet) { g.Deals = append(g.Deals, GameDeal{Sheet: s}) }

// DealerOf returns the dealer of deal k (counting from 0): the player k
// seats to the left of the first dealer. It returns "" when the first
// dealer is not a player.
func (g *GameRecord) DealerOf(k int) string { return DealerOf(g.Players, g.FirstDealer, k) }

// DealerOf returns the player k seats to the left (clockwise) of first in
// players, or "" when first is not one of them.
func DealerOf(players []string, first string, k int) string {
	i := seatOf(players, first)
	if i < 0 || k < 0 {
		return ""
	}
	return players[(i+k)%len(players)]
}

// UnmarshalJSON reads a deal record with DecodeDeal.
func (d *DealRecord) UnmarshalJSON(b []byte) error {
	v, err := DecodeDeal(b)
	if err != nil {
		return err
	}
	*d = *v
	return nil
}

// UnmarshalJSON reads a game record with DecodeGame.
func (g *GameRecord) UnmarshalJSON(b []byte) error {
	v, err := DecodeGame(b)
	if err != nil {
		return err
	}
	*g = *v
	return nil
}

// seatOf returns the seat of name in players, or -1.
func seatOf(players []string, name string) int {
	for i, p := range players {
		if p == name {
			return i
		}
	}
	return -1
}

// MarshalJSON writes the record as docs/records.md has it, with missing lists
// as [] so that DecodeDeal reads it back.
func (d DealRecord) MarshalJSON() ([]byte, error) {
	type plain DealRecord
	c := plain(d)
	if c.Hands == nil {
		c.Hands = map[string][]Card{}
	}
	c.Exchanges = nonNilLists(c.Exchanges)
	c.Announcements = nonNilLists(c.Announcements)
	c.Tricks = nonNilLists(c.Tricks)
	return json.Marshal(c)
}

// MarshalJSON writes the exchange with empty discards and draws as [].
func (x Exchange) MarshalJSON() ([]byte, error) {
	type plain Exchange
	c := plain(x)
	c.Discard = nonNil(c.Discard)
	c.Draw = nonNil(c.Draw)
	return json.Marshal(c)
}

// MarshalJSON writes the game with missing lists as [].
func (g GameRecord) MarshalJSON() ([]byte, error) {
	type plain GameRecord
	c := plain(g)
	c.Players = nonNil(c.Players)
	c.Deals = nonNil(c.Deals)
	return json.Marshal(c)
}

// nonNilLists returns lists with no nil list inside, copying only when needed.
func nonNilLists[T any](lists [][]T) [][]T {
	out := nonNil(lists)
	for i, l := range out {
		if l == nil {
			out = append([][]T(nil), out...)
			for j := i; j < len(out); j++ {
				out[j] = nonNil(out[j])
			}
			break
		}
	}
	return out
}
