package sim_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/sim"
)

// clone deep-copies a deal record through JSON.
func clone(t *testing.T, d *engine.DealRecord) *engine.DealRecord {
	t.Helper()
	return roundTrip(t, d)
}

// mutation changes one thing in a valid deal record. It returns false when
// the record offers no place for it; otherwise the problems (as "code path
// player") that must be among the errors or violations, and whether they
// must be all of them.
type mutation struct {
	name   string
	noDeck bool
	apply  func(t *testing.T, d *engine.DealRecord) (want []string, exact, ok bool)
	// violation: want are violations and the record stays valid.
	violation bool
}

var mutations = []mutation{
	{name: "swap cards between hands (deck)", apply: swapHands},
	{name: "swap cards between hands (no deck)", noDeck: true, apply: swapHandsNoDeck},
	{name: "change a draw (deck)", apply: changeDraw},
	{name: "draw a card another player holds (no deck)", noDeck: true, apply: drawHeldCard},
	{name: "second exchange in a round", apply: secondExchange},
	{name: "card played out of turn", apply: outOfTurn},
	{name: "revoke", apply: injectRevoke, violation: true},
	{name: "draw one's own discard after a reshuffle", apply: drawOwnDiscard},
	{name: "announcement below the highest", apply: lowAnnouncement},
	{name: "Chicago without the points", apply: chicagoWithoutPoints},
	{name: "a trick left out", apply: dropTrick},
}

func TestMutations(t *testing.T) {
	t.Parallel()
	for _, m := range mutations {
		applied := 0
		for seed := uint64(1); seed <= 80; seed++ {
			opt := sim.DefaultOptions()
			opt.NoDeck = m.noDeck
			s := sim.NewWithOptions(seed, engine.SM(), opt)
			players := sim.Players(3 + int(seed%2))
			d := s.Deal(players, players[int(seed)%len(players)], s.Scores(players, 40))
			if res := engine.CheckDeal(d); !res.Valid || len(res.Violations) > 0 {
				t.Fatalf("%s seed %d: the simulated deal is not clean: %+v %+v", m.name, seed, res.Errors, res.Violations)
			}
			mut := clone(t, d)
			want, exact, ok := m.apply(t, mut)
			if !ok {
				continue
			}
			applied++
			res := engine.CheckDeal(mut)
			got := problems(res, m.violation)
			if res.Valid != m.violation {
				t.Errorf("%s seed %d: valid = %v, want %v (errors %q)", m.name, seed, res.Valid, m.violation, problems(res, false))
			}
			if !containsAll(got, want) || exact && len(got) != len(want) {
				t.Errorf("%s seed %d: CheckDeal = %q, want %q (exact %v)", m.name, seed, got, want, exact)
			}
		}
		t.Logf("%s: applied to %d of 80 deals", m.name, applied)
		if applied < 20 {
			t.Errorf("%s: applied to only %d of 80 deals", m.name, applied)
		}
	}
}

// problems lists a result's errors (or violations) as "code path player".
func problems(res *engine.DealResult, violations bool) []string {
	var out []string
	if violations {
		for _, v := range res.Violations {
			out = append(out, v.Code+" "+v.Path+" "+v.Player)
		}
		return out
	}
	for _, e := range res.Errors {
		out = append(out, e.Code+" "+e.Path+" "+e.Player)
	}
	return out
}

func containsAll(got, want []string) bool {
	for _, w := range want {
		if !slices.Contains(got, w) {
			return false
		}
	}
	return true
}

// twoPlayers picks two different players of a record.
func twoPlayers(d *engine.DealRecord) (string, string) {
	return d.Players[0], d.Players[len(d.Players)-1]
}

// swapHands swaps the first cards of two dealt hands: neither hand is what
// the deck deals to that seat.
func swapHands(t *testing.T, d *engine.DealRecord) ([]string, bool, bool) {
	a, b := twoPlayers(d)
	d.Hands[a][0], d.Hands[b][0] = d.Hands[b][0], d.Hands[a][0]
	return []string{"deal_does_not_match_deck /hands/" + a + " " + a, "deal_does_not_match_deck /hands/" + b + " " + b}, false, true
}

// swapHandsNoDeck swaps the first cards of two dealt hands of a record
// without a deck; the first time a player discards, shows or plays the card
// they no longer hold is card_not_held.
func swapHandsNoDeck(t *testing.T, d *engine.DealRecord) ([]string, bool, bool) {
	a, b := twoPlayers(d)
	ca, cb := d.Hands[a][0], d.Hands[b][0]
	d.Hands[a][0], d.Hands[b][0] = cb, ca
	var want []string
	for _, pc := range []struct {
		p string
		c engine.Card
	}{{a, ca}, {b, cb}} {
		if path := firstUse(d, pc.p, pc.c); path != "" {
			want = append(want, "card_not_held "+path+" "+pc.p)
		}
	}
	return want, false, len(want) > 0
}

// firstUse returns the path of the first show, discard or play of card by
// player, or "".
func firstUse(d *engine.DealRecord, player string, card engine.Card) string {
	for r, round := range d.Exchanges {
		for i, x := range round {
			if x.Player != player {
				continue
			}
			if j := slices.Index(x.Show, card); j >= 0 {
				return fmt.Sprintf("/exchanges/%d/%d/show/%d", r, i, j)
			}
			if j := slices.Index(x.Discard, card); j >= 0 {
				return fmt.Sprintf("/exchanges/%d/%d/discard/%d", r, i, j)
			}
		}
	}
	for t, trick := range d.Tricks {
		for j, pl := range trick {
			if pl.Player == player && pl.Card == card {
				return fmt.Sprintf("/tricks/%d/%d/card", t, j)
			}
		}
	}
	return ""
}

// firstPlainExchange finds the first exchange with draws and no open card
// before any reshuffle.
func firstPlainExchange(d *engine.DealRecord) (r, i int, ok bool) {
	for r, round := range d.Exchanges {
		for i, x := range round {
			if x.Reshuffled {
				return 0, 0, false
			}
			if len(x.Draw) > 0 && x.Open == nil {
				return r, i, true
			}
		}
	}
	return 0, 0, false
}

// changeDraw replaces a drawn card with a card still deeper in the stock:
// not the next card of the deck.
func changeDraw(t *testing.T, d *engine.DealRecord) ([]string, bool, bool) {
	r, i, ok := firstPlainExchange(d)
	if !ok {
		return nil, false, false
	}
	x := &d.Exchanges[r][i]
	last := x.Draw[len(x.Draw)-1]
	pos := slices.Index(d.Deck, last)
	if pos+1 >= len(d.Deck) {
		return nil, false, false
	}
	x.Draw[0] = d.Deck[pos+1]
	return []string{fmt.Sprintf("draw_mismatch /exchanges/%d/%d/draw/0 %s", r, i, x.Player)}, false, true
}

// drawHeldCard replaces a drawn card with a card in another player's hand.
func drawHeldCard(t *testing.T, d *engine.DealRecord) ([]string, bool, bool) {
	r, i, ok := firstPlainExchange(d)
	if !ok || r != 0 {
		return nil, false, false
	}
	x := &d.Exchanges[r][i]
	other := d.Players[0]
	if other == x.Player {
		other = d.Players[1]
	}
	for _, c := range d.Hands[other] {
		if !slices.ContainsFunc(d.Exchanges[0][:i], func(e engine.Exchange) bool { return slices.Contains(e.Discard, c) }) {
			x.Draw[0] = c
			return []string{fmt.Sprintf("card_not_in_stock /exchanges/0/%d/draw/0 %s", i, x.Player)}, false, true
		}
	}
	return nil, false, false
}

// secondExchange repeats a player's exchange right after it: an exchange
// is binding, so the first problem is exchange_is_binding.
func secondExchange(t *testing.T, d *engine.DealRecord) ([]string, bool, bool) {
	for r, round := range d.Exchanges {
		for i, x := range round {
			if len(x.Discard) == 0 {
				continue
			}
			again := engine.Exchange{Player: x.Player, Discard: slices.Clone(x.Draw[:1]), Draw: []engine.Card{x.Discard[0]}}
			d.Exchanges[r] = slices.Insert(round, i+1, again)
			return []string{fmt.Sprintf("exchange_is_binding /exchanges/%d/%d %s", r, i+1, x.Player)}, false, true
		}
	}
	return nil, false, false
}

// outOfTurn swaps the second and third plays of a trick: both are out of
// turn, and nothing else changes.
func outOfTurn(t *testing.T, d *engine.DealRecord) ([]string, bool, bool) {
	k := len(d.Tricks) - 1
	trick := d.Tricks[k]
	if len(trick) < 3 {
		return nil, false, false
	}
	trick[1], trick[2] = trick[2], trick[1]
	return []string{
		fmt.Sprintf("out_of_turn /tricks/%d/1 %s", k, trick[1].Player),
		fmt.Sprintf("out_of_turn /tricks/%d/2 %s", k, trick[2].Player),
	}, true, true
}

// injectRevoke makes a player who followed suit play, in that trick, a card
// of another suit they played in a later trick, and the followed card
// there, when that changes no trick's winner and adds no other revoke.
func injectRevoke(t *testing.T, d *engine.DealRecord) ([]string, bool, bool) {
	for t1 := 0; t1 < len(d.Tricks); t1++ {
		for j := 1; j < len(d.Tricks[t1]); j++ {
			for t2 := t1 + 1; t2 < len(d.Tricks); t2++ {
				if want, ok := tryRevoke(d, t1, j, t2); ok {
					return want, true, true
				}
			}
		}
	}
	return nil, false, false
}

func tryRevoke(d *engine.DealRecord, t1, j, t2 int) ([]string, bool) {
	a, b := d.Tricks[t1], d.Tricks[t2]
	p := a[j].Player
	k := slices.IndexFunc(b, func(pl engine.Play) bool { return pl.Player == p })
	led1 := a[0].Card.Suit()
	if k < 0 || a[j].Card.Suit() != led1 || b[k].Card.Suit() == led1 {
		return nil, false
	}
	na, nb := slices.Clone(a), slices.Clone(b)
	na[j].Card, nb[k].Card = b[k].Card, a[j].Card
	if k == 0 || trickWinner(na) != trickWinner(a) || trickWinner(nb) != trickWinner(b) {
		return nil, false
	}
	// In t2 the player must not now hold the led suit while playing another.
	led2 := b[0].Card.Suit()
	if nb[k].Card.Suit() != led2 && b[k].Card.Suit() == led2 {
		return nil, false
	}
	mut := *d
	mut.Tricks = slices.Clone(d.Tricks)
	mut.Tricks[t1], mut.Tricks[t2] = na, nb
	if len(expectedViolations(&mut)) != 1 {
		return nil, false
	}
	d.Tricks = mut.Tricks
	return []string{fmt.Sprintf("revoke /tricks/%d/%d %s", t1, j, p)}, true
}

// TestMutatedGameDeal: a mutation inside a game is reported with the path
// from the game's root, and the game is invalid.
func TestMutatedGameDeal(t *testing.T) {
	t.Parallel()
	s := sim.New(3, engine.SM())
	g := s.Game(sim.Players(4), "p1")
	data, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	mut, err := engine.DecodeGame(data)
	if err != nil {
		t.Fatal(err)
	}
	k := len(mut.Deals) / 2
	d := mut.Deals[k].Deal
	want, _, _ := outOfTurn(t, d)
	res := engine.CheckGame(mut, engine.GameOptions{})
	var got []string
	for _, e := range res.Errors {
		got = append(got, e.Code+" "+e.Path+" "+e.Player)
	}
	for i := range want {
		want[i] = fmt.Sprintf("%s /deals/%d%s", want[i][:len("out_of_turn")], k, want[i][len("out_of_turn "):])
	}
	if res.Valid || !containsAll(got, want) {
		t.Errorf("CheckGame(game with deal %d out of turn) = valid %v, %q, want %q", k, res.Valid, got, want)
	}
}

// drawOwnDiscard makes a player whose exchange reshuffled the stock draw
// one of their own discards of that exchange, which are not in the new
// stock.
func drawOwnDiscard(t *testing.T, d *engine.DealRecord) ([]string, bool, bool) {
	for r, round := range d.Exchanges {
		for i, x := range round {
			if !x.Reshuffled || x.Open != nil {
				continue
			}
			j := len(x.Draw) - 1
			x.Draw[j] = x.Discard[0]
			return []string{fmt.Sprintf("card_not_in_stock /exchanges/%d/%d/draw/%d %s", r, i, j, x.Player)}, false, true
		}
	}
	return nil, false, false
}

// lowAnnouncement turns a pass after an announcement above a pair into an
// announcement of a pair.
func lowAnnouncement(t *testing.T, d *engine.DealRecord) ([]string, bool, bool) {
	for p, phase := range d.Announcements {
		highest := engine.HighCard
		for i, a := range phase {
			if c, ok := engine.ParseCategory(a.Announce); ok {
				highest = c
				continue
			}
			if highest > engine.Pair {
				phase[i].Announce = "pair"
				return []string{fmt.Sprintf("announcement_too_low /announcements/%d/%d/announce %s", p, i, a.Player)}, false, true
			}
		}
	}
	return nil, false, false
}

// chicagoWithoutPoints has a player who scored nothing in the phases, with
// 0 at the start, declare Chicago.
func chicagoWithoutPoints(t *testing.T, d *engine.DealRecord) ([]string, bool, bool) {
	res := engine.CheckDeal(d)
	for _, p := range d.Players {
		if slices.ContainsFunc(res.Awards, func(a engine.Award) bool {
			return a.Player == p && (a.Source == engine.SourceHand1 || a.Source == engine.SourceHand2)
		}) {
			continue
		}
		d.Scores[p], d.Chicago = 0, p
		return []string{"chicago_not_allowed /chicago " + p}, false, true
	}
	return nil, false, false
}

// dropTrick leaves out the last trick of a deal played to the end.
func dropTrick(t *testing.T, d *engine.DealRecord) ([]string, bool, bool) {
	if len(d.Tricks) != 5 || d.Chicago != "" {
		return nil, false, false
	}
	d.Tricks = d.Tricks[:4]
	return []string{"incomplete_deal /tricks "}, true, true
}
