package engine

import (
	"slices"
	"strconv"
)

// Part is the member of a record a Location is in; its value is the
// member's JSON name.
type Part string

// Parts of game and deal records. PartWhole is the whole record (or, with
// a deal number, the whole deal entry). PartOverrides is the overrides
// object inside the rules.
const (
	PartWhole         Part = ""
	PartPlayers       Part = "players"
	PartFirstDealer   Part = "first_dealer"
	PartEndedBy       Part = "ended_by"
	PartDeals         Part = "deals"
	PartRules         Part = "rules"
	PartOverrides     Part = "overrides"
	PartDealer        Part = "dealer"
	PartScores        Part = "scores"
	PartDeck          Part = "deck"
	PartHands         Part = "hands"
	PartExchanges     Part = "exchanges"
	PartAnnouncements Part = "announcements"
	PartChicago       Part = "chicago"
	PartTricks        Part = "tricks"
	PartSheet         Part = "sheet"
)

// Location is the place in a record that a problem concerns, as data: a
// page can put a message next to the field it names without reading
// Problem.Path, which is the same place as an RFC 6901 JSON Pointer.
// Positions count from 1, as players do; 0 means the location has none.
// The zero Location is the whole record.
type Location struct {
	// Deal is the deal entry of a game record (1 is deals[0]); 0 outside
	// the deals and in a deal record.
	Deal int
	// Part is the member of the record, or of the deal entry.
	Part Part
	// Player is the player id that keys the location: the hand, start score
	// or score-sheet line of that player.
	Player string
	// Round is the exchange round, announcement phase or trick.
	Round int
	// Index is the entry: the turn within a round, phase or trick, the seat
	// in players, or the position in the deck.
	Index int
	// Member is the member of an entry ("player", "card", "announce",
	// "show", "discard", "draw", "open", "reshuffled"), the source of a
	// score-sheet line ("hand1", "hand2", "last_trick", "chicago", "hand3",
	// or an unknown key), or the key in the rules or overrides.
	Member string
	// Key is the member below Member: "card" or "taken" of an open card, or
	// a category of the hand_points override.
	Key string
	// Card is the position in a list of cards: a dealt hand, or the show,
	// discard or draw of an exchange.
	Card int
	// blank marks Player, Member or Key as present though empty (a record
	// may use "" as a key).
	blank uint8
}

const (
	blankPlayer uint8 = 1 << iota
	blankMember
	blankKey
)

// withPlayer, withMember and withKey return l with that key, which may be
// empty.
func (l Location) withPlayer(k string) Location {
	l.Player = k
	l.blank |= blankIf(k, blankPlayer)
	return l
}

func (l Location) withMember(k string) Location {
	l.Member = k
	l.blank |= blankIf(k, blankMember)
	return l
}

func (l Location) withKey(k string) Location {
	l.Key = k
	l.blank |= blankIf(k, blankKey)
	return l
}

func blankIf(k string, bit uint8) uint8 {
	if k == "" {
		return bit
	}
	return 0
}

// Path returns the location as a JSON Pointer from the record's root.
func (l Location) Path() string {
	return string(l.appendPath(make([]byte, 0, 40)))
}

func (l Location) appendPath(b []byte) []byte {
	if l.Deal > 0 {
		b = strconv.AppendInt(append(b, "/deals/"...), int64(l.Deal-1), 10)
	}
	switch l.Part {
	case PartWhole:
		return b
	case PartOverrides:
		b = append(b, "/rules/overrides"...)
	default:
		b = append(append(b, '/'), l.Part...)
	}
	b = appendIndex(b, l.Round)
	b = appendIndex(b, l.Index)
	b = appendKey(b, l.Player, l.blank&blankPlayer != 0)
	b = appendKey(b, l.Member, l.blank&blankMember != 0)
	b = appendKey(b, l.Key, l.blank&blankKey != 0)
	return appendIndex(b, l.Card)
}

func appendIndex(b []byte, n int) []byte {
	if n <= 0 {
		return b
	}
	return strconv.AppendInt(append(b, '/'), int64(n-1), 10)
}

func appendKey(b []byte, k string, blank bool) []byte {
	if k == "" && !blank {
		return b
	}
	return append(append(b, '/'), escapeKey(k)...)
}

// inDeal returns l inside deal entry k (from 0) of a game record.
func (l Location) inDeal(k int) Location {
	l.Deal = k + 1
	return l
}

// problem returns a problem at l.
func (l Location) problem(code, msg, player string) Problem {
	return Problem{Code: code, Path: l.Path(), Message: msg, Player: player, At: l}
}

// NewProblem returns a problem with code and message at l; its Path is
// l's pointer.
func NewProblem(code string, at Location, msg string) Problem {
	return at.problem(code, msg, "")
}

// locate returns the location of the pointer p of a decoder whose root is
// a record (root PartWhole), a rules object (PartRules) or an overrides
// object (PartOverrides).
func (p *ptr) locate(root Part) Location {
	var buf [8]ptr
	steps := buf[:0]
	for q := p; q != nil; q = q.up {
		steps = append(steps, *q)
	}
	slices.Reverse(steps)
	switch root {
	case PartRules:
		return rulesLocation(steps)
	case PartOverrides:
		return overridesLocation(steps)
	}
	var l Location
	if len(steps) > 1 && steps[0].key == string(PartDeals) && steps[1].idx >= 0 {
		l.Deal, steps = steps[1].idx+1, steps[2:]
	}
	if len(steps) == 0 {
		return l
	}
	part := Part(steps[0].key)
	if part == PartRules {
		r := rulesLocation(steps[1:])
		r.Deal = l.Deal
		return r
	}
	l.Part = part
	switch part {
	case PartHands, PartScores, PartSheet:
		return keyedLocation(l, steps[1:])
	case PartExchanges, PartAnnouncements, PartTricks:
		return entryLocation(l, steps[1:])
	case PartPlayers, PartDeck:
		if len(steps) > 1 {
			l.Index = steps[1].idx + 1
		}
	}
	return l
}

// keyedLocation reads the player key below hands, scores or sheet, and the
// card of a hand or source of a sheet line below it.
func keyedLocation(l Location, steps []ptr) Location {
	if len(steps) > 0 {
		l = l.withPlayer(steps[0].key)
	}
	if len(steps) > 1 {
		if steps[1].idx >= 0 {
			l.Card = steps[1].idx + 1
		} else {
			l = l.withMember(steps[1].key)
		}
	}
	return l
}

// entryLocation reads round, entry, member and card or key below
// exchanges, announcements or tricks.
func entryLocation(l Location, steps []ptr) Location {
	for i, s := range steps {
		switch {
		case i == 0:
			l.Round = s.idx + 1
		case i == 1:
			l.Index = s.idx + 1
		case i == 2:
			l = l.withMember(s.key)
		case s.idx >= 0:
			l.Card = s.idx + 1
		default:
			l = l.withKey(s.key)
		}
	}
	return l
}

// rulesLocation reads the steps below a rules object.
func rulesLocation(steps []ptr) Location {
	if len(steps) > 1 && steps[0].key == string(PartOverrides) {
		return overridesLocation(steps[1:])
	}
	l := Location{Part: PartRules}
	if len(steps) > 0 {
		l = l.withMember(steps[0].key)
	}
	return l
}

// overridesLocation reads the steps below an overrides object.
func overridesLocation(steps []ptr) Location {
	l := Location{Part: PartOverrides}
	if len(steps) > 0 {
		l = l.withMember(steps[0].key)
	}
	if len(steps) > 1 {
		l = l.withKey(steps[1].key)
	}
	return l
}
