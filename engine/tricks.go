package engine

import "github.com/revisor-sm/revisor/engine/cards"

// chicago checks a Chicago declaration: only a player with enough points at
// that moment may declare.
func (c *checker) chicago(name string) {
	if name == "" {
		return
	}
	seat := seatOf(c.players, name)
	if seat < 0 {
		c.fail("unknown_player", Location{Part: PartChicago}, "", "%q is not a player", name)
		return
	}
	if m := c.r.ChicagoMinScore; !m.Null && c.score[seat] < m.Value {
		c.fail("chicago_not_allowed", Location{Part: PartChicago}, name,
			"%s has %d points and may not declare Chicago (minimum %d)", name, c.score[seat], m.Value)
	}
	c.declarer = seat
}

// tricks checks the five tricks, ending the deal at once when a Chicago is lost.
func (c *checker) tricks(tricks [][]Play) {
	leader := (c.dealer + 1) % c.n
	if c.r.FirstLead == LeadChicagoDeclarer && c.declarer >= 0 {
		leader = c.declarer
	}
	c.ended = EndedComplete
	for t, trick := range tricks {
		if c.ended == EndedChicagoLost {
			c.fail("play_after_deal_end", Location{Part: PartTricks, Round: t + 1}, "", "the deal ended when the Chicago was lost")
			return
		}
		if t >= 5 {
			c.fail("invalid_record", Location{Part: PartTricks, Round: t + 1}, "", "a deal has five tricks")
			return
		}
		winner := c.trick(t, trick, leader)
		if len(trick) < c.n || winner < 0 {
			c.fail("incomplete_deal", Location{Part: PartTricks, Round: t + 1}, "", "trick %d has %d cards, want %d", t+1, len(trick), c.n)
			return
		}
		leader, c.lastWinner = winner, winner
		if c.declarer >= 0 && winner != c.declarer {
			c.ended = EndedChicagoLost
		}
	}
	if c.ended != EndedChicagoLost && len(tricks) < 5 {
		c.fail("incomplete_deal", Location{Part: PartTricks}, "", "the record has %d tricks, want 5", len(tricks))
	}
}

// trick checks one trick and returns its winner (-1 if nobody led).
func (c *checker) trick(t int, plays []Play, leader int) int {
	led, best, winner := -1, -1, -1
	for j := range plays {
		pl := &plays[j]
		seat := seatOf(c.players, pl.Player)
		if seat < 0 {
			c.fail("unknown_player", play(t, j).withMember("player"), "", "%q is not a player", pl.Player)
			continue
		}
		if want := (leader + j) % c.n; j >= c.n || seat != want {
			c.fail("out_of_turn", play(t, j), pl.Player, "%s plays in %s's turn", pl.Player, c.players[want])
		}
		card := pl.Card
		switch {
		case !c.hand[seat].Has(card):
			c.fail("card_not_held", play(t, j).withMember("card"), pl.Player, "%s plays %s, which they do not hold", pl.Player, card)
		case led >= 0 && card.Suit() != led && c.hand[seat]&suitMask(led) != 0:
			c.violate("revoke", play(t, j), seat, Penalty,
				"%s held a %s but played %s", pl.Player, suitNames[led], card)
		}
		c.hand[seat] &^= 1 << card
		c.played[seat] |= 1 << card
		if led < 0 {
			led, best, winner = card.Suit(), card.Rank(), seat
		} else if card.Suit() == led && card.Rank() > best {
			best, winner = card.Rank(), seat
		}
	}
	return winner
}

// suitNames is read-only.
var suitNames = [4]string{"club", "diamond", "heart", "spade"}

func suitMask(s int) cardSet { return 0x1fff << (13 * s) }

// showdown scores the last trick or the Chicago, and the final hands.
func (c *checker) showdown() {
	if c.lastWinner < 0 && c.ended != EndedChicagoLost {
		return
	}
	switch {
	case c.ended == EndedChicagoLost:
		c.award(c.declarer, SourceChicago, -c.r.ChicagoPoints, HighCard, false)
		return
	case c.declarer >= 0:
		c.chicagoWon = true
		if c.r.ChicagoStacksLastTrick {
			c.award(c.lastWinner, SourceLastTrick, c.r.LastTrickPoints, HighCard, false)
		}
		c.award(c.declarer, SourceChicago, c.r.ChicagoPoints, HighCard, false)
	default:
		c.award(c.lastWinner, SourceLastTrick, c.r.LastTrickPoints, HighCard, false)
	}
	if w := c.best(1<<c.n-1, &c.played, nil); w >= 0 {
		if cat := cards.EvaluateSet(c.played[w]).Category(); cat != HighCard {
			c.award(w, SourceHand3, c.r.Points(cat), cat, true)
		}
	}
}

// play returns the location of card j of trick t.
func play(t, j int) Location {
	return Location{Part: PartTricks, Round: t + 1, Index: j + 1}
}
