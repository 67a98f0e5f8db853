package sim

import (
	"slices"

	"github.com/revisor-sm/revisor/engine"
)

// chooseDiscards picks the cards to exchange: keep a made hand, keep pairs,
// trips and quads, draw to four of a suit, otherwise keep a high card or
// two. Now and then a player discards at random, which breaks announced
// combinations and empties the stock.
func (s *Sim) chooseDiscards(hand []engine.Card) []engine.Card {
	if s.chance(0.1) {
		k := s.rng.IntN(6)
		perm := s.rng.Perm(len(hand))
		out := make([]engine.Card, 0, k)
		for _, i := range perm[:k] {
			out = append(out, hand[i])
		}
		return out
	}
	cat := engine.CategoryOf(hand)
	if cat >= engine.Straight && cat != engine.FourOfAKind {
		return []engine.Card{}
	}
	var ranks [13]int
	var suits [4]int
	for _, c := range hand {
		ranks[c.Rank()]++
		suits[c.Suit()]++
	}
	if cat == engine.HighCard {
		for st, k := range suits {
			if k == 4 {
				return filter(hand, func(c engine.Card) bool { return c.Suit() != st })
			}
		}
		keepHigh := s.rng.IntN(3) // keep 0, 1 or 2 of the highest cards
		sorted := slices.SortedFunc(slices.Values(hand), func(a, b engine.Card) int { return b.Rank() - a.Rank() })
		return sorted[keepHigh:]
	}
	return filter(hand, func(c engine.Card) bool { return ranks[c.Rank()] < 2 })
}

// filter returns the cards of hand for which discard is true.
func filter(hand []engine.Card, discard func(engine.Card) bool) []engine.Card {
	out := make([]engine.Card, 0, 5)
	for _, c := range hand {
		if discard(c) {
			out = append(out, c)
		}
	}
	return out
}

// chicago lets players in turn declare Chicago; the first who declares
// holds it. Only players whose score is surely high enough declare.
func (d *deal) chicago() {
	for i := 0; i < d.n; i++ {
		seat := d.turn(i)
		if m := d.r.ChicagoMinScore; !m.Null && d.low[seat] < m.Value {
			continue
		}
		p := d.s.opt.Chicago
		if !strongHand(d.hands[seat]) {
			p /= 10
		}
		if d.s.chance(p) {
			d.declarer = seat
			d.rec.Chicago = d.name(seat)
			return
		}
	}
}

// strongHand reports whether hand has two aces, or three aces and kings.
func strongHand(hand []engine.Card) bool {
	aces, kings := 0, 0
	for _, c := range hand {
		switch c.Rank() {
		case engine.Ace:
			aces++
		case engine.King:
			kings++
		}
	}
	return aces >= 2 || aces+kings >= 3
}

// playTricks plays the five tricks, stopping after the trick that loses a
// Chicago.
func (d *deal) playTricks() {
	leader := d.turn(0)
	if d.r.FirstLead == engine.LeadChicagoDeclarer && d.declarer >= 0 {
		leader = d.declarer
	}
	d.rec.Tricks = make([][]engine.Play, 0, 5)
	for t := 0; t < 5; t++ {
		plays := make([]engine.Play, 0, d.n)
		led, best, winner := -1, -1, -1
		for j := 0; j < d.n; j++ {
			seat := (leader + j) % d.n
			card := d.choosePlay(seat, led)
			d.hands[seat] = without(d.hands[seat], []engine.Card{card})
			plays = append(plays, engine.Play{Player: d.name(seat), Card: card})
			switch {
			case led < 0:
				led, best, winner = card.Suit(), card.Rank(), seat
			case card.Suit() == led && card.Rank() > best:
				best, winner = card.Rank(), seat
			}
		}
		d.rec.Tricks = append(d.rec.Tricks, plays)
		leader = winner
		if d.declarer >= 0 && winner != d.declarer {
			return
		}
	}
}

// choosePlay picks a card: the declarer leads their highest card, others
// lead at random; followers follow suit (highest or lowest at random) and
// revoke only with Options.Revoke.
func (d *deal) choosePlay(seat, led int) engine.Card {
	hand := d.hands[seat]
	byRank := func(a, b engine.Card) int { return a.Rank() - b.Rank() }
	if led < 0 {
		if seat == d.declarer {
			return slices.MaxFunc(hand, byRank)
		}
		return hand[d.s.rng.IntN(len(hand))]
	}
	follow := filter(hand, func(c engine.Card) bool { return c.Suit() == led })
	if len(follow) == 0 {
		return hand[d.s.rng.IntN(len(hand))]
	}
	if len(follow) < len(hand) && d.s.chance(d.s.opt.Revoke) {
		other := filter(hand, func(c engine.Card) bool { return c.Suit() != led })
		return other[d.s.rng.IntN(len(other))]
	}
	if d.s.chance(0.5) {
		return slices.MaxFunc(follow, byRank)
	}
	return slices.MinFunc(follow, byRank)
}
