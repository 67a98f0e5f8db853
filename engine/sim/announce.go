package sim

import (
	"github.com/revisor-sm/revisor/engine"
)

// announce plays one announcement phase: each player in turn announces or
// passes, never below the highest so far. It sets who must show when
// breaking in the next exchange round and adds the phase points the
// simulator is sure of to the lower bounds of the scores.
func (d *deal) announce() []engine.Announcement {
	list := make([]engine.Announcement, 0, d.n)
	highest := engine.HighCard
	var announced [4]engine.Category
	var holds [4]bool
	for i := 0; i < d.n; i++ {
		seat := d.turn(i)
		held := engine.CategoryOf(d.hands[seat])
		a := d.s.chooseAnnouncement(held, highest)
		list = append(list, engine.Announcement{Player: d.name(seat)})
		if a == engine.HighCard {
			continue
		}
		list[i].Announce = a.String()
		highest, announced[seat], holds[seat] = a, a, held >= a
	}
	d.mustShow = [4]engine.Category{}
	if highest == engine.HighCard {
		return list
	}
	for seat := 0; seat < d.n; seat++ {
		if announced[seat] == highest && holds[seat] {
			d.mustShow[seat] = highest
		}
	}
	d.phasePoints(highest, &announced, &holds)
	return list
}

// chooseAnnouncement picks an announcement for a player holding held after
// highest was announced; HighCard is a pass. Honest players announce what
// they hold (now and then less, or pass); with Options.Bluff they claim more.
func (s *Sim) chooseAnnouncement(held, highest engine.Category) engine.Category {
	if held < engine.RoyalStraightFlush && s.chance(s.opt.Bluff) {
		lo := max(held+1, highest)
		hi := min(lo+1, engine.RoyalStraightFlush)
		return lo + engine.Category(s.rng.IntN(int(hi-lo)+1))
	}
	if held == engine.HighCard || held < highest {
		return engine.HighCard
	}
	switch x := s.rng.Float64(); {
	case x < 0.75:
		return held
	case x < 0.85:
		return max(highest, engine.Pair) // less than held, still legal
	}
	return engine.HighCard
}

// phasePoints adds the phase's points to the lower bounds of the scores
// when the simulator can tell who scores them: among the highest
// announcements a holder beats a non-holder, then the better hand. An exact
// tie of hands under a suit order is left undecided (nobody is credited).
func (d *deal) phasePoints(highest engine.Category, announced *[4]engine.Category, holds *[4]bool) {
	win, tie := -1, false
	var winKey [2]uint64
	for seat := 0; seat < d.n; seat++ {
		if announced[seat] != highest {
			continue
		}
		key := [2]uint64{0, uint64(engine.Evaluate([5]engine.Card(d.hands[seat])))}
		if holds[seat] {
			key[0] = 1
		}
		switch {
		case win < 0 || key[0] > winKey[0] || key[0] == winKey[0] && key[1] > winKey[1]:
			win, winKey, tie = seat, key, false
		case key == winKey:
			tie = true
		}
	}
	reset := highest == engine.FourOfAKind && d.r.QuadsResetOpponents
	if tie {
		if reset && d.r.SuitOrder != engine.SuitOrderNone {
			d.low = [4]int{} // someone scored and reset the others; who is not known
		}
		return
	}
	d.low[win] += d.r.Points(highest)
	if !d.r.NegativeScores {
		d.low[win] = max(d.low[win], 0)
	}
	if reset {
		for seat := 0; seat < d.n; seat++ {
			if seat != win {
				d.low[seat] = 0
			}
		}
	}
}

// combination returns the cards of hand that make its category: the
// pairs, trips and quads, or all five cards for the other categories.
func combination(hand []engine.Card) []engine.Card {
	switch engine.CategoryOf(hand) {
	case engine.Pair, engine.TwoPair, engine.ThreeOfAKind, engine.FourOfAKind:
	default:
		return append([]engine.Card(nil), hand...)
	}
	var count [13]int
	for _, c := range hand {
		count[c.Rank()]++
	}
	var out []engine.Card
	for _, c := range hand {
		if count[c.Rank()] >= 2 {
			out = append(out, c)
		}
	}
	return out
}
