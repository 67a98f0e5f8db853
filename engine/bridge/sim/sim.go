// Package sim writes random legal bridge matches: Chicago (four players)
// and draw bridge rubbers (two), with or without the cards, for tests,
// demos and load. The same seed always gives the same matches.
package sim

import (
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/bridge"
)

// Options shape the matches a Sim writes.
type Options struct {
	// Play gives every played deal its hands and its thirteen tricks.
	Play bool
	// Vulnerability is the Chicago's rule (empty: the default, "dealer").
	Vulnerability string
}

// Sim writes random matches from one seed.
type Sim struct {
	rng *rand.Rand
	opt Options
}

// New returns a Sim for seed.
func New(seed uint64, opt Options) *Sim {
	return &Sim{rng: rand.New(rand.NewPCG(seed, 0x62726964676521)), opt: opt}
}

// Players returns n player names: p1, p2, ...
func Players(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "p" + strconv.Itoa(i+1)
	}
	return out
}

// Match writes one whole match of game (bridge.GameChicago or
// bridge.GameDraw) between players (4 or 2 names).
func (s *Sim) Match(game string, players []string) *bridge.Record {
	return s.match(game, players, s.rng.IntN(len(players)))
}

// MatchAt writes the match of a drawn table: a Chicago between four
// players, a draw bridge rubber between two, dealt first by firstDealer
// (the first player when firstDealer is none of them).
func (s *Sim) MatchAt(players []string, firstDealer string) *bridge.Record {
	game := bridge.GameChicago
	if len(players) == 2 {
		game = bridge.GameDraw
	}
	return s.match(game, players, max(slices.Index(players, firstDealer), 0))
}

// match writes a match of game between players, dealt first by the
// player at first.
func (s *Sim) match(game string, players []string, first int) *bridge.Record {
	rec := &bridge.Record{Game: game, Players: players, Rules: bridge.Rules{Vulnerability: s.opt.Vulnerability}}
	rec.FirstDealer = players[first]
	m := bridge.NewMatch(game, players, rec.Rules, first)
	for !m.Complete() {
		d, contract, declarer := s.Deal(players, m.Dealer())
		rec.Deals = append(rec.Deals, d)
		if d.Tricks == bridge.NoTricks {
			m.PassOut()
		} else {
			m.Play(contract, declarer, d.Tricks)
		}
	}
	return rec
}

// Deal writes one deal dealt by seat dealer: its auction and tricks, and
// with Options.Play its hands and play. It returns the contract and the
// declarer's seat too (a passed-out deal has Tricks bridge.NoTricks).
func (s *Sim) Deal(players []string, dealer int) (bridge.Deal, bridge.Contract, int) {
	d := bridge.Deal{Dealer: players[dealer], Tricks: bridge.NoTricks}
	a := bridge.NewAuction(len(players), dealer)
	for !a.Done() {
		c := s.call(&a)
		if a.Add(c) != nil {
			c = bridge.Pass
			_ = a.Add(c)
		}
		d.Auction = append(d.Auction, c)
	}
	contract, declarer, ok := a.Contract()
	if !ok {
		return d, contract, declarer
	}
	if s.opt.Play {
		d.Hands, d.Play, d.Tricks = s.play(players, declarer, contract.Strain)
	} else {
		d.Tricks = min(13, max(0, 6+contract.Level+s.rng.IntN(6)-3))
	}
	return d, contract, declarer
}

// call picks a call, perhaps one the auction refuses (then Deal passes).
func (s *Sim) call(a *bridge.Auction) bridge.Call {
	r := s.rng.IntN(100)
	last := a.LastBid()
	switch {
	case last == bridge.Pass && r < 70, last != bridge.Pass && r < 30:
		next := bridge.Bid(1, bridge.Clubs) + bridge.Call(s.rng.IntN(6))
		if last != bridge.Pass {
			next = last + 1 + bridge.Call(s.rng.IntN(5))
		}
		if next.IsBid() {
			return next
		}
	case r < 38:
		return bridge.Double
	case r < 42:
		return bridge.Redouble
	}
	return bridge.Pass
}

// play deals the cards and plays thirteen random legal tricks; it returns
// the hands, the tricks and the declarer's side's count.
func (s *Sim) play(players []string, declarer int, strain bridge.Strain) (map[string][]engine.Card, [][]bridge.Play, int) {
	n := len(players)
	deck := engine.NewDeck()
	s.rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	hands := make(map[string][]engine.Card, n)
	left := make([][]engine.Card, n)
	for i, p := range players {
		hands[p] = append([]engine.Card(nil), deck[13*i:13*i+13]...)
		left[i] = append([]engine.Card(nil), hands[p]...)
	}
	tricks := make([][]bridge.Play, 13)
	leader, won := (declarer+1)%n, 0
	for t := range tricks {
		winner, best := leader, engine.Card(0)
		for k := range n {
			seat := (leader + k) % n
			card := s.pick(&left[seat], tricks[t])
			tricks[t] = append(tricks[t], bridge.Play{Player: players[seat], Card: card})
			if k == 0 || higher(card, best, tricks[t][0].Card.Suit(), strain) {
				winner, best = seat, card
			}
		}
		if winner%2 == declarer%2 {
			won++
		}
		leader = winner
	}
	return hands, tricks, won
}

// pick takes a random card from hand, of the suit led when it has one.
func (s *Sim) pick(hand *[]engine.Card, trick []bridge.Play) engine.Card {
	h := *hand
	var legal []int
	if len(trick) > 0 {
		for i, c := range h {
			if c.Suit() == trick[0].Card.Suit() {
				legal = append(legal, i)
			}
		}
	}
	i := s.rng.IntN(len(h))
	if len(legal) > 0 {
		i = legal[s.rng.IntN(len(legal))]
	}
	c := h[i]
	*hand = append(h[:i], h[i+1:]...)
	return c
}

// higher reports whether c takes the trick from best: trumps beat the
// suit led, otherwise only a higher card of best's suit.
func higher(c, best engine.Card, led int, strain bridge.Strain) bool {
	trump := -1
	if strain != bridge.NoTrump {
		trump = int(strain)
	}
	rank := func(x engine.Card) int {
		switch x.Suit() {
		case trump:
			return 200 + x.Rank()
		case led:
			return 100 + x.Rank()
		}
		return x.Rank() - 100
	}
	return rank(c) > rank(best)
}
