package engine_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/engine"
)

// phaseTable deals: bo three queens, cia a pair of sevens, dan two pair
// (fives and fours), anna a flush draw of nothing.
func phaseTable(t testing.TB) *table {
	return newTable(t, "anna bo cia dan", "anna", map[string]string{
		"anna": "Ah Th 8h 3h 2c",
		"bo":   "Qs Qd Qc 9s 2d",
		"cia":  "7c 7h Kd 4c 3s",
		"dan":  "5s 5d 4h 4d Jc",
	}, "")
}

func TestAnnouncements(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		phase0 string
		edit   func(tb *table)
		code   string
		path   string
		awards []string
	}{
		{"everyone passes", "", nil, "", "", nil},
		{"lower claim than held is fine", "bo:pair", nil, "", "", []string{"bo:hand1:1"}},
		{"three queens as pair beat a real pair of sevens", "bo:pair cia:pair", nil, "", "", []string{"bo:hand1:1"}},
		{"highest announcement scores", "bo:pair cia:pair dan:two_pair", nil, "", "", []string{"dan:hand1:2"}},
		{"equal after higher is fine", "bo:two_pair dan:two_pair", nil, "", "", []string{"bo:hand1:2"}},
		{"lower than the highest so far", "bo:two_pair cia:pair", nil, "announcement_too_low", "/announcements/0/1/announce", nil},
		{"high card is no category", "cia:high_card", nil, "unknown_category", "/announcements/0/1/announce", nil},
		{"unknown word", "cia:quads", nil, "unknown_category", "/announcements/0/1/announce", nil},
		{"out of turn", "", func(tb *table) {
			l := tb.rec.Announcements[0]
			l[0], l[1] = l[1], l[0]
		}, "out_of_turn", "/announcements/0/0", nil},
		{"missing entry", "", func(tb *table) { tb.rec.Announcements[0] = tb.rec.Announcements[0][:3] },
			"invalid_record", "/announcements/0", nil},
		{"stranger", "", func(tb *table) { tb.rec.Announcements[1][2].Player = "eve" },
			"unknown_player", "/announcements/1/2/player", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := phaseTable(t)
			tb.announce(0, tt.phase0)
			if tt.edit != nil {
				tt.edit(tb)
			}
			tb.playOut()
			res := engine.CheckDeal(tb.rec)
			if tt.code != "" {
				if !hasProblem(res.Errors, tt.code, tt.path) {
					t.Errorf("errors = %+v, want %s at %s", res.Errors, tt.code, tt.path)
				}
				return
			}
			mustValid(t, res)
			var phase []string
			for _, a := range awards(res) {
				if strings.Contains(a, ":hand1:") {
					phase = append(phase, a)
				}
			}
			if !reflect.DeepEqual(phase, tt.awards) {
				t.Errorf("hand1 awards = %v, want %v", phase, tt.awards)
			}
		})
	}
}

func TestFalseAnnouncement(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		rules       *engine.Rules
		phase0      string
		violations  []string
		consequence string
		awards      []string
	}{
		{"bluff still scores as announced", nil, "cia:flush", []string{"false_announcement:cia"}, engine.ForfeitGame, []string{"cia:hand1:5"}},
		{"bluffer loses the comparison", nil, "cia:two_pair dan:two_pair", []string{"false_announcement:cia"}, engine.ForfeitGame, []string{"dan:hand1:2"}},
		{"switch penalty", rules(t, "false_announcement", "penalty"), "cia:flush", []string{"false_announcement:cia"}, engine.Penalty, []string{"cia:hand1:5"}},
		{"holding more is no bluff", nil, "bo:two_pair", nil, "", []string{"bo:hand1:2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := phaseTable(t)
			tb.rec.Rules = tt.rules
			tb.announce(0, tt.phase0)
			tb.playOut()
			res := engine.CheckDeal(tb.rec)
			mustValid(t, res)
			if got := violations(res); !reflect.DeepEqual(got, tt.violations) {
				t.Fatalf("violations = %v, want %v", got, tt.violations)
			}
			if len(res.Violations) > 0 && res.Violations[0].Consequence != tt.consequence {
				t.Errorf("consequence = %q, want %q", res.Violations[0].Consequence, tt.consequence)
			}
			if got := awards(res); len(got) == 0 || got[0] != tt.awards[0] {
				t.Errorf("awards = %v, want first %v", got, tt.awards)
			}
		})
	}
}

func TestShowOnBreak(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		rules   *engine.Rules
		phase0  string
		discard string
		show    string
		want    []string
	}{
		{"breaking without showing", nil, "bo:three_of_a_kind", "Qs 2d", "", []string{"unshown_break:bo"}},
		{"breaking after showing", nil, "bo:three_of_a_kind", "Qs 2d", "Qs Qd Qc", nil},
		{"showing too little", nil, "bo:three_of_a_kind", "Qs 2d", "Qs Qd", []string{"unshown_break:bo"}},
		{"kept cards still hold it", nil, "bo:pair", "Qs 2d", "", nil},
		{"not the highest announcement", nil, "bo:pair dan:two_pair", "Qs Qd", "", nil},
		{"switch off", rules(t, "show_on_break", false), "bo:three_of_a_kind", "Qs 2d", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := phaseTable(t)
			tb.rec.Rules = tt.rules
			tb.announce(0, tt.phase0)
			x := tb.exchange(1, "bo", tt.discard)
			if tt.show != "" {
				x.Show = cards(t, tt.show)
			}
			tb.playOut()
			res := engine.CheckDeal(tb.rec)
			mustValid(t, res)
			if got := violations(res); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("violations = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestShowNotHeld(t *testing.T) {
	t.Parallel()
	tb := phaseTable(t)
	tb.announce(0, "bo:three_of_a_kind")
	x := tb.exchange(1, "bo", "Qs 2d")
	x.Show = cards(t, "Qs Qd Qh")
	tb.playOut()
	res := engine.CheckDeal(tb.rec)
	if !hasProblem(res.Errors, "card_not_held", "/exchanges/1/0/show/2") {
		t.Errorf("errors = %+v, want card_not_held at /exchanges/1/0/show/2", res.Errors)
	}
}

func TestSwitchSuitOrder(t *testing.T) {
	t.Parallel()
	// bo 7c 7d and cia 7s 7h with the same kickers: an exact tie without a suit order.
	hands := map[string]string{
		"anna": "Ks Ts 9d 6d 5s", "bo": "7c 7d Kh 3s 2d", "cia": "7s 7h Kc 3h 2c", "dan": "As Qd 8h 6c 4h",
	}
	tests := []struct {
		rules *engine.Rules
		want  []string
	}{
		{nil, nil},
		{rules(t, "suit_order", "shdc"), []string{"cia:hand1:1"}},
		{rules(t, "suit_order", "dchs"), []string{"bo:hand1:1"}},
	}
	for _, tt := range tests {
		tb := newTable(t, "anna bo cia dan", "anna", hands, "")
		tb.rec.Rules = tt.rules
		tb.announce(0, "bo:pair cia:pair")
		tb.playOut()
		res := engine.CheckDeal(tb.rec)
		mustValid(t, res)
		var got []string
		for _, a := range awards(res) {
			if strings.Contains(a, ":hand1:") {
				got = append(got, a)
			}
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("suit order %v: hand1 awards = %v, want %v", tt.rules, got, tt.want)
		}
	}
}
