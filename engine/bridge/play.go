package bridge

import (
	"sort"
	"strconv"

	"github.com/revisor-sm/revisor/engine"
)

// hands checks the dealt hands, when the deal has them: 13 cards to each
// player, no card twice.
func (c *checker) hands(d *Deal, path string) {
	if d.Hands == nil {
		return
	}
	path += "/hands"
	keys := make([]string, 0, len(d.Hands))
	for k := range d.Hands {
		if c.seat(k) < 0 {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		c.add(CodeUnknownPlayer, path+"/"+pointerKey(k), "not one of the players", k)
	}
	var seen uint64
	for _, p := range c.rec.Players {
		cards, ok := d.Hands[p]
		if !ok {
			c.add(CodeInvalidHands, path, p+" has no hand", p)
			continue
		}
		if len(cards) != 13 {
			c.add(CodeInvalidHands, path+"/"+pointerKey(p), p+" holds "+strconv.Itoa(len(cards))+" cards, not 13", p)
		}
		for i, card := range cards {
			if seen&(1<<card) != 0 {
				c.add(CodeDuplicateCard, path+"/"+pointerKey(p)+"/"+strconv.Itoa(i), card.String()+" is dealt twice", p)
			}
			seen |= 1 << card
		}
	}
}

// play follows the play of a deal whose auction, tricks and hands are
// sound, and checks the declarer's side's tricks against it.
func (c *checker) play(d *Deal, path string, con Contract, declarer int) {
	if len(d.Play) != 13 {
		c.add(CodeInvalidRecord, path+"/play", "the play has 13 tricks, not "+strconv.Itoa(len(d.Play)), "")
		return
	}
	var held [4]uint64
	for s, p := range c.rec.Players {
		for _, card := range d.Hands[p] {
			held[s] |= 1 << card
		}
	}
	leader, won := (declarer+1)%c.n, 0
	for t, trick := range d.Play {
		tp := path + "/play/" + strconv.Itoa(t)
		winner, ok := c.trick(trick, tp, &held, leader, con.Strain)
		if !ok {
			return
		}
		if winner%2 == declarer%2 {
			won++
		}
		leader = winner
	}
	if won != d.Tricks {
		c.add(CodeTricksMismatch, path+"/tricks", "the play gives the declarer's side "+strconv.Itoa(won)+" tricks", "")
	}
}

// trick checks one trick led by seat leader and returns its winner's seat;
// false after a card out of turn or not held (the rest cannot be followed).
func (c *checker) trick(trick []Play, path string, held *[4]uint64, leader int, trumps Strain) (int, bool) {
	if len(trick) != c.n {
		c.add(CodeInvalidRecord, path, "a trick has "+strconv.Itoa(c.n)+" cards", "")
		return 0, false
	}
	led := trick[0].Card.Suit()
	winner, best := leader, trick[0].Card
	for k, pl := range trick {
		pp := path + "/" + strconv.Itoa(k)
		seat := c.seat(pl.Player)
		want := (leader + k) % c.n
		switch {
		case seat < 0:
			c.add(CodeUnknownPlayer, pp+"/player", "not one of the players", pl.Player)
			return 0, false
		case seat != want:
			c.add(CodeOutOfTurn, pp, "it was "+c.rec.Players[want]+"'s turn to play", pl.Player)
			return 0, false
		case held[seat]&(1<<pl.Card) == 0:
			c.add(CodeCardNotHeld, pp+"/card", pl.Player+" does not hold "+pl.Card.String(), pl.Player)
			return 0, false
		case k > 0 && pl.Card.Suit() != led && held[seat]&suitMask(led) != 0:
			c.add(CodeRevoke, pp+"/card", pl.Player+" did not follow suit", pl.Player)
		}
		held[seat] &^= 1 << pl.Card
		if k > 0 && beats(pl.Card, best, trumps) {
			winner, best = seat, pl.Card
		}
	}
	return winner, true
}

// suitMask is the set of the 13 cards of suit s.
func suitMask(s int) uint64 { return (1<<13 - 1) << (13 * s) }

// beats reports whether card x beats the best card so far of a trick.
func beats(x, best engine.Card, trumps Strain) bool {
	if x.Suit() == best.Suit() {
		return x.Rank() > best.Rank()
	}
	return trumps != NoTrump && x.Suit() == int(trumps)
}
