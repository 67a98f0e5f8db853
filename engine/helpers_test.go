package engine_test

import (
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/engine"
	deck "github.com/revisor-sm/revisor/engine/cards"
)

// table builds a deal record by playing it from a chosen deck, so tests read
// like the deal itself.
type table struct {
	t       testing.TB
	players []string
	dealer  int
	deck    []engine.Card
	pos     int // next stock card
	hand    map[string][]engine.Card
	rec     *engine.DealRecord
	leader  int
}

// cards parses space-separated cards.
func cards(t testing.TB, s string) []engine.Card {
	t.Helper()
	cs, err := deck.ParseList(s)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// newTable deals hands (player -> five cards) from a deck that is built so
// that dealing one card at a time clockwise from the dealer's left gives
// those hands; the stock starts with the cards of stock, then every other
// card in Card order.
func newTable(t testing.TB, players, dealer string, hands map[string]string, stock string) *table {
	t.Helper()
	tb := &table{t: t, players: strings.Fields(players), hand: map[string][]engine.Card{}}
	n := len(tb.players)
	tb.dealer = index(tb.players, dealer)
	tb.deck = make([]engine.Card, 5*n)
	used := map[engine.Card]bool{}
	rec := &engine.DealRecord{Players: tb.players, Dealer: dealer, Hands: map[string][]engine.Card{},
		Exchanges:     [][]engine.Exchange{{}, {}, {}},
		Announcements: [][]engine.Announcement{nil, nil}, Tricks: [][]engine.Play{}}
	for o := 0; o < n; o++ {
		p := tb.players[(tb.dealer+1+o)%n]
		h := cards(t, hands[p])
		if len(h) != 5 {
			t.Fatalf("hand of %s: %d cards", p, len(h))
		}
		for k, c := range h {
			tb.deck[o+n*k] = c
			used[c] = true
		}
		tb.hand[p] = append([]engine.Card(nil), h...)
		rec.Hands[p] = h
	}
	for _, c := range cards(t, stock) {
		tb.deck = append(tb.deck, c)
		used[c] = true
	}
	for c := engine.Card(0); c < 52; c++ {
		if !used[c] {
			tb.deck = append(tb.deck, c)
		}
	}
	rec.Deck = tb.deck
	tb.pos = 5 * n
	tb.rec = rec
	tb.leader = (tb.dealer + 1) % n
	tb.announce(0, "")
	tb.announce(1, "")
	return tb
}

func index(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	panic("no " + s)
}

// exchange records player's exchange in round (0-2): the discards, and
// draws from the top of the stock.
func (tb *table) exchange(round int, player, discard string) *engine.Exchange {
	tb.t.Helper()
	d := cards(tb.t, discard)
	x := engine.Exchange{Player: player, Discard: d}
	for range d {
		x.Draw = append(x.Draw, tb.deck[tb.pos])
		tb.pos++
	}
	tb.replace(player, d, x.Draw)
	tb.rec.Exchanges[round] = append(tb.rec.Exchanges[round], x)
	return &tb.rec.Exchanges[round][len(tb.rec.Exchanges[round])-1]
}

// replace swaps discards for draws in a player's tracked hand.
func (tb *table) replace(player string, out, in []engine.Card) {
	h := tb.hand[player][:0:0]
	for _, c := range tb.hand[player] {
		if !contains(out, c) {
			h = append(h, c)
		}
	}
	tb.hand[player] = append(h, in...)
}

func contains(list []engine.Card, c engine.Card) bool {
	for _, v := range list {
		if v == c {
			return true
		}
	}
	return false
}

// announce sets phase p (0 or 1) from "bo:pair cia:two_pair": listed
// players announce, everyone else passes, all in turn order.
func (tb *table) announce(p int, spec string) {
	claims := map[string]string{}
	for _, f := range strings.Fields(spec) {
		name, cat, _ := strings.Cut(f, ":")
		claims[name] = cat
	}
	n := len(tb.players)
	list := make([]engine.Announcement, n)
	for o := 0; o < n; o++ {
		name := tb.players[(tb.dealer+1+o)%n]
		list[o] = engine.Announcement{Player: name, Announce: claims[name]}
	}
	tb.rec.Announcements[p] = list
}

// trick records one trick from "bo:Kh cia:Qh dan:8h anna:2h".
func (tb *table) trick(spec string) {
	tb.t.Helper()
	var plays []engine.Play
	for _, f := range strings.Fields(spec) {
		name, card, _ := strings.Cut(f, ":")
		c := cards(tb.t, card)[0]
		plays = append(plays, engine.Play{Player: name, Card: c})
		tb.replace(name, []engine.Card{c}, nil)
	}
	tb.rec.Tricks = append(tb.rec.Tricks, plays)
	tb.leader = index(tb.players, plays[0].Player)
	best := plays[0].Card
	for _, pl := range plays[1:] {
		if pl.Card.Suit() == best.Suit() && pl.Card.Rank() > best.Rank() {
			best = pl.Card
			tb.leader = index(tb.players, pl.Player)
		}
	}
}

// playOut plays the remaining tricks legally: the leader plays their
// highest card, the others the highest card of the led suit or their lowest
// card.
func (tb *table) playOut() {
	tb.t.Helper()
	if len(tb.rec.Tricks) == 0 && tb.rec.Chicago != "" && tb.rec.Rules != nil &&
		tb.rec.Rules.FirstLead == engine.LeadChicagoDeclarer {
		tb.leader = index(tb.players, tb.rec.Chicago)
	}
	n := len(tb.players)
	for len(tb.rec.Tricks) < 5 {
		var spec []string
		var led int
		for j := 0; j < n; j++ {
			p := tb.players[(tb.leader+j)%n]
			var c engine.Card
			if j == 0 {
				c = pick(tb.hand[p], -1, true)
				led = c.Suit()
			} else {
				c = pick(tb.hand[p], led, false)
			}
			spec = append(spec, p+":"+c.String())
		}
		tb.trick(strings.Join(spec, " "))
	}
}

// pick chooses a card: the highest of suit (or of all when suit < 0 or none
// held), or the lowest when not following and not leading.
func pick(h []engine.Card, suit int, lead bool) engine.Card {
	best, found := h[0], false
	for _, c := range h {
		if suit >= 0 && c.Suit() == suit && (!found || c.Rank() > best.Rank()) {
			best, found = c, true
		}
	}
	if found {
		return best
	}
	best = h[0]
	for _, c := range h {
		if (lead && c.Rank() > best.Rank()) || (!lead && c.Rank() < best.Rank()) {
			best = c
		}
	}
	return best
}

// rules returns sm with overrides given as name, value pairs.
func rules(t testing.TB, kv ...any) *engine.Rules {
	t.Helper()
	r := engine.SM()
	for i := 0; i < len(kv); i += 2 {
		var err error
		r, err = r.Override(kv[i].(string), kv[i+1])
		if err != nil {
			t.Fatalf("Override(%v, %v): %v", kv[i], kv[i+1], err)
		}
	}
	return &r
}

// codes lists the error codes of a result.
func codes(res *engine.DealResult) []string {
	var out []string
	for _, e := range res.Errors {
		out = append(out, e.Code)
	}
	return out
}

// violations lists "code:player" of a result's violations.
func violations(res *engine.DealResult) []string {
	var out []string
	for _, v := range res.Violations {
		out = append(out, v.Code+":"+v.Player)
	}
	return out
}

// awards lists "player:source:points" of a result's awards.
func awards(res *engine.DealResult) []string {
	var out []string
	for _, a := range res.Awards {
		out = append(out, a.Player+":"+a.Source+":"+itoa(a.Points))
	}
	return out
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func hasCode(res *engine.DealResult, code string) bool {
	for _, e := range res.Errors {
		if e.Code == code {
			return true
		}
	}
	return false
}

// mustValid fails the test unless res is valid.
func mustValid(t testing.TB, res *engine.DealResult) {
	t.Helper()
	if !res.Valid {
		t.Fatalf("CheckDeal: invalid, errors %+v", res.Errors)
	}
}
