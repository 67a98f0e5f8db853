// Tests of cards, their spellings and the values of poker hands.

package cards_test

import (
	"testing"

	"github.com/revisor-sm/revisor/engine/cards"
)

func TestParseCard(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
	}{
		{"Th", "Th"}, {"10h", "Th"}, {"TH", "Th"}, {"10H", "Th"}, {"T♥", "Th"}, {"10♥", "Th"},
		{"As", "As"}, {"AS", "As"}, {"A♠", "As"}, {"A♠\ufe0f", "As"}, {"2c", "2c"}, {"2♣", "2c"},
		{"Qd", "Qd"}, {"Q♦", "Qd"}, {"KC", "Kc"}, {"9s", "9s"}, {"Jh", "Jh"},
	}
	for _, tt := range tests {
		c, err := cards.ParseCard(tt.in)
		if err != nil || c.String() != tt.want {
			t.Errorf("ParseCard(%q) = %v, %v, want %s", tt.in, c, err, tt.want)
		}
	}
	for _, bad := range []string{"", "A", "1h", "11h", "Ax", "ah", "As ", " As", "Ahh", "0h", "10", "Xs", "♠A", "A♤"} {
		if c, err := cards.ParseCard(bad); err == nil {
			t.Errorf("ParseCard(%q) = %v, want error", bad, c)
		}
	}
}

func TestCardRoundTrip(t *testing.T) {
	t.Parallel()
	for c := cards.Card(0); c < 52; c++ {
		got, err := cards.ParseCard(c.String())
		if err != nil || got != c {
			t.Errorf("ParseCard(%q) = %v, %v, want %v", c.String(), got, err, c)
		}
		if cards.NewCard(c.Rank(), c.Suit()) != c {
			t.Errorf("NewCard(%d, %d) = %v, want %v", c.Rank(), c.Suit(), cards.NewCard(c.Rank(), c.Suit()), c)
		}
	}
}

// hand5 reads a hand of five cards written as "As Kd 7c 5h 2s".
func hand5(t testing.TB, s string) [5]cards.Card {
	t.Helper()
	cs, err := cards.ParseList(s)
	if err != nil || len(cs) != 5 {
		t.Fatalf("hand %q: %d cards, %v", s, len(cs), err)
	}
	return [5]cards.Card(cs)
}

func TestEvaluateCategory(t *testing.T) {
	t.Parallel()
	tests := []struct {
		hand string
		want cards.Category
	}{
		{"As Kd 7c 5h 2s", cards.HighCard},
		{"Qs Qd 7c 5h 2s", cards.Pair},
		{"Qs Qd 7c 7h 2s", cards.TwoPair},
		{"Qs Qd Qc 7h 2s", cards.ThreeOfAKind},
		{"9s Td Jc Qh Ks", cards.Straight},
		{"As 2d 3c 4h 5s", cards.Straight}, // wheel
		{"Ts Jd Qc Kh As", cards.Straight},
		{"Qs Kd Ac 2h 3s", cards.HighCard}, // no wrap-around
		{"Ks Ad 2c 3h 4s", cards.HighCard},
		{"2h 7h 9h Jh Kh", cards.Flush},
		{"Qs Qd Qc 7h 7s", cards.FullHouse},
		{"Qs Qd Qc Qh 7s", cards.FourOfAKind},
		{"5h 6h 7h 8h 9h", cards.StraightFlush},
		{"Ah 2h 3h 4h 5h", cards.StraightFlush},
		{"Th Jh Qh Kh Ah", cards.RoyalStraightFlush},
	}
	for _, tt := range tests {
		if got := cards.Evaluate(hand5(t, tt.hand)).Category(); got != tt.want {
			t.Errorf("Evaluate(%s).Category() = %v, want %v", tt.hand, got, tt.want)
		}
	}
}

func TestEvaluateOrder(t *testing.T) {
	t.Parallel()
	// Each hand beats the next one.
	order := []string{
		"Th Jh Qh Kh Ah", "9c Tc Jc Qc Kc", "Ac 2c 3c 4c 5c", "Ks Kd Kc Kh 2s", "2s 2d 2c 2h As",
		"Ks Kd Kc 2h 2s", "Qs Qd Qc Ah As", "Ah 9h 7h 5h 3h", "Ah 9h 7h 5h 2h", "Kh Qh Jh 9h 7h",
		"Ts Jd Qc Kh As", "6s 2d 3c 4h 5s", "As 2d 3c 4h 5s", "3s 3d 3c Ah Ks", "2s 2d 2c Ah Ks",
		"As Ad Ks Kd 2c", "As Ad Qs Qd Kc", "As Ad Qs Qd Jc", "Ks Kd Qs Qd Ac",
		"As Ad Kc Qh Js", "As Ad Kc Qh Ts", "Ks Kd Ac Qh Js", "As Kd Qc Jh 9s", "As Kd Qc Jh 8s", "7s 5d 4c 3h 2s",
	}
	for i := 0; i+1 < len(order); i++ {
		a, b := hand5(t, order[i]), hand5(t, order[i+1])
		if got := cards.Compare(a, b); got != 1 {
			t.Errorf("Compare(%s, %s) = %d, want 1", order[i], order[i+1], got)
		}
		if got := cards.Compare(b, a); got != -1 {
			t.Errorf("Compare(%s, %s) = %d, want -1", order[i+1], order[i], got)
		}
	}
	if got := cards.Compare(hand5(t, "7c 7d Kh 3s 2d"), hand5(t, "7s 7h Kc 3h 2c")); got != 0 {
		t.Errorf("Compare(exact tie) = %d, want 0", got)
	}
}

func TestCategoryOfPartial(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cards string
		want  cards.Category
	}{
		{"", cards.HighCard},
		{"As", cards.HighCard},
		{"As Ad", cards.Pair},
		{"As Ad Kc", cards.Pair},
		{"As Ad Kc Kd", cards.TwoPair},
		{"As Ad Ac", cards.ThreeOfAKind},
		{"As Ad Ac Kd", cards.ThreeOfAKind},
		{"As Ad Ac Ah", cards.FourOfAKind},
		{"9s Td Jc Qh", cards.HighCard},
		{"2h 7h 9h Jh", cards.HighCard},
		{"9s Td Jc Qh Kh", cards.Straight},
		{"As Ad Ac Kd Kh", cards.FullHouse},
		{"As As", cards.HighCard},             // not two cards
		{"As Ad Ac Ah Kd Kh", cards.HighCard}, // not a hand
	}
	for _, tt := range tests {
		cs, err := cards.ParseList(tt.cards)
		if err != nil {
			t.Fatal(err)
		}
		if got := cards.CategoryOf(cs); got != tt.want {
			t.Errorf("CategoryOf(%s) = %v, want %v", tt.cards, got, tt.want)
		}
	}
}

func TestParseCategory(t *testing.T) {
	t.Parallel()
	for c := cards.Pair; c <= cards.RoyalStraightFlush; c++ {
		if got, ok := cards.ParseCategory(c.String()); !ok || got != c {
			t.Errorf("ParseCategory(%q) = %v, %v, want %v", c.String(), got, ok, c)
		}
	}
	for _, bad := range []string{"high_card", "", "Pair", "quads"} {
		if got, ok := cards.ParseCategory(bad); ok {
			t.Errorf("ParseCategory(%q) = %v, want not ok", bad, got)
		}
	}
}

func BenchmarkEvaluate(b *testing.B) {
	hands := [][5]cards.Card{
		hand5(b, "As Kd 7c 5h 2s"), hand5(b, "Qs Qd 7c 7h 2s"), hand5(b, "9s Td Jc Qh Ks"),
		hand5(b, "2h 7h 9h Jh Kh"), hand5(b, "Qs Qd Qc 7h 7s"), hand5(b, "Th Jh Qh Kh Ah"),
		hand5(b, "As 2d 3c 4h 5s"), hand5(b, "Qs Qd Qc 4h 7s"),
	}
	var sink cards.HandValue
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sink ^= cards.Evaluate(hands[i&7])
	}
	_ = sink
}
