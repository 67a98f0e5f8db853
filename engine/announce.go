package engine

import "github.com/revisor-sm/revisor/engine/cards"

// phaseSources is read-only.
var phaseSources = [2]string{SourceHand1, SourceHand2}

// phase checks one announcement phase and awards its points.
func (c *checker) phase(p int, list []Announcement) {
	if len(list) != c.n {
		c.fail("invalid_record", Location{Part: PartAnnouncements, Round: p + 1}, "",
			"want one entry per player (%d), got %d", c.n, len(list))
	}
	highest := HighCard
	var announced [maxSeats]Category
	var holds [maxSeats]bool
	for i := 0; i < len(list) && i < c.n; i++ {
		a := &list[i]
		seat := seatOf(c.players, a.Player)
		if seat < 0 {
			c.fail("unknown_player", announcement(p, i).withMember("player"), "", "%q is not a player", a.Player)
			continue
		}
		if want := (c.dealer + 1 + i) % c.n; seat != want {
			c.fail("out_of_turn", announcement(p, i), a.Player,
				"%s announces in %s's turn", a.Player, c.players[want])
		}
		if a.Announce == "" {
			continue
		}
		cat, ok := ParseCategory(a.Announce)
		switch {
		case !ok:
			c.fail("unknown_category", announcement(p, i).withMember("announce"), a.Player,
				"%q is not a category that can be announced", a.Announce)
			continue
		case cat < highest:
			c.fail("announcement_too_low", announcement(p, i).withMember("announce"), a.Player,
				"%s announces %s after %s was announced; they must pass", a.Player, cat, highest)
			continue
		}
		highest, announced[seat] = cat, cat
		holds[seat] = c.checkHolds(p, i, seat, cat)
	}
	if highest == HighCard {
		return
	}
	var in uint8
	for s := 0; s < c.n; s++ {
		if announced[s] == highest {
			in |= 1 << s
			if holds[s] {
				c.mustShow[s] = highest
			}
		}
	}
	if w := c.best(in, &c.hand, &holds); w >= 0 {
		c.award(w, phaseSources[p], c.r.Points(highest), highest, true)
	}
}

// checkHolds reports whether seat holds cat, recording a false announcement
// when not.
func (c *checker) checkHolds(p, i, seat int, cat Category) bool {
	if c.hand[seat].Count() != 5 {
		return true // the hand is already wrong; an error says so
	}
	got := cards.EvaluateSet(c.hand[seat]).Category()
	if got >= cat {
		return true
	}
	consequence := c.r.FalseAnnouncement
	if consequence != Penalty {
		consequence = ForfeitGame
		c.forfeit[seat] = true
	}
	c.violate("false_announcement", announcement(p, i), seat, consequence,
		"%s announces %s but holds %s", c.players[seat], cat, got)
	return false
}

// best returns the single best hand among the seats in the mask in, or -1
// for none or an exact tie. With holds, a player who holds their
// announcement beats one who does not.
func (c *checker) best(in uint8, hands *[maxSeats]cardSet, holds *[maxSeats]bool) int {
	win, tie := -1, false
	var winKey [3]int64
	for s := 0; s < c.n; s++ {
		if in>>s&1 == 0 {
			continue
		}
		key := c.handKey(hands[s], holds == nil || holds[s])
		switch {
		case win < 0 || greater(key, winKey):
			win, winKey, tie = s, key, false
		case key == winKey:
			tie = true
		}
	}
	if tie {
		return -1
	}
	return win
}

// handKey is the comparison key of a seat's hand: holding, value, and the
// suit tie-break when the rules have a suit order.
func (c *checker) handKey(h cardSet, holds bool) [3]int64 {
	v := cards.EvaluateSet(h)
	k := [3]int64{0, int64(v), -1}
	if holds {
		k[0] = 1
	}
	if len(c.r.SuitOrder) == 4 {
		r := v.TopRank()
		for st := 0; st < 4; st++ {
			if h.Has(NewCard(r, st)) {
				k[2] = max(k[2], int64(c.r.suitRank(st)))
			}
		}
	}
	return k
}

func greater(a, b [3]int64) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] > b[i]
		}
	}
	return false
}

// announcement returns the location of entry i of phase p.
func announcement(p, i int) Location {
	return Location{Part: PartAnnouncements, Round: p + 1, Index: i + 1}
}
