package engine_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/engine"
)

// Tests added by the rules audit: each holds a sentence of docs/game-rules.md (or a
// decision of docs/rules.md) that no earlier test would catch if broken.

// TestEvaluateAllHands values every one of the 2,598,960 five-card hands:
// the number of hands per category and the number of distinct values per
// category (the equivalence classes of ordinary poker, 7462 in all) must be
// the known ones, so no two different hands share a value and no two equal
// hands differ.
func TestEvaluateAllHands(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("exhaustive")
	}
	wantHands := [engine.NumCategories]int{1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 36, 4}
	wantClasses := [engine.NumCategories]int{1277, 2860, 858, 858, 10, 1277, 156, 156, 9, 1}
	var hands, classes [engine.NumCategories]int
	seen := make(map[engine.HandValue]bool, 7462)
	var h [5]engine.Card
	for a := engine.Card(0); a < 52; a++ {
		for b := a + 1; b < 52; b++ {
			for c := b + 1; c < 52; c++ {
				for d := c + 1; d < 52; d++ {
					for e := d + 1; e < 52; e++ {
						h = [5]engine.Card{a, b, c, d, e}
						v := engine.Evaluate(h)
						hands[v.Category()]++
						if !seen[v] {
							seen[v] = true
							classes[v.Category()]++
						}
					}
				}
			}
		}
	}
	if hands != wantHands {
		t.Errorf("Evaluate(all hands) per category = %v, want %v", hands, wantHands)
	}
	if classes != wantClasses {
		t.Errorf("Evaluate(all hands) distinct values per category = %v, want %v", classes, wantClasses)
	}
}

// TestShowOnBreakSharedAndLater: the show is owed by every holder of the
// highest or shared highest announcement of the phase just before, in
// exchange rounds 2 and 3; not by a bluffer; and a phase-1 announcement is
// not "the phase just before" exchange round 3.
func TestShowOnBreakSharedAndLater(t *testing.T) {
	t.Parallel()
	type xch struct {
		round            int
		player, discards string
	}
	tests := []struct {
		name           string
		phase0, phase1 string
		exchanges      []xch
		want           []string
		path           string
	}{
		{"shared highest: the other holder breaks", "bo:pair cia:pair", "",
			[]xch{{1, "bo", "Qs 2d"}, {1, "cia", "7c 7h"}}, []string{"unshown_break:cia"}, "/exchanges/1/1"},
		{"shared highest: a bluffer owes no show", "bo:pair anna:pair", "",
			[]xch{{1, "anna", "Ah Th"}}, []string{"false_announcement:anna"}, ""},
		{"round 3 after phase 2", "", "bo:three_of_a_kind",
			[]xch{{2, "bo", "Qs 2d"}}, []string{"unshown_break:bo"}, "/exchanges/2/0"},
		{"phase 1 is not the phase before round 3", "bo:three_of_a_kind", "",
			[]xch{{2, "bo", "Qs 2d"}}, nil, ""},
		{"round 2 break after phase 1, then round 3 free", "bo:three_of_a_kind", "dan:two_pair",
			[]xch{{1, "bo", "Qs 2d"}, {2, "bo", "Qd"}}, []string{"unshown_break:bo"}, "/exchanges/1/0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := phaseTable(t)
			tb.announce(0, tt.phase0)
			tb.announce(1, tt.phase1)
			for _, x := range tt.exchanges {
				tb.exchange(x.round, x.player, x.discards)
			}
			tb.playOut()
			res := engine.CheckDeal(tb.rec)
			mustValid(t, res)
			if got := violations(res); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("violations(%s) = %v, want %v", tt.name, got, tt.want)
			}
			for _, v := range res.Violations {
				if v.Code == "unshown_break" && v.Path != tt.path {
					t.Errorf("unshown_break path = %q, want %q", v.Path, tt.path)
				}
			}
		})
	}
}

// TestExchangeStopAtStartOfDeal: the stop looks at the score at the start
// of the deal, not at the score reached by this deal's phase points.
func TestExchangeStopAtStartOfDeal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		start int
		want  []string
	}{
		{"44 plus three queens is 47 during the deal: may exchange", 44, nil},
		{"46 at the start: may not", 46, []string{"exchange_after_stop:bo"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := phaseTable(t)
			tb.rec.Scores = map[string]int{"bo": tt.start}
			tb.announce(0, "bo:three_of_a_kind")
			tb.exchange(1, "bo", "2d")
			tb.playOut()
			res := engine.CheckDeal(tb.rec)
			mustValid(t, res)
			if got := violations(res); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("violations(start %d) = %v, want %v", tt.start, got, tt.want)
			}
		})
	}
}

// TestStockExhaustionEarlierOwnDiscards: only the player's discards of this
// exchange stay out of the new stock; their discards of earlier rounds are
// shuffled in like everyone else's.
func TestStockExhaustionEarlierOwnDiscards(t *testing.T) {
	t.Parallel()
	for _, withDeck := range []bool{true, false} {
		tb := base(t)
		exhaust(t, tb)
		var earlier []string
		for _, c := range tb.rec.Exchanges[0][2].Discard[:3] { // dan's round-1 discards
			earlier = append(earlier, c.String())
		}
		reshuffleDraw(t, tb, strings.Join(earlier, " "))
		tb.playOut()
		if !withDeck {
			tb.rec.Deck = nil
		}
		if res := engine.CheckDeal(tb.rec); !res.Valid {
			t.Errorf("CheckDeal(dan draws own round-1 discards after a reshuffle in round 2, deck %v) = invalid %+v, want valid",
				withDeck, res.Errors)
		}
	}
}

// TestFloorAtEachStep: the floor applies after each award in scoring order,
// so a deduction followed by a gain in one deal is not netted first.
func TestFloorAtEachStep(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		rules  *engine.Rules
		points int
	}{
		{"floor: -5 stops at 0, then the pair's 1", rules(t, "last_trick_points", -5), 1},
		{"switch negative_scores: -5 + 1", rules(t, "last_trick_points", -5, "negative_scores", true), -4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := base(t) // dan wins the last trick and has the best final hand
			tb.rec.Rules = tt.rules
			tb.playOut()
			res := engine.CheckDeal(tb.rec)
			mustValid(t, res)
			if got := awards(res); !reflect.DeepEqual(got, []string{"dan:last_trick:-5", "dan:hand3:1"}) {
				t.Errorf("awards = %v, want [dan:last_trick:-5 dan:hand3:1]", got)
			}
			if res.Points["dan"] != tt.points || res.Scores["dan"] != tt.points {
				t.Errorf("points[dan], scores[dan] = %d, %d, want %d", res.Points["dan"], res.Scores["dan"], tt.points)
			}
		})
	}
}

// TestChicagoLostInTheLastTrick: losing only the fifth trick still loses the
// Chicago: no last trick for its winner and no final hand.
func TestChicagoLostInTheLastTrick(t *testing.T) {
	t.Parallel()
	tb := newTable(t, "anna bo cia dan", "anna", map[string]string{
		"anna": "3s 4h Jc Td 5d",
		"bo":   "As Ah Ad Ks 2c",
		"cia":  "2s 3h 4c 8d 9d",
		"dan":  "7s 6h 5c Tc 6d",
	}, "")
	tb.rec.Scores = map[string]int{"bo": 10}
	tb.announce(0, "bo:three_of_a_kind")
	tb.announce(1, "bo:three_of_a_kind")
	tb.rec.Chicago = "bo"
	tb.playOut()
	res := engine.CheckDeal(tb.rec)
	mustValid(t, res)
	want := []string{"bo:hand1:3", "bo:hand2:3", "bo:chicago:-15"}
	if got := awards(res); !reflect.DeepEqual(got, want) || res.Ended != engine.EndedChicagoLost || res.Scores["bo"] != 1 {
		t.Errorf("CheckDeal(bo loses trick 5) = awards %v ended %q bo %d, want %v chicago_lost 1",
			got, res.Ended, res.Scores["bo"], want)
	}
}

// TestSwitchSuitOrderFinalHand: the suit order breaks an exact tie of the
// final hands too.
func TestSwitchSuitOrderFinalHand(t *testing.T) {
	t.Parallel()
	hands := map[string]string{
		"anna": "Ks Ts 9d 6d 5s", "bo": "7c 7d Kh 3s 2d", "cia": "7s 7h Kc 3h 2c", "dan": "As Qd 8h 6c 4h",
	}
	tests := []struct {
		rules *engine.Rules
		want  []string
	}{
		{nil, nil},
		{rules(t, "suit_order", "shdc"), []string{"cia:hand3:1"}},
		{rules(t, "suit_order", "dchs"), []string{"bo:hand3:1"}},
	}
	for _, tt := range tests {
		tb := newTable(t, "anna bo cia dan", "anna", hands, "")
		tb.rec.Rules = tt.rules
		tb.playOut()
		res := engine.CheckDeal(tb.rec)
		mustValid(t, res)
		var got []string
		for _, a := range awards(res) {
			if strings.Contains(a, ":hand3:") {
				got = append(got, a)
			}
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("suit order %v: hand3 awards = %v, want %v", tt.rules, got, tt.want)
		}
	}
}

// TestSwitchQuadsResetOpponentsScoring: only a four of a kind that scores
// resets: announced as a pair it scores a pair; in the final hand it resets
// after the last trick.
func TestSwitchQuadsResetOpponentsScoring(t *testing.T) {
	t.Parallel()
	hands := map[string]string{
		"anna": "3s 4h Jc Td 2c", "bo": "As Ah Ad Ac Kh", "cia": "2s 3h 4c 8d 9d", "dan": "7s 6h 5c Tc 6d",
	}
	start := map[string]int{"anna": 30, "cia": 20, "dan": 10}
	play := func(t *testing.T, on bool, phase0 string, keep bool) *engine.DealResult {
		tb := newTable(t, "anna bo cia dan", "anna", hands, "")
		tb.rec.Rules = rules(t, "quads_reset_opponents", on)
		tb.rec.Scores = start
		tb.announce(0, phase0)
		if !keep {
			tb.exchange(2, "bo", "Ac")
		}
		tb.playOut()
		res := engine.CheckDeal(tb.rec)
		mustValid(t, res)
		return res
	}
	tests := []struct {
		name   string
		phase0 string
		keep   bool // bo keeps the quads to the final hand
		reset  bool
	}{
		{"announced as a pair, broken before the final hand", "bo:pair", false, false},
		{"quads in the final hand", "", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			off, on := play(t, false, tt.phase0, tt.keep), play(t, true, tt.phase0, tt.keep)
			for _, p := range []string{"anna", "cia", "dan"} {
				want := off.Scores[p]
				if tt.reset {
					want = 0
				}
				if on.Scores[p] != want {
					t.Errorf("CheckDeal(%s) scores = %v, want %s %d", tt.name, on.Scores, p, want)
				}
			}
		})
	}
}

// TestNobodyHoldsSharedHighest holds the decision of docs/rules.md: when no
// one holds the shared highest announcement, the bluffers' hands decide.
func TestNobodyHoldsSharedHighest(t *testing.T) {
	t.Parallel()
	tb := phaseTable(t)
	tb.rec.Rules = rules(t, "false_announcement", "penalty")
	tb.announce(0, "cia:flush anna:flush") // cia a pair of sevens, anna ace high
	tb.playOut()
	res := engine.CheckDeal(tb.rec)
	mustValid(t, res)
	if got := awards(res); len(got) == 0 || got[0] != "cia:hand1:5" {
		t.Errorf("awards = %v, want cia:hand1:5 first", got)
	}
}

// TestSheetScoring: sheet lines are scored like deals: the floor after each
// source, quads_reset_opponents and royal_instant_win from a hand source's
// points.
func TestSheetScoring(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		rules    *engine.Rules
		lines    []engine.Sheet
		scores   map[string]int
		gameOver bool
		winners  []string
	}{
		{"floor: a lost Chicago stops at 0", rules(t, "chicago_points", 20),
			[]engine.Sheet{{"bo": {"hand1": 8, "hand2": 8, "chicago": -20}, "cia": {"hand1": 0}}},
			map[string]int{"anna": 0, "bo": 0, "cia": 0, "dan": 0}, false, []string{}},
		{"switch negative_scores", rules(t, "chicago_points", 20, "negative_scores", true),
			[]engine.Sheet{{"bo": {"hand1": 8, "hand2": 8, "chicago": -20}}},
			map[string]int{"anna": 0, "bo": -4, "cia": 0, "dan": 0}, false, []string{}},
		{"switch quads_reset_opponents", rules(t, "quads_reset_opponents", true),
			[]engine.Sheet{{"bo": {"hand1": 2, "last_trick": 5}}, {"cia": {"hand2": 7}, "dan": {"last_trick": 5}}},
			map[string]int{"anna": 0, "bo": 0, "cia": 7, "dan": 5}, false, []string{}},
		{"switch royal_instant_win", rules(t, "royal_instant_win", true, "target", 200),
			[]engine.Sheet{{"bo": {"hand1": 6, "last_trick": 5}}, {"cia": {"hand3": 52}, "bo": {"last_trick": 5}}},
			map[string]int{"anna": 0, "bo": 16, "cia": 52, "dan": 0}, true, []string{"cia"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := game("anna bo cia dan")
			g.Rules = tt.rules
			for _, l := range tt.lines {
				g.AppendSheet(l)
			}
			res := engine.CheckGame(g, engine.GameOptions{InProgress: true})
			if !res.Valid {
				t.Fatalf("CheckGame(%s) errors = %v, want none", tt.name, gameCodes(res))
			}
			if !reflect.DeepEqual(res.Scores, tt.scores) || res.GameOver != tt.gameOver || !reflect.DeepEqual(res.Winners, tt.winners) {
				t.Errorf("CheckGame(%s) = scores %v game_over %v winners %v, want %v %v %v",
					tt.name, res.Scores, res.GameOver, res.Winners, tt.scores, tt.gameOver, tt.winners)
			}
		})
	}
}

// TestGameEndByTimeAndShared: the clock after a deal that reached the target
// is an ordinary end; equal highest totals share the win; placements put a
// royal instant winner first whatever the totals.
func TestGameEndByTimeAndShared(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		rules      *engine.Rules
		endedBy    string
		lines      []engine.Sheet
		gameOver   bool
		winners    []string
		placements []engine.Placement
	}{
		{"time after the target was reached", nil, engine.EndedByTime,
			[]engine.Sheet{{"dan": {"hand1": 52, "last_trick": 5}}}, true, []string{"dan"},
			[]engine.Placement{{"dan", 1, 57}, {"anna", 2, 0}, {"bo", 2, 0}, {"cia", 2, 0}}},
		{"equal highest totals share the win", nil, "",
			[]engine.Sheet{{"dan": {"last_trick": 5}}, {"dan": {"hand1": 52}, "bo": {"hand3": 52, "last_trick": 5}}},
			true, []string{"bo", "dan"},
			[]engine.Placement{{"bo", 1, 57}, {"dan", 1, 57}, {"anna", 3, 0}, {"cia", 3, 0}}},
		{"royal instant winner placed first", rules(t, "royal_instant_win", true, "target", 200), "",
			[]engine.Sheet{{"dan": {"hand1": 8, "hand2": 8, "last_trick": 5, "hand3": 8}},
				{"dan": {"hand1": 8, "hand2": 8, "chicago": 15}}, {"anna": {"hand3": 52}, "dan": {"last_trick": 5}}},
			true, []string{"anna"},
			[]engine.Placement{{"anna", 1, 52}, {"dan", 2, 65}, {"bo", 3, 0}, {"cia", 3, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := game("anna bo cia dan")
			g.Rules = tt.rules
			g.EndedBy = tt.endedBy
			for _, l := range tt.lines {
				g.AppendSheet(l)
			}
			res := engine.CheckGame(g, engine.GameOptions{})
			if !res.Valid {
				t.Fatalf("CheckGame(%s) errors = %v, want none", tt.name, gameCodes(res))
			}
			if res.GameOver != tt.gameOver || !reflect.DeepEqual(res.Winners, tt.winners) || !reflect.DeepEqual(res.Placements, tt.placements) {
				t.Errorf("CheckGame(%s) = game_over %v winners %v placements %v, want %v %v %v",
					tt.name, res.GameOver, res.Winners, res.Placements, tt.gameOver, tt.winners, tt.placements)
			}
		})
	}
}

// TestSwitchNegativeScoresStartScore: a start score below 0 is possible
// only under negative_scores.
func TestSwitchNegativeScoresStartScore(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rules *engine.Rules
		valid bool
	}{
		{nil, false},
		{rules(t, "negative_scores", true), true},
	}
	for _, tt := range tests {
		tb := base(t)
		tb.rec.Rules = tt.rules
		tb.rec.Scores = map[string]int{"bo": -3}
		tb.playOut()
		res := engine.CheckDeal(tb.rec)
		if res.Valid != tt.valid || tt.valid && res.Scores["bo"] != -3 {
			t.Errorf("CheckDeal(bo starts at -3, rules %v) = valid %v scores %v, want valid %v, bo -3", tt.rules, res.Valid, res.Scores, tt.valid)
		}
	}
}

// TestSwitchWinRequiresChicagoGameGoesOn: under win_requires_chicago a game
// whose only player at the target has won no Chicago goes on; it ends after
// the first deal with a Chicago winner, who wins.
func TestSwitchWinRequiresChicagoGameGoesOn(t *testing.T) {
	t.Parallel()
	reach := engine.Sheet{"cia": {"hand1": 52, "last_trick": 5}}
	chicago := engine.Sheet{"bo": {"hand1": 8, "hand2": 8, "chicago": 15}}
	tests := []struct {
		name     string
		lines    []engine.Sheet
		errs     []string
		gameOver bool
		winners  []string
	}{
		{"target without a Chicago: not finished", []engine.Sheet{reach}, []string{"game_not_finished@/deals"}, false, []string{}},
		{"the game went on to a Chicago", []engine.Sheet{reach, chicago}, nil, true, []string{"bo"}},
		{"nothing after that", []engine.Sheet{reach, chicago, reach}, []string{"deal_after_game_over@/deals/2"}, true, []string{"bo"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := game("anna bo cia dan")
			g.Rules = rules(t, "win_requires_chicago", true)
			for _, l := range tt.lines {
				g.AppendSheet(l)
			}
			res := engine.CheckGame(g, engine.GameOptions{})
			if got := gameCodes(res); !reflect.DeepEqual(got, tt.errs) || res.GameOver != tt.gameOver || !reflect.DeepEqual(res.Winners, tt.winners) {
				t.Errorf("CheckGame(%s) = errors %v game_over %v winners %v, want %v %v %v",
					tt.name, got, res.GameOver, res.Winners, tt.errs, tt.gameOver, tt.winners)
			}
		})
	}
}

// TestEndAtExactlyTarget: "52 or more" ends the game; one point less does not.
func TestEndAtExactlyTarget(t *testing.T) {
	t.Parallel()
	dan52 := engine.Sheet{"dan": {"hand1": 52}, "bo": {"last_trick": 5}}
	dan57 := engine.Sheet{"dan": {"hand1": 52, "last_trick": 5}}
	tests := []struct {
		name     string
		rules    *engine.Rules
		line     engine.Sheet
		gameOver bool
	}{
		{"exactly 52", nil, dan52, true},
		{"switch target 57: exactly 57", rules(t, "target", 57), dan57, true},
		{"switch target 53: one short", rules(t, "target", 53), dan52, false},
	}
	for _, tt := range tests {
		g := game("anna bo cia dan")
		g.Rules = tt.rules
		g.AppendSheet(tt.line)
		res := engine.CheckGame(g, engine.GameOptions{InProgress: true})
		if !res.Valid || res.GameOver != tt.gameOver {
			t.Errorf("CheckGame(%s) = valid %v game_over %v (scores %v), want valid, game_over %v",
				tt.name, res.Valid, res.GameOver, res.Scores, tt.gameOver)
		}
	}
}

// TestSwitchSuitOrderBestSuitOfTheRank: of the two cards of the deciding
// rank, the better suit counts (bo's 7c beats cia's 7h under chds although
// bo's other seven, 7s, is the lowest suit).
func TestSwitchSuitOrderBestSuitOfTheRank(t *testing.T) {
	t.Parallel()
	hands := map[string]string{
		"anna": "Ks Ts 9d 6d 5s", "bo": "7c 7s Kh 3s 2d", "cia": "7d 7h Kc 3h 2c", "dan": "As Qd 8h 6c 4h",
	}
	tb := newTable(t, "anna bo cia dan", "anna", hands, "")
	tb.rec.Rules = rules(t, "suit_order", "chds")
	tb.announce(0, "bo:pair cia:pair")
	tb.playOut()
	res := engine.CheckDeal(tb.rec)
	mustValid(t, res)
	if got := awards(res); len(got) == 0 || got[0] != "bo:hand1:1" {
		t.Errorf("CheckDeal(7c7s vs 7d7h under chds) awards = %v, want bo:hand1:1 first", got)
	}
}

// TestForfeiterCannotWin: a player who forfeited by a false announcement
// counts for reaching the target but cannot win, even with the highest total.
func TestForfeiterCannotWin(t *testing.T) {
	t.Parallel()
	tb := phaseTable(t)
	tb.rec.Scores = map[string]int{"cia": 50, "bo": 30}
	tb.announce(0, "cia:flush") // cia holds a pair of sevens: 55 after the bluff
	tb.playOut()
	res := engine.CheckDeal(tb.rec)
	mustValid(t, res)
	best, want := -1, []string{}
	for _, p := range []string{"anna", "bo", "dan"} { // seat order, cia left out
		switch s := res.Scores[p]; {
		case s > best:
			best, want = s, []string{p}
		case s == best:
			want = append(want, p)
		}
	}
	if res.Scores["cia"] <= best || !res.GameOver || !reflect.DeepEqual(res.Winners, want) {
		t.Errorf("CheckDeal(cia bluffs to the highest total) = scores %v game_over %v winners %v, want cia highest, game over, winners %v",
			res.Scores, res.GameOver, res.Winners, want)
	}
}

// TestSwitchFalseAnnouncementPenaltyNoForfeit: under penalty a false
// announcement is reported for a referee, and the game goes on as if
// nothing was forfeited.
func TestSwitchFalseAnnouncementPenaltyNoForfeit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rules    *engine.Rules
		forfeits []string
	}{
		{nil, []string{"cia"}},
		{rules(t, "false_announcement", "penalty"), []string{}},
	}
	for _, tt := range tests {
		tb := phaseTable(t)
		tb.announce(0, "cia:flush")
		tb.playOut()
		d := *tb.rec
		d.Rules, d.Players, d.Dealer, d.Scores = nil, nil, "", nil
		g := game("anna bo cia dan")
		g.Rules = tt.rules
		g.AppendDeal(&d)
		res := engine.CheckGame(g, engine.GameOptions{InProgress: true})
		if !res.Valid || !reflect.DeepEqual(res.Forfeits, tt.forfeits) {
			t.Errorf("CheckGame(cia bluffs, rules %v) = valid %v forfeits %v, want valid, %v", tt.rules, res.Valid, res.Forfeits, tt.forfeits)
		}
		if len(res.Violations) != 1 || res.Violations[0].Code != "false_announcement" {
			t.Errorf("CheckGame(cia bluffs, rules %v) violations = %+v, want one false_announcement", tt.rules, res.Violations)
		}
	}
}

// TestExchangeStopEmptyEntry: a stopped player listed with an empty
// exchange has not exchanged.
func TestExchangeStopEmptyEntry(t *testing.T) {
	t.Parallel()
	tb := phaseTable(t)
	tb.rec.Scores = map[string]int{"bo": 50}
	tb.exchange(0, "bo", "")
	tb.playOut()
	res := engine.CheckDeal(tb.rec)
	mustValid(t, res)
	if got := violations(res); got != nil {
		t.Errorf("CheckDeal(bo at 50 listed with an empty exchange) violations = %v, want none", got)
	}
}

// TestSwitchStockExhaustionForbidBoundary: under forbid an exchange may take
// the whole stock, but not one card more.
func TestSwitchStockExhaustionForbidBoundary(t *testing.T) {
	t.Parallel()
	tests := []struct {
		discards int
		want     bool // stock_exhausted
	}{
		{2, false},
		{3, true},
	}
	for _, tt := range tests {
		tb := base(t)
		tb.rec.Rules = rules(t, "stock_exhaustion", "forbid")
		exhaust(t, tb) // two cards left before dan's turn in round 2
		d := tb.hand["dan"][:tt.discards]
		draw := append([]engine.Card{}, tb.deck[tb.pos:]...)
		if tt.discards == 3 {
			draw = append(draw, cards(t, "7c")...) // from the pile
		}
		tb.pos = len(tb.deck)
		x := engine.Exchange{Player: "dan", Discard: append([]engine.Card{}, d...), Draw: draw, Reshuffled: tt.discards == 3}
		tb.replace("dan", x.Discard, draw)
		tb.rec.Exchanges[1] = append(tb.rec.Exchanges[1], x)
		tb.playOut()
		res := engine.CheckDeal(tb.rec)
		if got := hasProblem(res.Errors, "stock_exhausted", "/exchanges/1/2"); got != tt.want || res.Valid == tt.want {
			t.Errorf("CheckDeal(forbid, 2 in stock, dan takes %d) = stock_exhausted %v valid %v (errors %+v), want %v",
				tt.discards, got, res.Valid, res.Errors, tt.want)
		}
	}
}

// refKey is a naive poker key written from the rules text, independent of
// the evaluator: category, then the ranks ordered by how often they occur
// and then by rank, highest first; a straight by its top card, A-2-3-4-5
// counting as five high.
func refKey(h [5]engine.Card) []int {
	count := map[int]int{}
	suits := map[int]bool{}
	for _, c := range h {
		count[c.Rank()]++
		suits[c.Suit()] = true
	}
	ranks := make([]int, 0, 5)
	for r := range count {
		ranks = append(ranks, r)
	}
	for i := range ranks { // sort by (count, rank) descending
		for j := i + 1; j < len(ranks); j++ {
			a, b := ranks[i], ranks[j]
			if count[b] > count[a] || count[b] == count[a] && b > a {
				ranks[i], ranks[j] = b, a
			}
		}
	}
	flush := len(suits) == 1
	straightTop := -1
	if len(ranks) == 5 {
		switch {
		case ranks[0]-ranks[4] == 4:
			straightTop = ranks[0]
		case ranks[0] == engine.Ace && ranks[1] == engine.Five && ranks[4] == engine.Two:
			straightTop = engine.Five
		}
	}
	var cat engine.Category
	switch {
	case straightTop == engine.Ace && flush:
		cat = engine.RoyalStraightFlush
	case straightTop >= 0 && flush:
		cat = engine.StraightFlush
	case count[ranks[0]] == 4:
		cat = engine.FourOfAKind
	case count[ranks[0]] == 3 && count[ranks[1]] == 2:
		cat = engine.FullHouse
	case flush:
		cat = engine.Flush
	case straightTop >= 0:
		cat = engine.Straight
	case count[ranks[0]] == 3:
		cat = engine.ThreeOfAKind
	case count[ranks[0]] == 2 && count[ranks[1]] == 2:
		cat = engine.TwoPair
	case count[ranks[0]] == 2:
		cat = engine.Pair
	}
	if straightTop >= 0 {
		return []int{int(cat), straightTop}
	}
	return append([]int{int(cat)}, ranks...)
}

func refCompare(a, b [5]engine.Card) int {
	ka, kb := refKey(a), refKey(b)
	for i := 0; i < len(ka) && i < len(kb); i++ {
		switch {
		case ka[i] < kb[i]:
			return -1
		case ka[i] > kb[i]:
			return 1
		}
	}
	return 0
}

// TestCompareAgainstReference compares pairs of random hands (seeded, and
// biased to equal categories) with the naive reference key.
func TestCompareAgainstReference(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("200,000 pairs")
	}
	deck := engine.NewDeck()
	seed := uint64(12345)
	next := func(n int) int { // xorshift, deterministic
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		return int(seed % uint64(n))
	}
	deal := func() [5]engine.Card {
		for i := 0; i < 5; i++ {
			j := i + next(52-i)
			deck[i], deck[j] = deck[j], deck[i]
		}
		return [5]engine.Card{deck[0], deck[1], deck[2], deck[3], deck[4]}
	}
	bad := 0
	for i := 0; i < 200000 && bad < 5; i++ {
		a := deal()
		b := deal()
		for k := 0; k < 20 && engine.Evaluate(a).Category() != engine.Evaluate(b).Category(); k++ {
			b = deal()
		}
		if got, want := engine.Compare(a, b), refCompare(a, b); got != want {
			t.Errorf("Compare(%v, %v) = %d, want %d", a, b, got, want)
			bad++
		}
		if got, want := engine.Evaluate(a).Category(), engine.Category(refKey(a)[0]); got != want {
			t.Errorf("Evaluate(%v).Category() = %v, want %v", a, got, want)
			bad++
		}
	}
}

// TestChicagoLostInTheFirstTrick: the deal ends after the first trick the
// declarer does not win.
func TestChicagoLostInTheFirstTrick(t *testing.T) {
	t.Parallel()
	tb := lostTable(t, map[string]int{"bo": 20})
	tb.rec.Chicago = "bo"
	tb.trick("bo:3c cia:Qc dan:4c anna:2c")
	res := engine.CheckDeal(tb.rec)
	mustValid(t, res)
	if got := awards(res); !reflect.DeepEqual(got, []string{"bo:chicago:-15"}) || res.Ended != engine.EndedChicagoLost {
		t.Errorf("CheckDeal(bo loses trick 1) = awards %v ended %q, want [bo:chicago:-15] chicago_lost", got, res.Ended)
	}
}

// TestGameEndsWhenEveryoneForfeited: the game is over when a deal ends
// with anyone at the target (docs/game-rules.md), also when every player forfeited
// by false announcements; nobody can win then, so there is no winner.
func TestGameEndsWhenEveryoneForfeited(t *testing.T) {
	t.Parallel()
	tb := phaseTable(t)
	tb.rec.Scores = map[string]int{"cia": 55, "bo": 30}
	tb.announce(0, "bo:straight_flush cia:straight_flush dan:straight_flush anna:straight_flush") // nobody holds one
	tb.playOut()
	res := engine.CheckDeal(tb.rec)
	mustValid(t, res)
	if !res.GameOver || len(res.Winners) != 0 {
		t.Errorf("CheckDeal(everyone bluffs, cia at %d) = game_over %v winners %v, want game over without a winner",
			res.Scores["cia"], res.GameOver, res.Winners)
	}

	// In a game: everyone bluffs in the first deal, then cia reaches 52.
	tb = phaseTable(t)
	tb.announce(0, "bo:straight_flush cia:straight_flush dan:straight_flush anna:straight_flush")
	tb.playOut()
	g := game("anna bo cia dan")
	g.AppendDeal(tb.rec)
	g.AppendSheet(engine.Sheet{"cia": {"hand1": 52}, "bo": {"last_trick": 5}})
	gr := engine.CheckGame(g, engine.GameOptions{})
	if !gr.Valid || !gr.GameOver || len(gr.Winners) != 0 || len(gr.Forfeits) != 4 {
		t.Errorf("CheckGame(everyone forfeited, then cia at 52) = valid %v game_over %v winners %v forfeits %v (errors %+v), want a finished game without a winner",
			gr.Valid, gr.GameOver, gr.Winners, gr.Forfeits, gr.Errors)
	}
}
