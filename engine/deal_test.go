package engine_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/engine"
)

// base deals the hands of example d01: bo holds a pair of sevens, dan a
// pair of aces; in turn order bo, cia, dan, anna.
func base(t testing.TB) *table {
	return newTable(t, "anna bo cia dan", "anna", map[string]string{
		"anna": "Kc Ts 9d 6d 2h",
		"bo":   "7c 7d Kh 3s 2d",
		"cia":  "Qs Jd 9c 5h 4c",
		"dan":  "As Ad 8h 6c 3h",
	}, "Qh Qc 9h 4d")
}

// handOf returns a player's tracked hand as a string.
func (tb *table) handOf(p string) string {
	var s []string
	for _, c := range tb.hand[p] {
		s = append(s, c.String())
	}
	return strings.Join(s, " ")
}

func TestPlainDeal(t *testing.T) {
	t.Parallel()
	tb := base(t)
	tb.exchange(0, "cia", "5h 4c")
	tb.announce(0, "bo:pair cia:three_of_a_kind")
	tb.playOut()
	res := engine.CheckDeal(tb.rec)
	mustValid(t, res)
	if got := awards(res); len(got) < 2 || got[0] != "cia:hand1:3" {
		t.Errorf("awards = %v, want cia:hand1:3 first", got)
	}
	if res.Ended != engine.EndedComplete {
		t.Errorf("ended = %q, want complete", res.Ended)
	}
}

func TestDealFromDeck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		mutate func(tb *table)
		want   string
	}{
		{"as dealt", func(tb *table) {}, ""},
		{"hand order within a hand is free", func(tb *table) {
			h := tb.rec.Hands["bo"]
			h[0], h[4] = h[4], h[0]
		}, ""},
		{"card swapped between hands", func(tb *table) { tb.swap("bo", "cia") }, "deal_does_not_match_deck"},
		{"dealt in blocks of five", func(tb *table) {
			copy(tb.rec.Deck, append(append(append(append([]engine.Card{}, tb.rec.Hands["bo"]...),
				tb.rec.Hands["cia"]...), tb.rec.Hands["dan"]...), tb.rec.Hands["anna"]...))
		}, "deal_does_not_match_deck"},
		{"deck of 51", func(tb *table) { tb.rec.Deck = tb.rec.Deck[:51] }, "invalid_deck"},
		{"card twice in deck", func(tb *table) { tb.rec.Deck[51] = tb.rec.Deck[50] }, "invalid_deck"},
		{"no deck: a swap is fine", func(tb *table) {
			tb.rec.Deck = nil
			tb.swap("bo", "cia")
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := base(t)
			tt.mutate(tb)
			tb.playOut()
			res := engine.CheckDeal(tb.rec)
			if tt.want == "" && !res.Valid || tt.want != "" && !hasCode(res, tt.want) {
				t.Errorf("CheckDeal(%s) errors = %v, want %q", tt.name, codes(res), tt.want)
			}
		})
	}
}

func TestHandsAndCards(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		mutate func(tb *table)
		want   string
		path   string
	}{
		{"card in two hands", func(tb *table) { tb.rec.Deck = nil; tb.rec.Hands["bo"][0] = tb.rec.Hands["dan"][0] }, "duplicate_card", "/hands/dan/0"},
		{"four cards", func(tb *table) { tb.rec.Hands["bo"] = tb.rec.Hands["bo"][:4] }, "invalid_hands", "/hands/bo"},
		{"missing hand", func(tb *table) { delete(tb.rec.Hands, "cia") }, "invalid_hands", "/hands"},
		{"hand of a stranger", func(tb *table) { tb.rec.Hands["eve"] = cards(t, "2s") }, "unknown_player", "/hands/eve"},
		{"score of a stranger", func(tb *table) { tb.rec.Scores = map[string]int{"eve": 3} }, "unknown_player", "/scores/eve"},
		{"negative_scores false: a start score below 0", func(tb *table) { tb.rec.Scores = map[string]int{"bo": -3} }, "invalid_points", "/scores/bo"},
		{"unknown dealer", func(tb *table) { tb.rec.Dealer = "eve" }, "unknown_player", "/dealer"},
		{"players twice", func(tb *table) { tb.rec.Players = []string{"anna", "bo", "anna", "dan"} }, "invalid_players", "/players/2"},
		{"empty player", func(tb *table) { tb.rec.Players = []string{"anna", "bo", "", "dan"} }, "invalid_players", "/players/2"},
		{"missing exchange round", func(tb *table) { tb.rec.Exchanges = tb.rec.Exchanges[:2] }, "invalid_record", "/exchanges"},
		{"missing phase", func(tb *table) { tb.rec.Announcements = tb.rec.Announcements[:1] }, "invalid_record", "/announcements"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := base(t)
			tb.playOut()
			tt.mutate(tb)
			res := engine.CheckDeal(tb.rec)
			if !hasProblem(res.Errors, tt.want, tt.path) {
				t.Errorf("CheckDeal(%s) errors = %+v, want %s at %s", tt.name, res.Errors, tt.want, tt.path)
			}
			if res.Valid || len(res.Awards) != 0 {
				t.Errorf("CheckDeal(%s): valid %v, awards %v; want invalid, no awards", tt.name, res.Valid, res.Awards)
			}
		})
	}
}

// swap exchanges the first dealt card of two players.
func (tb *table) swap(a, b string) {
	ha, hb := tb.rec.Hands[a], tb.rec.Hands[b]
	ha[0], hb[0] = hb[0], ha[0]
	tb.hand[a] = append([]engine.Card(nil), ha...)
	tb.hand[b] = append([]engine.Card(nil), hb...)
}

// redraw replaces the draw of a one-card exchange, also in the tracked hand.
func (tb *table) redraw(x *engine.Exchange, card string) {
	c := cards(tb.t, card)[0]
	tb.replace(x.Player, x.Draw, []engine.Card{c})
	x.Draw = []engine.Card{c}
}

func hasProblem(ps []engine.Problem, code, path string) bool {
	for _, p := range ps {
		if p.Code == code && p.Path == path {
			return true
		}
	}
	return false
}

func TestBindingExchange(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		build func(tb *table)
		code  string
		path  string
	}{
		{"one exchange each", func(tb *table) {
			tb.exchange(0, "bo", "3s 2d")
			tb.exchange(0, "cia", "5h 4c")
		}, "", ""},
		{"second exchange in a round", func(tb *table) {
			tb.exchange(0, "cia", "5h")
			tb.exchange(0, "cia", "4c")
		}, "exchange_is_binding", "/exchanges/0/1"},
		{"again in the next round is fine", func(tb *table) {
			tb.exchange(0, "cia", "5h")
			tb.exchange(1, "cia", "4c")
		}, "", ""},
		{"out of turn", func(tb *table) {
			tb.exchange(0, "dan", "3h")
			tb.exchange(0, "cia", "4c")
		}, "out_of_turn", "/exchanges/0/1"},
		{"stranger", func(tb *table) {
			tb.rec.Exchanges[0] = append(tb.rec.Exchanges[0], engine.Exchange{Player: "eve"})
		}, "unknown_player", "/exchanges/0/0/player"},
		{"discard not held", func(tb *table) {
			x := tb.exchange(0, "cia", "4c")
			x.Discard = cards(t, "As")
		}, "card_not_held", "/exchanges/0/0/discard/0"},
		{"discard twice", func(tb *table) {
			x := tb.exchange(0, "cia", "4c 5h")
			x.Discard = cards(t, "4c 4c")
		}, "duplicate_card", "/exchanges/0/0/discard/1"},
		{"fewer draws than discards", func(tb *table) {
			x := tb.exchange(0, "cia", "4c 5h")
			x.Draw = x.Draw[:1]
		}, "draw_count_mismatch", "/exchanges/0/0/draw"},
		{"draw not the next card of the deck", func(tb *table) {
			x := tb.exchange(0, "cia", "4c")
			x.Draw = cards(t, "2s")
		}, "draw_mismatch", "/exchanges/0/0/draw/0"},
		{"no deck: a card from another hand", func(tb *table) {
			tb.rec.Deck = nil
			x := tb.exchange(0, "cia", "4c")
			x.Draw = cards(t, "As")
		}, "card_not_in_stock", "/exchanges/0/0/draw/0"},
		{"no deck: a discarded card", func(tb *table) {
			tb.rec.Deck = nil
			tb.exchange(0, "bo", "2d")
			x := tb.exchange(0, "cia", "4c")
			x.Draw = cards(t, "2d")
		}, "card_not_in_stock", "/exchanges/0/1/draw/0"},
		{"no deck: any stock card", func(tb *table) {
			tb.rec.Deck = nil
			x := tb.exchange(0, "cia", "4c")
			tb.redraw(x, "2s")
		}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := base(t)
			tt.build(tb)
			tb.playOut()
			res := engine.CheckDeal(tb.rec)
			switch {
			case tt.code == "" && !res.Valid:
				t.Errorf("CheckDeal(%s) errors = %+v, want valid", tt.name, res.Errors)
			case tt.code != "" && !hasProblem(res.Errors, tt.code, tt.path):
				t.Errorf("CheckDeal(%s) errors = %+v, want %s at %s", tt.name, res.Errors, tt.code, tt.path)
			}
		})
	}
}

// openExchange records a one-card exchange with an open card: the top card
// is shown and taken or refused (then the next card is drawn).
func (tb *table) openExchange(round int, player, discard string, taken bool) *engine.Exchange {
	tb.t.Helper()
	d := cards(tb.t, discard)
	top := tb.deck[tb.pos]
	tb.pos++
	x := engine.Exchange{Player: player, Discard: d, Open: &engine.OpenCard{Card: top, Taken: taken}}
	if taken {
		x.Draw = []engine.Card{top}
	} else {
		x.Draw = []engine.Card{tb.deck[tb.pos]}
		tb.pos++
	}
	tb.replace(player, d, x.Draw)
	tb.rec.Exchanges[round] = append(tb.rec.Exchanges[round], x)
	return &tb.rec.Exchanges[round][len(tb.rec.Exchanges[round])-1]
}

func TestOpenCard(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		rules *engine.Rules
		build func(tb *table)
		code  string
		path  string
	}{
		{"taken", nil, func(tb *table) { tb.openExchange(0, "cia", "4c", true) }, "", ""},
		{"refused", nil, func(tb *table) {
			tb.openExchange(0, "cia", "4c", false)
			tb.exchange(0, "dan", "3h") // the refused card is gone: dan draws the one after
		}, "", ""},
		{"not the top card", nil, func(tb *table) {
			x := tb.openExchange(0, "cia", "4c", true)
			x.Open.Card, x.Draw[0] = tb.deck[30], tb.deck[30]
		}, "open_card_mismatch", "/exchanges/0/0/open/card"},
		{"taken but another card drawn", nil, func(tb *table) {
			x := tb.openExchange(0, "cia", "4c", true)
			x.Draw[0] = tb.deck[tb.pos]
		}, "open_card_mismatch", "/exchanges/0/0/draw"},
		{"refused but drawn", nil, func(tb *table) {
			x := tb.openExchange(0, "cia", "4c", false)
			x.Draw[0] = x.Open.Card
		}, "open_card_mismatch", "/exchanges/0/0/draw/0"},
		{"two-card exchange", nil, func(tb *table) {
			x := tb.exchange(0, "cia", "4c 5h")
			x.Open = &engine.OpenCard{Card: x.Draw[0], Taken: true}
		}, "open_card_not_allowed", "/exchanges/0/0/open"},
		{"switch off", rules(t, "open_card", "off"), func(tb *table) { tb.openExchange(0, "cia", "4c", true) },
			"open_card_not_allowed", "/exchanges/0/0/open"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := base(t)
			tb.rec.Rules = tt.rules
			tt.build(tb)
			tb.playOut()
			res := engine.CheckDeal(tb.rec)
			switch {
			case tt.code == "" && !res.Valid:
				t.Errorf("CheckDeal(%s) errors = %+v, want valid", tt.name, res.Errors)
			case tt.code != "" && !hasProblem(res.Errors, tt.code, tt.path):
				t.Errorf("CheckDeal(%s) errors = %+v, want %s at %s", tt.name, res.Errors, tt.code, tt.path)
			}
		})
	}
}

func TestExchangeStop(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		rules *engine.Rules
		score int
		want  []string
	}{
		{"45 may exchange", nil, 45, nil},
		{"46 may not", nil, 46, []string{"exchange_after_stop:cia"}},
		{"switch 30 at 30", rules(t, "exchange_stop", 30), 30, []string{"exchange_after_stop:cia"}},
		{"switch null never stops", rules(t, "exchange_stop", nil), 51, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := base(t)
			tb.rec.Rules = tt.rules
			tb.rec.Scores = map[string]int{"cia": tt.score}
			tb.exchange(0, "cia", "5h 4c")
			tb.exchange(1, "bo", "") // keeping all cards is not an exchange
			tb.playOut()
			res := engine.CheckDeal(tb.rec)
			mustValid(t, res)
			if got := violations(res); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("violations = %v, want %v", got, tt.want)
			}
			for _, v := range res.Violations {
				if v.Consequence != engine.Penalty || v.Path != "/exchanges/0/0" {
					t.Errorf("violation %+v, want penalty at /exchanges/0/0", v)
				}
			}
		})
	}
}

// exhaust makes everyone exchange all five cards in round 0 and bo and cia
// in round 1, leaving 2 cards in the stock before dan's turn in round 1.
func exhaust(t *testing.T, tb *table) {
	for _, p := range []string{"bo", "cia", "dan", "anna"} {
		tb.exchange(0, p, tb.handOf(p))
	}
	tb.exchange(1, "bo", tb.handOf("bo"))
	tb.exchange(1, "cia", tb.handOf("cia"))
	if left := len(tb.deck) - tb.pos; left != 2 {
		t.Fatalf("stock holds %d, want 2", left)
	}
}

// reshuffleDraw records dan taking the last two stock cards and then three
// given cards from the reshuffled pile.
func reshuffleDraw(t *testing.T, tb *table, from string) *engine.Exchange {
	d := tb.hand["dan"]
	draw := append(append([]engine.Card{}, tb.deck[tb.pos:]...), cards(t, from)...)
	tb.pos = len(tb.deck)
	x := engine.Exchange{Player: "dan", Discard: append([]engine.Card{}, d...), Draw: draw, Reshuffled: true}
	tb.replace("dan", d, draw)
	tb.rec.Exchanges[1] = append(tb.rec.Exchanges[1], x)
	return &tb.rec.Exchanges[1][len(tb.rec.Exchanges[1])-1]
}

func TestStockExhaustionReshuffle(t *testing.T) {
	t.Parallel()
	for _, withDeck := range []bool{true, false} {
		tb := base(t)
		exhaust(t, tb)
		// bo's round-0 discards are in the pile: 7c 7d Kh 3s 2d.
		reshuffleDraw(t, tb, "7c 7d Kh")
		tb.playOut()
		if !withDeck {
			tb.rec.Deck = nil
		}
		res := engine.CheckDeal(tb.rec)
		if !res.Valid {
			t.Errorf("reshuffle (deck %v): errors %+v, want valid", withDeck, res.Errors)
		}
	}
}

func TestStockExhaustionOwnDiscard(t *testing.T) {
	t.Parallel()
	for _, withDeck := range []bool{true, false} {
		tb := base(t)
		exhaust(t, tb)
		own := tb.handOf("dan")
		x := reshuffleDraw(t, tb, "7c 7d Kh")
		x.Draw[4] = cards(t, own)[0] // one of dan's own discards of this exchange
		if !withDeck {
			tb.rec.Deck = nil
		}
		res := engine.CheckDeal(tb.rec)
		if !hasProblem(res.Errors, "card_not_in_stock", "/exchanges/1/2/draw/4") {
			t.Errorf("own discard after reshuffle (deck %v): errors %+v, want card_not_in_stock at /exchanges/1/2/draw/4", withDeck, res.Errors)
		}
	}
}

func TestStockExhaustionForbid(t *testing.T) {
	t.Parallel()
	tb := base(t)
	tb.rec.Rules = rules(t, "stock_exhaustion", "forbid")
	exhaust(t, tb)
	reshuffleDraw(t, tb, "7c 7d Kh")
	tb.playOut()
	res := engine.CheckDeal(tb.rec)
	if !hasProblem(res.Errors, "stock_exhausted", "/exchanges/1/2") {
		t.Errorf("forbid: errors %+v, want stock_exhausted at /exchanges/1/2", res.Errors)
	}
}

func TestReshuffledFlag(t *testing.T) {
	t.Parallel()
	tb := base(t)
	x := tb.exchange(0, "cia", "4c")
	x.Reshuffled = true
	tb.playOut()
	res := engine.CheckDeal(tb.rec)
	if !hasProblem(res.Errors, "invalid_record", "/exchanges/0/0/reshuffled") {
		t.Errorf("reshuffled without exhaustion: errors %+v, want invalid_record", res.Errors)
	}
}

// TestOpenCardRefusedBackAfterReshuffle: the stock held only the open card,
// which was refused; the pile less the player's own discard became the new
// stock, so the refused card may come back (record found by the simulator).
func TestOpenCardRefusedBackAfterReshuffle(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("testdata", "refused_open_card_reshuffle.json"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := engine.DecodeDeal(data)
	if err != nil {
		t.Fatal(err)
	}
	if res := engine.CheckDeal(d); !res.Valid {
		t.Errorf("CheckDeal = invalid %+v, want valid", res.Errors)
	}
	// Drawing the player's own discard instead is still wrong.
	x := &d.Exchanges[2][3]
	x.Draw[0] = x.Discard[0]
	if res := engine.CheckDeal(d); !hasCode(res, "card_not_in_stock") {
		t.Errorf("own discard drawn after the reshuffle: errors %v, want card_not_in_stock", codes(res))
	}
}
