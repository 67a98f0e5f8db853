package sim

import (
	"fmt"
	"slices"

	"github.com/revisor-sm/revisor/engine"
)

// deal is the state of one simulated deal; players are indexed by seat.
type deal struct {
	s      *Sim
	r      *engine.Rules
	rec    *engine.DealRecord
	n      int
	dealer int
	start  [4]int
	// low is a lower bound of each score during the deal: the start plus
	// the phase points the simulator is sure of. It decides who may declare
	// Chicago, so a declaration is never one the rules forbid.
	low      [4]int
	hands    [4][]engine.Card
	stock    []engine.Card // top card first
	pile     []engine.Card // the discard pile, in no order
	mustShow [4]engine.Category
	declarer int
}

// Deal plays one deal at a table of players dealt by dealer, with the game
// scores at its start (absent players have 0), and returns its record. The
// record carries the simulator's rules. Deal panics when dealer is not one
// of players or the number of players is not 2 to 4.
func (s *Sim) Deal(players []string, dealer string, scores map[string]int) *engine.DealRecord {
	n := len(players)
	dseat := slices.Index(players, dealer)
	if dseat < 0 || n < 2 || n > 4 {
		panic(fmt.Sprintf("sim: cannot deal at a table of %q with dealer %q", players, dealer))
	}
	rules := s.rules
	rec := &engine.DealRecord{Rules: &rules, Players: slices.Clone(players), Dealer: dealer,
		Scores: make(map[string]int, n), Hands: make(map[string][]engine.Card, n)}
	d := &deal{s: s, r: &rules, rec: rec, n: n, dealer: dseat, declarer: -1}
	for i, p := range players {
		d.start[i] = scores[p]
		rec.Scores[p] = scores[p]
	}
	d.low = d.start
	d.dealCards()
	for round := 0; round < 3; round++ {
		rec.Exchanges = append(rec.Exchanges, d.exchangeRound(round))
		if round < 2 {
			rec.Announcements = append(rec.Announcements, d.announce())
		}
	}
	d.chicago()
	d.playTricks()
	return rec
}

// turn returns the seat that is i-th in turn: 0 is the dealer's left.
func (d *deal) turn(i int) int { return (d.dealer + 1 + i) % d.n }

func (d *deal) name(seat int) string { return d.rec.Players[seat] }

// dealCards shuffles the deck and deals five cards to each player, one at a
// time clockwise from the dealer's left.
func (d *deal) dealCards() {
	deck := make([]engine.Card, 52)
	for i, v := range d.s.rng.Perm(52) {
		deck[i] = engine.Card(v)
	}
	if !d.s.opt.NoDeck {
		d.rec.Deck = slices.Clone(deck)
	}
	for k := 0; k < 5; k++ {
		for o := 0; o < d.n; o++ {
			seat := d.turn(o)
			d.hands[seat] = append(d.hands[seat], deck[o+d.n*k])
		}
	}
	for seat := 0; seat < d.n; seat++ {
		d.rec.Hands[d.name(seat)] = slices.Clone(d.hands[seat])
	}
	d.stock = deck[5*d.n:]
}

// exchangeRound lets every player in turn exchange once.
func (d *deal) exchangeRound(round int) []engine.Exchange {
	list := []engine.Exchange{}
	for i := 0; i < d.n; i++ {
		seat := d.turn(i)
		x, ok := d.exchange(round, seat)
		if ok {
			list = append(list, x)
		}
	}
	return list
}

// stopped reports whether the exchange stop forbids seat to exchange.
func (d *deal) stopped(seat int) bool {
	return !d.r.ExchangeStop.Null && d.start[seat] >= d.r.ExchangeStop.Value
}

// exchange plays one player's exchange; ok is false when the player is
// left out of the record.
func (d *deal) exchange(round, seat int) (x engine.Exchange, ok bool) {
	idle := engine.Exchange{Player: d.name(seat), Discard: []engine.Card{}, Draw: []engine.Card{}}
	if d.stopped(seat) && !d.s.chance(d.s.opt.ExchangeAfterStop) {
		return idle, d.s.chance(d.s.opt.ListIdle)
	}
	hand := d.hands[seat]
	disc := d.s.chooseDiscards(hand)
	if d.r.StockExhaustion == engine.StockForbid && len(disc) > len(d.stock) {
		disc = disc[:len(d.stock)]
	}
	if len(disc) == 0 {
		return idle, d.s.chance(d.s.opt.ListIdle)
	}
	kept := without(hand, disc)
	x = engine.Exchange{Player: d.name(seat), Discard: disc}
	if cat := d.mustShow[seat]; round > 0 && cat != engine.HighCard && d.r.ShowOnBreak &&
		engine.CategoryOf(kept) < cat && !d.s.chance(d.s.opt.UnshownBreak) {
		x.Show = combination(hand)
	}
	d.pile = append(d.pile, disc...)
	draw, reshuffled := d.draw(&x, kept, disc)
	x.Draw, x.Reshuffled = draw, reshuffled
	d.hands[seat] = append(kept, draw...)
	return x, true
}

// draw takes the cards for an exchange from the stock, asking for the open
// card now and then in a one-card exchange.
func (d *deal) draw(x *engine.Exchange, kept, disc []engine.Card) ([]engine.Card, bool) {
	draw := make([]engine.Card, 0, len(disc))
	reshuffled := false
	need := len(disc)
	canOpen := d.r.OpenCard == engine.OpenCardOnRequest &&
		(d.r.StockExhaustion != engine.StockForbid || len(d.stock) >= 2)
	if need == 1 && canOpen && d.s.chance(d.s.opt.OpenCard) {
		card, rs := d.take(disc)
		reshuffled = rs
		taken := engine.CategoryOf(append(slices.Clone(kept), card)) > engine.CategoryOf(kept) || d.s.chance(0.3)
		x.Open = &engine.OpenCard{Card: card, Taken: taken}
		if taken {
			return append(draw, card), reshuffled
		}
		// The refused card goes to the discard pile; it is not one of the
		// player's own discards, so should the stock run out now it is
		// shuffled into the new stock and may come back (docs/rules.md).
		d.pile = append(d.pile, card)
	}
	for len(draw) < need {
		card, rs := d.take(disc)
		reshuffled = reshuffled || rs
		draw = append(draw, card)
	}
	return draw, reshuffled
}

// take takes the top card of the stock. When the stock is empty the
// discard pile, less the player's own discards of this exchange, is
// shuffled into a new stock; take reports whether that happened.
func (d *deal) take(own []engine.Card) (engine.Card, bool) {
	reshuffled := false
	if len(d.stock) == 0 {
		var stock, pile []engine.Card
		for _, c := range d.pile {
			if slices.Contains(own, c) {
				pile = append(pile, c)
			} else {
				stock = append(stock, c)
			}
		}
		d.s.rng.Shuffle(len(stock), func(i, j int) { stock[i], stock[j] = stock[j], stock[i] })
		d.stock, d.pile, reshuffled = stock, pile, true
	}
	c := d.stock[0]
	d.stock = d.stock[1:]
	return c, reshuffled
}

// without returns hand less the cards in out, in hand order.
func without(hand, out []engine.Card) []engine.Card {
	kept := make([]engine.Card, 0, 5)
	for _, c := range hand {
		if !slices.Contains(out, c) {
			kept = append(kept, c)
		}
	}
	return kept
}
