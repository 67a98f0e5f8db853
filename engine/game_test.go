package engine_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/revisor-sm/revisor/engine"
)

func game(players string, deals ...engine.GameDeal) *engine.GameRecord {
	g := &engine.GameRecord{Players: fields(players), FirstDealer: fields(players)[0]}
	g.Deals = deals
	return g
}

func fields(s string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' {
			if start >= 0 {
				out = append(out, s[start:i])
			}
			start = -1
		} else if start < 0 {
			start = i
		}
	}
	return out
}

func sheet(s engine.Sheet) engine.GameDeal { return engine.GameDeal{Sheet: s} }

func gameCodes(res *engine.GameResult) []string {
	var out []string
	for _, e := range res.Errors {
		out = append(out, e.Code+"@"+e.Path)
	}
	return out
}

func TestSheetChecks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		rules *engine.Rules
		lines []engine.Sheet
		want  string // code@path, "" for valid
	}{
		{"plain", nil, []engine.Sheet{{"bo": {"hand1": 2, "last_trick": 5}}}, ""},
		{"unknown source", nil, []engine.Sheet{{"bo": {"hand4": 2, "last_trick": 5}}}, "unknown_source@/deals/0/sheet/bo/hand4"},
		{"unknown player", nil, []engine.Sheet{{"eve": {"hand1": 2}, "bo": {"last_trick": 5}}}, "unknown_player@/deals/0/sheet/eve"},
		{"scored twice", nil, []engine.Sheet{{"bo": {"hand1": 2, "last_trick": 5}, "cia": {"hand1": 2}}}, "source_scored_twice@/deals/0/sheet/cia/hand1"},
		{"not a category's points", nil, []engine.Sheet{{"bo": {"hand1": 9, "last_trick": 5}}}, "invalid_points@/deals/0/sheet/bo/hand1"},
		{"royal's 52 is a category", nil, []engine.Sheet{{"bo": {"hand3": 52, "last_trick": 5}}}, ""},
		{"last trick of 4", nil, []engine.Sheet{{"bo": {"last_trick": 4}}}, "invalid_points@/deals/0/sheet/bo/last_trick"},
		{"chicago of 14", nil, []engine.Sheet{{"bo": {"hand1": 8, "hand2": 8, "chicago": 14}}}, "invalid_points@/deals/0/sheet/bo/chicago"},
		{"no last trick", nil, []engine.Sheet{{"bo": {"hand1": 2}}}, "missing_last_trick@/deals/0/sheet"},
		{"switch last_trick_points 0: no last trick to write", rules(t, "last_trick_points", 0), []engine.Sheet{{"bo": {"hand1": 2}}}, ""},
		{"chicago and last trick", nil, []engine.Sheet{{"bo": {"hand1": 8, "hand2": 8, "chicago": 15}, "cia": {"last_trick": 5}}}, "chicago_and_last_trick@/deals/0/sheet/cia/last_trick"},
		{"switch chicago_stacks_last_trick", rules(t, "chicago_stacks_last_trick", true), []engine.Sheet{{"bo": {"hand1": 8, "hand2": 8, "chicago": 15, "last_trick": 5}}}, ""},
		{"switch chicago_stacks_last_trick: a won Chicago also scores the last trick", rules(t, "chicago_stacks_last_trick", true), []engine.Sheet{{"bo": {"hand1": 8, "hand2": 8, "chicago": 15}}}, "missing_last_trick@/deals/0/sheet"},
		{"switch chicago_stacks_last_trick: a lost Chicago scores no last trick", rules(t, "chicago_stacks_last_trick", true), []engine.Sheet{{"bo": {"hand1": 8, "hand2": 8, "chicago": -15}}}, ""},
		{"lost chicago alone", nil, []engine.Sheet{{"bo": {"hand1": 8, "hand2": 8, "chicago": -15}, "cia": {"hand1": 0}}}, ""},
		{"stacking is only for the declarer", rules(t, "chicago_stacks_last_trick", true), []engine.Sheet{{"bo": {"hand1": 8, "hand2": 8, "chicago": 15}, "cia": {"last_trick": 5}}}, "chicago_and_last_trick@/deals/0/sheet/cia/last_trick"},
		{"lost chicago then final hand", nil, []engine.Sheet{{"bo": {"hand1": 8, "hand2": 8, "chicago": -15}, "cia": {"hand3": 1}}}, "scored_after_lost_chicago@/deals/0/sheet/cia/hand3"},
		{"lost chicago then last trick", nil, []engine.Sheet{{"bo": {"hand1": 8, "hand2": 8, "chicago": -15}, "cia": {"last_trick": 5}}}, "scored_after_lost_chicago@/deals/0/sheet/cia/last_trick"},
		{"switch chicago_stacks_last_trick: the last trick does not count for the right to declare", rules(t, "chicago_stacks_last_trick", true), []engine.Sheet{{"bo": {"hand1": 6, "hand2": 4, "last_trick": 5, "chicago": 15}}}, "chicago_not_allowed@/deals/0/sheet/bo/chicago"},
		{"switch chicago_stacks_last_trick: 15 after the phases", rules(t, "chicago_stacks_last_trick", true), []engine.Sheet{{"bo": {"hand1": 8, "hand2": 7, "last_trick": 5, "chicago": 15}}}, ""},
		{"chicago without the points", nil, []engine.Sheet{{"bo": {"hand1": 8, "hand2": 6, "chicago": 15}}}, "chicago_not_allowed@/deals/0/sheet/bo/chicago"},
		{"chicago at 15 from earlier deals", nil, []engine.Sheet{
			{"bo": {"hand1": 8, "hand2": 2, "last_trick": 5}}, {"bo": {"chicago": 15}}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := game("anna bo cia dan")
			g.Rules = tt.rules
			for _, l := range tt.lines {
				g.AppendSheet(l)
			}
			res := engine.CheckGame(g, engine.GameOptions{InProgress: true})
			got := gameCodes(res)
			if tt.want == "" && len(got) > 0 || tt.want != "" && !containsStr(got, tt.want) {
				t.Errorf("CheckGame(%s) errors = %v, want %q", tt.name, got, tt.want)
			}
			if res.Valid != (tt.want == "") {
				t.Errorf("CheckGame(%s) valid = %v, want %v", tt.name, res.Valid, tt.want == "")
			}
		})
	}
}

func containsStr(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestGameEnd(t *testing.T) {
	t.Parallel()
	win := engine.Sheet{"dan": {"hand1": 52, "last_trick": 5}}
	small := engine.Sheet{"bo": {"hand1": 1, "last_trick": 5}}
	tests := []struct {
		name     string
		endedBy  string
		opt      engine.GameOptions
		lines    []engine.Sheet
		want     string
		gameOver bool
		winners  []string
	}{
		{"target reached", "", engine.GameOptions{}, []engine.Sheet{small, win}, "", true, []string{"dan"}},
		{"not finished", "", engine.GameOptions{}, []engine.Sheet{small}, "game_not_finished@/deals", false, []string{}},
		{"in progress", "", engine.GameOptions{InProgress: true}, []engine.Sheet{small}, "", false, []string{}},
		{"ended by time", engine.EndedByTime, engine.GameOptions{}, []engine.Sheet{small}, "", false, []string{}},
		{"deal after game over", "", engine.GameOptions{}, []engine.Sheet{win, small}, "deal_after_game_over@/deals/1", true, []string{"dan"}},
		{"bad ended_by", "clock", engine.GameOptions{}, []engine.Sheet{win}, "invalid_record@/ended_by", false, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := game("anna bo cia dan")
			g.EndedBy = tt.endedBy
			for _, l := range tt.lines {
				g.AppendSheet(l)
			}
			res := engine.CheckGame(g, tt.opt)
			got := gameCodes(res)
			if tt.want == "" && len(got) > 0 || tt.want != "" && !containsStr(got, tt.want) {
				t.Errorf("errors = %v, want %q", got, tt.want)
			}
			if res.GameOver != tt.gameOver || !reflect.DeepEqual(res.Winners, tt.winners) {
				t.Errorf("game_over %v winners %v, want %v %v", res.GameOver, res.Winners, tt.gameOver, tt.winners)
			}
		})
	}
}

func TestPlacements(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		lines []engine.Sheet
		want  []engine.Placement
	}{
		{"1 2 2 4", []engine.Sheet{
			{"cia": {"hand1": 3, "last_trick": 5}, "bo": {"hand2": 2}, "anna": {"hand3": 2}},
		}, []engine.Placement{{"cia", 1, 8}, {"anna", 2, 2}, {"bo", 2, 2}, {"dan", 4, 0}}},
		{"all equal", []engine.Sheet{{"anna": {"last_trick": 5}}, {"bo": {"last_trick": 5}}, {"cia": {"last_trick": 5}}, {"dan": {"last_trick": 5}}},
			[]engine.Placement{{"anna", 1, 5}, {"bo", 1, 5}, {"cia", 1, 5}, {"dan", 1, 5}}},
	}
	for _, tt := range tests {
		g := game("anna bo cia dan")
		g.EndedBy = engine.EndedByTime
		for _, l := range tt.lines {
			g.AppendSheet(l)
		}
		res := engine.CheckGame(g, engine.GameOptions{})
		if !res.Valid || !reflect.DeepEqual(res.Placements, tt.want) {
			t.Errorf("%s: placements = %v (errors %v), want %v", tt.name, res.Placements, res.Errors, tt.want)
		}
	}
}

// TestForfeitPlacedLast plays a full deal in which cia bluffs, then sheets.
func TestForfeitPlacedLast(t *testing.T) {
	t.Parallel()
	tb := phaseTable(t)
	tb.announce(0, "cia:flush")
	tb.playOut()
	g := game("anna bo cia dan")
	g.AppendDeal(tb.rec)
	g.AppendSheet(engine.Sheet{"anna": {"hand1": 52, "last_trick": 5}})
	res := engine.CheckGame(g, engine.GameOptions{})
	if !res.Valid {
		t.Fatalf("errors %+v", res.Errors)
	}
	if !reflect.DeepEqual(res.Forfeits, []string{"cia"}) {
		t.Errorf("forfeits = %v, want [cia]", res.Forfeits)
	}
	last := res.Placements[len(res.Placements)-1]
	if last.Player != "cia" || last.Place != 4 {
		t.Errorf("placements = %v, want cia last", res.Placements)
	}
	if len(res.Violations) != 1 || res.Violations[0].Path != "/deals/0/announcements/0/1" {
		t.Errorf("violations = %+v, want false_announcement at /deals/0/announcements/0/1", res.Violations)
	}
}

// TestDealerRotation puts a full deal dealt by anna at the position where
// bo deals: the dealer comes from first_dealer, so it is out of turn.
func TestDealerRotation(t *testing.T) {
	t.Parallel()
	tb := base(t)
	tb.playOut()
	for _, tt := range []struct {
		first string
		valid bool
	}{{"anna", false}, {"dan", true}} {
		g := game("anna bo cia dan")
		g.FirstDealer = tt.first
		g.AppendSheet(engine.Sheet{"bo": {"last_trick": 5}})
		g.AppendDeal(tb.rec)
		if g.DealerOf(1) != map[string]string{"anna": "bo", "dan": "anna"}[tt.first] {
			t.Errorf("DealerOf(1) = %s with first dealer %s", g.DealerOf(1), tt.first)
		}
		res := engine.CheckGame(g, engine.GameOptions{InProgress: true})
		// base is dealt by anna: valid only when anna deals deal 1.
		if res.Valid != tt.valid {
			t.Errorf("first dealer %s: valid %v (errors %v), want %v", tt.first, res.Valid, gameCodes(res), tt.valid)
		}
	}
}

func TestGameChicagoHistory(t *testing.T) {
	t.Parallel()
	// win_requires_chicago: cia reaches the target, but only bo has won a
	// Chicago in this game, so bo wins and is placed first.
	for _, on := range []bool{false, true} {
		g := game("anna bo cia dan")
		g.Rules = rules(t, "win_requires_chicago", on)
		g.AppendSheet(engine.Sheet{"bo": {"hand1": 8, "hand2": 8, "chicago": 15}})
		g.AppendSheet(engine.Sheet{"cia": {"hand1": 52, "last_trick": 5}})
		res := engine.CheckGame(g, engine.GameOptions{})
		want := []string{"cia"}
		if on {
			want = []string{"bo"}
		}
		if !res.Valid || !res.GameOver || !reflect.DeepEqual(res.Winners, want) || res.Placements[0].Player != want[0] {
			t.Errorf("win_requires_chicago %v: valid %v game_over %v winners %v placements %v, want winners %v first",
				on, res.Valid, res.GameOver, res.Winners, res.Placements, want)
		}
	}
}

// TestAppendDeals appends entries one by one as the tournament does and
// re-checks the game in progress after each.
func TestAppendDeals(t *testing.T) {
	t.Parallel()
	entries := []string{
		`{"sheet": {"bo": {"hand1": 2, "last_trick": 5}, "cia": {"hand2": 1, "hand3": 3}}}`,
		`{"sheet": {"dan": {"hand1": 6, "hand2": 6, "last_trick": 5, "hand3": 6}}}`,
		`{"sheet": {"dan": {"hand1": 5, "hand2": 5, "chicago": 15, "hand3": 5}}}`,
	}
	g := game("anna bo cia dan")
	for i, e := range entries {
		gd, err := engine.DecodeGameDeal([]byte(e))
		if err != nil {
			t.Fatalf("DecodeGameDeal(%s): %v", e, err)
		}
		g.Deals = append(g.Deals, gd)
		res := engine.CheckGame(g, engine.GameOptions{InProgress: true})
		if !res.Valid || res.GameOver != (i == 2) {
			t.Fatalf("after deal %d: valid %v game_over %v errors %v", i, res.Valid, res.GameOver, gameCodes(res))
		}
	}
	if _, err := engine.DecodeGameDeal([]byte(`{"sheet": {"bo": {"hand1": "x"}}}`)); err == nil {
		t.Errorf("DecodeGameDeal(bad sheet) = nil error")
	}
	tb := base(t)
	tb.playOut()
	data, err := json.Marshal(engine.GameDeal{Deal: tb.rec})
	if err != nil {
		t.Fatal(err)
	}
	gd, err := engine.DecodeGameDeal(data)
	if err != nil || gd.Deal == nil || gd.Deal.Players != nil || len(gd.Deal.Tricks) != 5 {
		t.Errorf("DecodeGameDeal(full deal %s) = %+v, %v", data, gd, err)
	}
}

func TestNewDeck(t *testing.T) {
	t.Parallel()
	seen := map[engine.Card]bool{}
	for _, c := range engine.NewDeck() {
		if !c.Valid() || seen[c] {
			t.Fatalf("NewDeck has %v twice or invalid", c)
		}
		seen[c] = true
	}
	if len(seen) != 52 {
		t.Errorf("NewDeck has %d cards, want 52", len(seen))
	}
}

// TestGameRecordBounds (issue 13, item 1): a record of more deals than a
// game holds is refused whole, with one error, and a result lists at most
// MaxReportedErrors errors with the number of the rest.
func TestGameRecordBounds(t *testing.T) {
	t.Parallel()
	long := game("anna bo cia dan")
	for range engine.MaxGameDeals + 1 {
		long.AppendSheet(engine.Sheet{"bo": {"last_trick": 5}})
	}
	res := engine.CheckGame(long, engine.GameOptions{})
	if res.Valid || len(res.Errors) != 1 || res.Errors[0].Code != "too_many_deals" || len(res.Deals) != 0 {
		t.Errorf("CheckGame(%d deals) = valid %v, %d errors (%v), %d deal results; want one too_many_deals and no deals checked",
			engine.MaxGameDeals+1, res.Valid, len(res.Errors), res.Errors, len(res.Deals))
	}
	bad := game("anna bo cia dan")
	for range engine.MaxGameDeals {
		bad.AppendSheet(engine.Sheet{"nobody": {"last_trick": 5}, "anna": {"hand1": 1}})
	}
	res = engine.CheckGame(bad, engine.GameOptions{})
	if res.Valid || len(res.Errors) != engine.MaxReportedErrors || res.ErrorsOmitted <= 0 {
		t.Fatalf("CheckGame(%d bad deals) = valid %v, %d errors, %d omitted; want %d listed and the rest counted",
			engine.MaxGameDeals, res.Valid, len(res.Errors), res.ErrorsOmitted, engine.MaxReportedErrors)
	}
	all := 0
	for _, d := range res.Deals {
		all += len(d.Errors)
	}
	if got := len(res.Errors) + res.ErrorsOmitted; got < all {
		t.Errorf("listed + omitted = %d, want at least the %d errors of the deals", got, all)
	}
}
