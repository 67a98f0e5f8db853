package engine_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/engine"
)

// randomDeal plays a random legal deal from a shuffled deck: random
// exchanges (showing the whole hand in rounds 2 and 3, which always
// satisfies show when breaking), truthful announcements, sometimes a
// Chicago, and random legal plays. With revoke, the first player who can
// revoke does; the result says who and where.
func randomDeal(t *testing.T, rng *rand.Rand, revoke bool) (tb *table, revoker, path string) {
	players := []string{"anna", "bo", "cia", "dan"}[:3+rng.IntN(2)]
	n := len(players)
	deck := rng.Perm(52)
	dealer := rng.IntN(n)
	hands := map[string]string{}
	for o := 0; o < n; o++ {
		var h []string
		for k := 0; k < 5; k++ {
			h = append(h, engine.Card(deck[o+n*k]).String())
		}
		hands[players[(dealer+1+o)%n]] = strings.Join(h, " ")
	}
	var stock []string
	for _, c := range deck[5*n:] {
		stock = append(stock, engine.Card(c).String())
	}
	tb = newTable(t, strings.Join(players, " "), players[dealer], hands, strings.Join(stock, " "))
	scores := map[string]int{}
	for _, p := range players {
		scores[p] = rng.IntN(45)
	}
	tb.rec.Scores = scores
	for round := 0; round < 3; round++ {
		for o := 0; o < n; o++ {
			p := players[(dealer+1+o)%n]
			k := rng.IntN(4)
			if rng.IntN(2) == 0 || k == 0 || len(tb.deck)-tb.pos < k {
				continue
			}
			show := append([]engine.Card(nil), tb.hand[p]...)
			h := tb.hand[p]
			var d []string
			for _, i := range rng.Perm(5)[:k] {
				d = append(d, h[i].String())
			}
			x := tb.exchange(round, p, strings.Join(d, " "))
			if round > 0 {
				x.Show = show
			}
		}
		if round < 2 {
			randomAnnouncements(tb, rng, round)
		}
	}
	if rng.IntN(4) == 0 {
		for _, p := range players {
			if scores[p] >= 15 {
				tb.rec.Chicago = p
				break
			}
		}
	}
	revoker, path = randomTricks(tb, rng, revoke)
	return tb, revoker, path
}

func randomAnnouncements(tb *table, rng *rand.Rand, phase int) {
	n := len(tb.players)
	highest := engine.HighCard
	list := make([]engine.Announcement, n)
	for o := 0; o < n; o++ {
		p := tb.players[(tb.dealer+1+o)%n]
		list[o].Player = p
		held := engine.CategoryOf(tb.hand[p])
		if held > engine.HighCard && held >= highest && rng.IntN(3) > 0 {
			c := highest + engine.Category(rng.IntN(int(held-highest)+1))
			if c == engine.HighCard {
				c = engine.Pair
			}
			list[o].Announce, highest = c.String(), c
		}
	}
	tb.rec.Announcements[phase] = list
}

// randomTricks plays legal random cards, ending at a lost Chicago.
func randomTricks(tb *table, rng *rand.Rand, revoke bool) (revoker, path string) {
	n := len(tb.players)
	for t := 0; t < 5; t++ {
		var spec []string
		led := -1
		for j := 0; j < n; j++ {
			p := tb.players[(tb.leader+j)%n]
			var follow, other []engine.Card
			for _, c := range tb.hand[p] {
				if c.Suit() == led {
					follow = append(follow, c)
				} else {
					other = append(other, c)
				}
			}
			choice := tb.hand[p]
			switch {
			case revoke && revoker == "" && len(follow) > 0 && len(other) > 0:
				choice, revoker, path = other, p, fmt.Sprintf("/tricks/%d/%d", t, j)
			case len(follow) > 0:
				choice = follow
			}
			c := choice[rng.IntN(len(choice))]
			if j == 0 {
				led = c.Suit()
			}
			spec = append(spec, p+":"+c.String())
		}
		tb.trick(strings.Join(spec, " "))
		if tb.rec.Chicago != "" && tb.players[tb.leader] != tb.rec.Chicago {
			break
		}
	}
	return revoker, path
}

func TestPropertyRandomDealsValidate(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		tb, _, _ := randomDeal(t, rng, false)
		res := engine.CheckDeal(tb.rec)
		if !res.Valid || len(res.Violations) > 0 {
			t.Fatalf("deal %d: errors %+v violations %+v", i, res.Errors, res.Violations)
		}
		sum := map[string]int{}
		for _, a := range res.Awards {
			sum[a.Player] += a.Points
		}
		for _, p := range tb.players {
			if res.Scores[p] != tb.rec.Scores[p]+res.Points[p] || sum[p] != res.Points[p] {
				t.Fatalf("deal %d: %s start %d points %d awards %d scores %d", i, p, tb.rec.Scores[p],
					res.Points[p], sum[p], res.Scores[p])
			}
		}
	}
}

// TestPropertyMutations changes one thing in valid random deals and checks
// the error or violation it must give.
func TestPropertyMutations(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	mutations := []struct {
		name   string
		code   string
		mutate func(tb *table) bool
	}{
		{"card swapped between hands", "deal_does_not_match_deck", func(tb *table) bool {
			a, b := tb.rec.Hands[tb.players[0]], tb.rec.Hands[tb.players[1]]
			a[0], b[0] = b[0], a[0]
			return true
		}},
		{"draw changed", "draw_mismatch", func(tb *table) bool {
			for _, round := range tb.rec.Exchanges {
				for i := range round {
					if len(round[i].Draw) > 0 {
						round[i].Draw[0] = tb.deck[len(tb.deck)-1]
						return true
					}
				}
			}
			return false
		}},
		{"second exchange", "exchange_is_binding", func(tb *table) bool {
			for r, round := range tb.rec.Exchanges {
				if len(round) > 0 {
					tb.rec.Exchanges[r] = append(round, engine.Exchange{Player: round[len(round)-1].Player})
					return true
				}
			}
			return false
		}},
		{"played out of turn", "out_of_turn", func(tb *table) bool {
			tr := tb.rec.Tricks[0]
			tr[1], tr[2] = tr[2], tr[1]
			return true
		}},
	}
	for _, m := range mutations {
		tested := 0
		for i := 0; i < 300; i++ {
			tb, _, _ := randomDeal(t, rng, false)
			if !m.mutate(tb) {
				continue
			}
			tested++
			if res := engine.CheckDeal(tb.rec); !hasCode(res, m.code) {
				t.Fatalf("%s (deal %d): errors %v, want %s", m.name, i, codes(res), m.code)
			}
		}
		if tested < 100 {
			t.Errorf("%s: only %d deals could be mutated", m.name, tested)
		}
	}
	revokes := 0
	for i := 0; i < 300; i++ {
		tb, who, path := randomDeal(t, rng, true)
		if who == "" {
			continue
		}
		revokes++
		res := engine.CheckDeal(tb.rec)
		if !res.Valid || len(res.Violations) != 1 || res.Violations[0].Code != "revoke" ||
			res.Violations[0].Player != who || res.Violations[0].Path != path {
			t.Fatalf("revoke by %s at %s (deal %d): errors %v violations %+v", who, path, i, codes(res), res.Violations)
		}
	}
	if revokes < 100 {
		t.Errorf("only %d deals had a revoke", revokes)
	}
}
