package engine

import "github.com/revisor-sm/revisor/engine/cards"

// turnPos returns how many seats after the dealer's left seat comes: 0 for
// the player on the dealer's left, n-1 for the dealer.
func (c *checker) turnPos(seat int) int { return (seat - c.dealer - 1 + 2*c.n) % c.n }

// exchangeRound checks one exchange round: turn order, binding exchanges and
// each exchange.
func (c *checker) exchangeRound(round int, list []Exchange) {
	var done [maxSeats]bool
	last := -1
	for i := range list {
		x := &list[i]
		seat := seatOf(c.players, x.Player)
		if seat < 0 {
			c.fail("unknown_player", xloc{round, i}.member("player"), "", "%q is not a player", x.Player)
			continue
		}
		pos := c.turnPos(seat)
		switch {
		case done[seat]:
			c.fail("exchange_is_binding", xloc{round, i}.loc(), x.Player,
				"%s already exchanged in round %d; an exchange is binding", x.Player, round+1)
		case pos < last:
			c.fail("out_of_turn", xloc{round, i}.loc(), x.Player,
				"%s exchanges after a player later in turn", x.Player)
		}
		done[seat] = true
		last = max(last, pos)
		c.exchange(round, i, seat, x)
	}
}

// xloc locates an exchange in a deal record; locations are built only when
// a problem is reported.
type xloc struct{ round, i int }

// loc returns the location of the exchange.
func (l xloc) loc() Location {
	return Location{Part: PartExchanges, Round: l.round + 1, Index: l.i + 1}
}

// member returns the location of a member of the exchange, such as "open".
func (l xloc) member(m string) Location { return l.loc().withMember(m) }

// item returns the location of card j of a field ("draw", "discard"), or of
// the field itself when j < 0.
func (l xloc) item(field string, j int) Location {
	loc := l.member(field)
	loc.Card = j + 1
	return loc
}

// exchange checks one exchange and applies it as recorded.
func (c *checker) exchange(round, i, seat int, x *Exchange) {
	if len(x.Discard) == 0 && len(x.Draw) == 0 && x.Open == nil {
		return
	}
	at := xloc{round, i}
	if stop := c.r.ExchangeStop; !stop.Null && c.start[seat] >= stop.Value {
		c.violate("exchange_after_stop", at.loc(), seat, Penalty,
			"%s had %d at the start of the deal (exchange stop %d) and may not exchange", x.Player, c.start[seat], stop.Value)
	}
	for j, card := range x.Show {
		if !c.hand[seat].Has(card) {
			c.fail("card_not_held", at.item("show", j), x.Player, "%s shows %s, which they do not hold", x.Player, card)
		}
	}
	disc := c.discards(seat, x, at)
	if round > 0 {
		c.checkShow(seat, disc, x, at)
	}
	c.hand[seat] &^= disc
	c.pile |= disc
	if len(x.Draw) != len(x.Discard) {
		c.fail("draw_count_mismatch", at.member("draw"), x.Player, "%s discards %d cards and draws %d", x.Player, len(x.Discard), len(x.Draw))
	}
	need := len(x.Draw)
	if x.Open != nil && !x.Open.Taken {
		need++
	}
	if c.r.StockExhaustion == StockForbid && need > c.stockCount {
		c.fail("stock_exhausted", at.loc(), x.Player, "%s needs %d cards; the stock holds %d", x.Player, need, c.stockCount)
	}
	reshuffled := c.drawAll(seat, disc, x, at)
	if x.Reshuffled && !reshuffled {
		c.fail("invalid_record", at.member("reshuffled"), x.Player, "marked reshuffled, but the stock did not run out")
	}
}

// discards checks the discarded cards and returns them as a set.
func (c *checker) discards(seat int, x *Exchange, at xloc) cardSet {
	var disc cardSet
	for j, card := range x.Discard {
		switch {
		case disc.Has(card):
			c.fail("duplicate_card", at.item("discard", j), x.Player, "%s is discarded twice", card)
		case !c.hand[seat].Has(card):
			c.fail("card_not_held", at.item("discard", j), x.Player, "%s discards %s, which they do not hold", x.Player, card)
		}
		disc |= 1 << card
	}
	return disc & c.hand[seat]
}

// checkShow applies show when breaking: a player who holds the highest
// announced category of the phase before must show it before an exchange
// that breaks it.
func (c *checker) checkShow(seat int, disc cardSet, x *Exchange, at xloc) {
	cat := c.mustShow[seat]
	if cat == HighCard || !c.r.ShowOnBreak || cards.EvaluateSet(c.hand[seat]&^disc).Category() >= cat {
		return
	}
	show := cards.SetOf(x.Show)
	if show&^c.hand[seat] == 0 && show.Count() <= 5 && cards.EvaluateSet(show).Category() >= cat {
		return
	}
	c.violate("unshown_break", at.loc(), seat, Penalty,
		"%s breaks their announced %s without showing it", x.Player, cat)
}

// drawAll takes the drawn cards (and an open card) from the stock. It
// reports whether the stock ran out and was reshuffled.
func (c *checker) drawAll(seat int, disc cardSet, x *Exchange, at xloc) bool {
	draws := x.Draw
	reshuffled := false
	if o := x.Open; o != nil {
		switch {
		case c.r.OpenCard == OpenCardOff:
			c.fail("open_card_not_allowed", at.member("open"), x.Player, "open cards are off under these rules")
		case len(x.Discard) != 1:
			c.fail("open_card_not_allowed", at.member("open"), x.Player, "an open card only in a one-card exchange; %s discards %d", x.Player, len(x.Discard))
		}
		reshuffled = c.take(seat, disc, o.Card, at, "open", -1, "open_card_mismatch")
		switch {
		case o.Taken && (len(draws) == 0 || draws[0] != o.Card):
			c.fail("open_card_mismatch", at.member("draw"), x.Player, "%s took the open card %s, so the draw must be it", x.Player, o.Card)
		case o.Taken:
			c.hand[seat] |= 1 << o.Card
			draws = draws[1:]
		default:
			c.pile |= 1 << o.Card
			// After a reshuffle the refused card is back in the stock and may be drawn.
			if len(draws) > 0 && draws[0] == o.Card && c.stockCount > 0 {
				c.fail("open_card_mismatch", at.item("draw", 0), x.Player, "%s refused the open card %s but drew it", x.Player, o.Card)
			}
		}
	}
	off := len(x.Draw) - len(draws)
	for j, card := range draws {
		if c.take(seat, disc, card, at, "draw", j+off, "draw_mismatch") {
			reshuffled = true
		}
		c.hand[seat] |= 1 << card
	}
	return reshuffled
}

// take takes card from the top of the stock, reshuffling the discard pile
// (less the player's own discards) when the stock is empty. mismatch is the
// code for a card that is not the next card of the recorded deck; field and
// j locate the card in the exchange (field "open": the open card).
func (c *checker) take(seat int, own cardSet, card Card, at xloc, field string, j int, mismatch string) bool {
	reshuffled := false
	if c.stockCount <= 0 {
		c.stock = c.pile &^ own
		c.stockCount = c.stock.Count()
		c.pile &= own
		c.ordered = false
		reshuffled = true
		if c.stockCount == 0 {
			c.fail("stock_exhausted", at.loc(), c.players[seat], "the stock and the discard pile are empty")
		}
	}
	switch {
	case c.ordered && c.deckPos < len(c.deck) && c.deck[c.deckPos] != card:
		c.fail(mismatch, c.cardPath(at, field, j), c.players[seat], "%s is not the next card of the stock (%s)", card, c.deck[c.deckPos])
	case !c.stock.Has(card):
		c.fail("card_not_in_stock", c.cardPath(at, field, j), c.players[seat], "%s is not in the stock (%s)", card, c.whereIs(card, own))
	}
	c.deckPos++
	c.stock &^= 1 << card
	c.stockCount--
	return reshuffled
}

func (c *checker) cardPath(at xloc, field string, j int) Location {
	if field == "open" {
		return at.member("open").withKey("card")
	}
	return at.item(field, j)
}

// whereIs says where a card that is not in the stock is.
func (c *checker) whereIs(card Card, own cardSet) string {
	for i := 0; i < c.n; i++ {
		if c.hand[i].Has(card) {
			return "it is in " + c.players[i] + "'s hand"
		}
	}
	switch {
	case own.Has(card):
		return "it is the player's own discard"
	case c.pile.Has(card):
		return "it is in the discard pile"
	}
	return "it was already taken"
}
