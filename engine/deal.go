package engine

import (
	"fmt"

	"github.com/revisor-sm/revisor/engine/cards"
)

// maxSeats is the most players a table can have.
const maxSeats = 4

// GameOptions tune CheckGame.
type GameOptions struct {
	// InProgress: a game still being played is not an error (no game_not_finished).
	InProgress bool
}

// checker holds the state of one deal while it is checked. It lives on the
// stack; players are indexed by seat.
type checker struct {
	r       Rules
	players []string
	n       int
	dealer  int
	start   [maxSeats]int
	score   [maxSeats]int
	hand    [maxSeats]cardSet
	played  [maxSeats]cardSet

	errs   []Problem
	viols  []Violation
	awards []Award

	deck       []Card
	deckPos    int
	ordered    bool // the stock is the rest of the recorded deck, in order
	stock      cardSet
	stockCount int
	pile       cardSet // the discard pile

	mustShow   [maxSeats]Category // combination to show when breaking it in the next round
	forfeit    [maxSeats]bool
	royal      [maxSeats]bool
	declarer   int
	chicagoWon bool
	lastWinner int
	ended      string
}

// CheckDeal checks a deal record against its rules (nil: "sm") and scores
// it. It never panics; a record that could not have happened gives a result
// with Valid false and every error the engine could find.
func CheckDeal(d *DealRecord) *DealResult {
	if d == nil {
		return (&DecodeError{Problems: []Problem{{Code: "invalid_record", Message: "no deal record"}}}).DealResult()
	}
	c := checker{r: rulesOf(d.Rules), declarer: -1, lastWinner: -1}
	res := &DealResult{}
	if c.header(d) {
		c.play(d)
	}
	c.result(res)
	if res.Valid {
		var won [maxSeats]bool
		if c.chicagoWon {
			won[c.declarer] = true
		}
		res.GameOver, res.Winners = c.end(won, c.forfeit, c.royal)
	}
	return res
}

func rulesOf(r *Rules) Rules {
	if r == nil {
		return SM()
	}
	return *r
}

// header reads players, dealer and start scores of a stand-alone deal.
func (c *checker) header(d *DealRecord) bool {
	c.errs = append(c.errs, validatePlayers(&c.r, d.Players)...)
	if len(c.errs) > 0 {
		return false
	}
	c.players, c.n = d.Players, len(d.Players)
	c.dealer = seatOf(d.Players, d.Dealer)
	if c.dealer < 0 {
		c.fail("unknown_player", Location{Part: PartDealer}, "", "dealer %q is not a player", d.Dealer)
		return false
	}
	known := 0
	for i, p := range d.Players {
		if v, ok := d.Scores[p]; ok {
			c.start[i] = v
			known++
			if v < 0 && !c.r.NegativeScores {
				c.fail("invalid_points", Location{Part: PartScores, Player: p}, p, "%s starts at %d; without negative_scores a score is never below 0", p, v)
			}
		}
	}
	if known < len(d.Scores) {
		c.unknownKeys(sortedKeys(d.Scores), PartScores)
	}
	c.score = c.start
	return true
}

// unknownKeys reports the keys that are not players.
func (c *checker) unknownKeys(keys []string, part Part) {
	for _, k := range keys {
		if seatOf(c.players, k) < 0 {
			c.fail("unknown_player", Location{Part: part}.withPlayer(k), "", "%q is not a player", k)
		}
	}
}

// validatePlayers checks the seats of a deal or game.
func validatePlayers(r *Rules, players []string) []Problem {
	var probs []Problem
	lo, hi := r.MinPlayers, min(r.MaxPlayers, maxSeats)
	if len(players) < lo || len(players) > hi {
		probs = append(probs, Location{Part: PartPlayers}.problem("invalid_players",
			fmt.Sprintf("%d players; these rules allow %d to %d", len(players), lo, hi), ""))
	}
	if len(players) > 4*maxSeats {
		return probs // far too many to list each duplicate
	}
	for i, p := range players {
		switch {
		case p == "":
			probs = append(probs, Location{Part: PartPlayers, Index: i + 1}.problem("invalid_players",
				"empty player id", ""))
		case seatOf(players[:i], p) >= 0:
			probs = append(probs, Location{Part: PartPlayers, Index: i + 1}.problem("invalid_players",
				fmt.Sprintf("player %q is listed twice", p), p))
		}
	}
	return probs
}

// play checks the deal from the deal to the showdown.
func (c *checker) play(d *DealRecord) {
	if len(d.Exchanges) != 3 {
		c.fail("invalid_record", Location{Part: PartExchanges}, "", "want 3 exchange rounds, got %d", len(d.Exchanges))
	}
	if len(d.Announcements) != 2 {
		c.fail("invalid_record", Location{Part: PartAnnouncements}, "", "want 2 announcement phases, got %d", len(d.Announcements))
	}
	c.dealHands(d)
	for round := 0; round < 3; round++ {
		if round < len(d.Exchanges) {
			c.exchangeRound(round, d.Exchanges[round])
		}
		if round < 2 {
			c.mustShow = [maxSeats]Category{}
			if round < len(d.Announcements) {
				c.phase(round, d.Announcements[round])
			}
		}
	}
	c.chicago(d.Chicago)
	c.tricks(d.Tricks)
	c.showdown()
}

// dealHands checks the dealt hands and sets up the stock.
func (c *checker) dealHands(d *DealRecord) {
	var seen cardSet
	known := 0
	for seat, p := range c.players {
		cards, ok := d.Hands[p]
		if !ok {
			c.fail("invalid_hands", Location{Part: PartHands}, p, "no hand for %s", p)
			continue
		}
		known++
		if len(cards) != 5 {
			c.fail("invalid_hands", Location{Part: PartHands, Player: p}, p, "%s was dealt %d cards, want 5", p, len(cards))
		}
		for j, card := range cards {
			if !card.Valid() || seen.Has(card) {
				c.fail("duplicate_card", Location{Part: PartHands, Player: p, Card: j + 1}, p, "%s is dealt twice", card)
				continue
			}
			seen |= 1 << card
			c.hand[seat] |= 1 << card
		}
	}
	if known < len(d.Hands) {
		c.unknownKeys(sortedKeys(d.Hands), PartHands)
	}
	c.stock = cardSet(1<<52-1) &^ seen
	c.stockCount = 52 - 5*c.n
	if d.Deck != nil && c.checkDeck(d.Deck) {
		c.matchDeck(d)
	}
}

// checkDeck reports a deck that is not the 52 cards once each.
func (c *checker) checkDeck(deck []Card) bool {
	if len(deck) != 52 {
		c.fail("invalid_deck", Location{Part: PartDeck}, "", "the deck has %d cards, want 52", len(deck))
		return false
	}
	if cards.SetOf(deck) != 1<<52-1 {
		var seen cardSet
		for i, card := range deck {
			if seen.Has(card) {
				c.fail("invalid_deck", Location{Part: PartDeck, Index: i + 1}, "", "%s is in the deck twice", card)
			}
			seen |= 1 << card
		}
		return false
	}
	return true
}

// matchDeck checks that the hands were dealt from the deck one card at a
// time clockwise from the dealer's left.
func (c *checker) matchDeck(d *DealRecord) {
	for o := 0; o < c.n; o++ {
		seat := (c.dealer + 1 + o) % c.n
		var want cardSet
		for k := 0; k < 5; k++ {
			want |= 1 << d.Deck[o+c.n*k]
		}
		if got, ok := d.Hands[c.players[seat]]; ok && cards.SetOf(got) != want {
			p := c.players[seat]
			c.fail("deal_does_not_match_deck", Location{Part: PartHands, Player: p}, p,
				"%s's hand is not the cards the deck deals to that seat", p)
		}
	}
	c.deck, c.deckPos, c.ordered = d.Deck, 5*c.n, true
	c.stock = cards.SetOf(d.Deck[5*c.n:]) &^ (c.hand[0] | c.hand[1] | c.hand[2] | c.hand[3])
}

// fail records an error.
func (c *checker) fail(code string, at Location, player, format string, args ...any) {
	c.errs = append(c.errs, at.problem(code, fmt.Sprintf(format, args...), player))
}

// violate records a violation.
func (c *checker) violate(code string, at Location, seat int, consequence, format string, args ...any) {
	c.viols = append(c.viols, Violation{Code: code, Path: at.Path(), Player: c.players[seat],
		Consequence: consequence, Message: fmt.Sprintf(format, args...)})
}

// result fills res from the checker. An invalid deal scores nothing.
func (c *checker) result(res *DealResult) {
	res.Valid = len(c.errs) == 0
	res.Errors = nonNil(c.errs)
	res.Violations = nonNil(c.viols)
	res.Winners = []string{}
	res.Points = make(map[string]int, c.n)
	res.Scores = make(map[string]int, c.n)
	if !res.Valid {
		res.Awards = []Award{}
		c.score = c.start
	} else {
		res.Awards = nonNil(c.awards)
		res.Ended = c.ended
	}
	for i := 0; i < c.n; i++ {
		res.Points[c.players[i]] = c.score[i] - c.start[i]
		res.Scores[c.players[i]] = c.score[i]
	}
}
