package engine_test

import (
	"reflect"
	"testing"

	"github.com/revisor-sm/revisor/engine"
)

// chicagoTable deals the hands of example d04: bo holds aces full of kings
// and wins every trick when leading.
func chicagoTable(t testing.TB, scores map[string]int) *table {
	tb := newTable(t, "anna bo cia dan", "anna", map[string]string{
		"anna": "3s 4h Jc Td 2c",
		"bo":   "As Ah Ad Ks Kh",
		"cia":  "2s 3h 4c 8d 9d",
		"dan":  "7s 6h 5c Tc 6d",
	}, "")
	tb.rec.Scores = scores
	return tb
}

// lostTable deals the hands of example d03: bo wins two tricks, then cia's
// queen of clubs beats bo's three.
func lostTable(t testing.TB, scores map[string]int) *table {
	tb := newTable(t, "anna bo cia dan", "anna", map[string]string{
		"anna": "3s 4h Jh Td 2c",
		"bo":   "As Kh 3c 4d 5d",
		"cia":  "2s 2h Qc 8d 9d",
		"dan":  "7s 7h 4c 5c 6c",
	}, "")
	tb.rec.Scores = scores
	return tb
}

func TestChicagoWon(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		rules  *engine.Rules
		want   []string
		points int
	}{
		{"sm", nil, []string{"bo:hand1:6", "bo:hand2:6", "bo:chicago:15", "bo:hand3:6"}, 33},
		{"switch chicago_points", rules(t, "chicago_points", 20), []string{"bo:hand1:6", "bo:hand2:6", "bo:chicago:20", "bo:hand3:6"}, 38},
		{"switch chicago_stacks_last_trick", rules(t, "chicago_stacks_last_trick", true),
			[]string{"bo:hand1:6", "bo:hand2:6", "bo:last_trick:5", "bo:chicago:15", "bo:hand3:6"}, 38},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := chicagoTable(t, map[string]int{"bo": 12})
			tb.rec.Rules = tt.rules
			tb.announce(0, "bo:full_house")
			tb.announce(1, "bo:full_house")
			tb.rec.Chicago = "bo"
			tb.playOut()
			res := engine.CheckDeal(tb.rec)
			mustValid(t, res)
			if got := awards(res); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("awards = %v, want %v", got, tt.want)
			}
			if res.Points["bo"] != tt.points || res.Ended != engine.EndedComplete {
				t.Errorf("points[bo] = %d, ended %q, want %d, complete", res.Points["bo"], res.Ended, tt.points)
			}
		})
	}
}

func TestChicagoLost(t *testing.T) {
	t.Parallel()
	tests := []lostCase{
		{"sm", nil, map[string]int{"bo": 20}, 5},
		{"switch chicago_points", rules(t, "chicago_points", 10), map[string]int{"bo": 20}, 10},
	}
	testChicagoLost(t, tests)
}

// TestFloorAndSwitchNegativeScores: a lost Chicago takes bo from 3 to 0
// under the floor, to -12 with negative_scores.
func TestFloorAndSwitchNegativeScores(t *testing.T) {
	t.Parallel()
	testChicagoLost(t, []lostCase{
		{"floor at 0", rules(t, "chicago_min_score", 0), map[string]int{"bo": 3}, 0},
		{"switch negative_scores", rules(t, "negative_scores", true, "chicago_min_score", nil), map[string]int{"bo": 3}, -12},
	})
}

type lostCase struct {
	name   string
	rules  *engine.Rules
	scores map[string]int
	bo     int // bo's score after the deal
}

func testChicagoLost(t *testing.T, tests []lostCase) {
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := lostTable(t, tt.scores)
			tb.rec.Rules = tt.rules
			tb.rec.Chicago = "bo"
			tb.trick("bo:As cia:2s dan:7s anna:3s")
			tb.trick("bo:Kh cia:2h dan:7h anna:4h")
			tb.trick("bo:3c cia:Qc dan:4c anna:2c")
			res := engine.CheckDeal(tb.rec)
			mustValid(t, res)
			if res.Ended != engine.EndedChicagoLost || res.Scores["bo"] != tt.bo {
				t.Errorf("ended %q, scores[bo] = %d, want chicago_lost, %d", res.Ended, res.Scores["bo"], tt.bo)
			}
			last := res.Awards[len(res.Awards)-1]
			if last.Source != engine.SourceChicago || last.Player != "bo" {
				t.Errorf("last award %+v, want bo's chicago", last)
			}
			// No more cards are played after the Chicago is lost.
			tb.trick("cia:8d dan:5c anna:Td bo:4d")
			res = engine.CheckDeal(tb.rec)
			if !hasProblem(res.Errors, "play_after_deal_end", "/tricks/3") {
				t.Errorf("errors = %+v, want play_after_deal_end at /tricks/3", res.Errors)
			}
		})
	}
}

func TestChicagoDeclaration(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		rules    *engine.Rules
		scores   map[string]int
		declarer string
		code     string
	}{
		{"15 from phase points", nil, map[string]int{"bo": 3}, "bo", ""},
		{"14 may not", nil, map[string]int{"bo": 2}, "bo", "chicago_not_allowed"},
		{"switch chicago_min_score 30", rules(t, "chicago_min_score", 30), map[string]int{"bo": 17}, "bo", "chicago_not_allowed"},
		{"12 may not under sm", nil, nil, "bo", "chicago_not_allowed"},
		{"switch chicago_min_score null", rules(t, "negative_scores", true, "chicago_min_score", nil), nil, "bo", ""},
		{"stranger", nil, nil, "eve", "unknown_player"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := chicagoTable(t, tt.scores)
			tb.rec.Rules = tt.rules
			tb.announce(0, "bo:full_house")
			tb.announce(1, "bo:full_house")
			tb.rec.Chicago = tt.declarer
			tb.playOut()
			res := engine.CheckDeal(tb.rec)
			switch {
			case tt.code == "" && !res.Valid:
				t.Errorf("errors = %+v, want valid", res.Errors)
			case tt.code != "" && !hasProblem(res.Errors, tt.code, "/chicago"):
				t.Errorf("errors = %+v, want %s at /chicago", res.Errors, tt.code)
			}
		})
	}
}

func TestTricks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		edit func(tb *table)
		code string
		path string
	}{
		{"card not held", func(tb *table) { tb.rec.Tricks[0][1].Card = cards(t, "Ac")[0] }, "card_not_held", "/tricks/0/1/card"},
		{"out of turn", func(tb *table) {
			tr := tb.rec.Tricks[0]
			tr[1], tr[2] = tr[2], tr[1]
		}, "out_of_turn", "/tricks/0/1"},
		{"first lead not left of dealer", func(tb *table) {
			for i := range tb.rec.Tricks[0] {
				tb.rec.Tricks[0][i].Player = tb.players[i] // anna (the dealer) first
			}
		}, "out_of_turn", "/tricks/0/0"},
		{"four tricks", func(tb *table) { tb.rec.Tricks = tb.rec.Tricks[:4] }, "incomplete_deal", "/tricks"},
		{"three cards in the last trick", func(tb *table) { tb.rec.Tricks[4] = tb.rec.Tricks[4][:3] }, "incomplete_deal", "/tricks/4"},
		{"sixth trick", func(tb *table) { tb.rec.Tricks = append(tb.rec.Tricks, tb.rec.Tricks[4]) }, "invalid_record", "/tricks/5"},
		{"stranger", func(tb *table) { tb.rec.Tricks[2][0].Player = "eve" }, "unknown_player", "/tricks/2/0/player"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := base(t)
			tb.playOut()
			tt.edit(tb)
			res := engine.CheckDeal(tb.rec)
			if !hasProblem(res.Errors, tt.code, tt.path) {
				t.Errorf("errors = %+v, want %s at %s", res.Errors, tt.code, tt.path)
			}
		})
	}
}

func TestRevoke(t *testing.T) {
	t.Parallel()
	// dan holds 7s but plays 4c on bo's spade lead; the trick is still decided as played.
	tb := lostTable(t, nil)
	tb.trick("bo:As cia:2s dan:4c anna:3s")
	tb.trick("bo:Kh cia:2h dan:7h anna:4h")
	tb.trick("bo:3c cia:Qc dan:5c anna:2c")
	tb.playOut()
	res := engine.CheckDeal(tb.rec)
	mustValid(t, res)
	if got := violations(res); !reflect.DeepEqual(got, []string{"revoke:dan"}) {
		t.Fatalf("violations = %v, want [revoke:dan]", got)
	}
	if v := res.Violations[0]; v.Path != "/tricks/0/2" || v.Consequence != engine.Penalty {
		t.Errorf("violation %+v, want penalty at /tricks/0/2", v)
	}
}

func TestSwitchFirstLeadChicagoDeclarer(t *testing.T) {
	t.Parallel()
	// dan (not on the dealer's left) declares Chicago and leads under the switch.
	tb := newTable(t, "anna bo cia dan", "anna", map[string]string{
		"anna": "3s 4h Jc Td 2c",
		"bo":   "7s 6h 5c Tc 6d",
		"cia":  "2s 3h 4c 8d 9d",
		"dan":  "As Ah Ad Ks Kh",
	}, "")
	for _, lead := range []string{engine.LeadChicagoDeclarer, engine.LeadLeftOfDealer} {
		tb.rec.Rules = rules(t, "first_lead", lead)
		tb.rec.Scores = map[string]int{"dan": 40}
		tb.rec.Chicago = "dan"
		tb.rec.Tricks = nil
		tb.hand["dan"], tb.hand["bo"], tb.hand["cia"], tb.hand["anna"] = tb.rec.Hands["dan"], tb.rec.Hands["bo"], tb.rec.Hands["cia"], tb.rec.Hands["anna"]
		tb.leader = 3
		tb.playOut()
		res := engine.CheckDeal(tb.rec)
		if lead == engine.LeadChicagoDeclarer {
			mustValid(t, res)
			if res.Points["dan"] < 15 {
				t.Errorf("first_lead %s: points %v, want dan's Chicago", lead, res.Points)
			}
		} else if !hasProblem(res.Errors, "out_of_turn", "/tricks/0/0") {
			t.Errorf("first_lead %s: errors %+v, want out_of_turn at /tricks/0/0", lead, res.Errors)
		}
	}
}

func TestLastTrickAndShowdown(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		rules *engine.Rules
		want  []string
	}{
		{"sm", nil, []string{"dan:last_trick:5", "dan:hand3:1"}},
		{"switch last_trick_points", rules(t, "last_trick_points", 10), []string{"dan:last_trick:10", "dan:hand3:1"}},
		{"switch hand_points", rules(t, "hand_points", map[string]any{"pair": 3}), []string{"dan:last_trick:5", "dan:hand3:3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := base(t) // dan's pair of aces is the best final hand
			tb.rec.Rules = tt.rules
			tb.playOut()
			res := engine.CheckDeal(tb.rec)
			mustValid(t, res)
			if got := awards(res); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("awards = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSwitchQuadsResetOpponents(t *testing.T) {
	t.Parallel()
	hands := map[string]string{
		"anna": "3s 4h Jc Td 2c", "bo": "As Ah Ad Ac Kh", "cia": "2s 3h 4c 8d 9d", "dan": "7s 6h 5c Tc 6d",
	}
	for _, on := range []bool{false, true} {
		tb := newTable(t, "anna bo cia dan", "anna", hands, "")
		tb.rec.Rules = rules(t, "quads_reset_opponents", on)
		tb.rec.Scores = map[string]int{"anna": 30, "cia": 20, "dan": 10}
		tb.announce(0, "bo:four_of_a_kind")
		tb.playOut()
		res := engine.CheckDeal(tb.rec)
		mustValid(t, res)
		want := map[string]int{"anna": 30, "cia": 20, "dan": 10}
		if on {
			want = map[string]int{"anna": 0, "cia": 0, "dan": 0}
		}
		for p, w := range want {
			if res.Scores[p] != w {
				t.Errorf("quads_reset_opponents %v: scores = %v, want %s at %d", on, res.Scores, p, w)
			}
		}
	}
}

func TestSwitchRoyalInstantWin(t *testing.T) {
	t.Parallel()
	hands := map[string]string{
		"anna": "3s 4h Jc Td 2c", "bo": "Ah Kh Qh Jh Th", "cia": "2s 3h 4c 8d 9d", "dan": "7s 6h 5c Tc 6d",
	}
	tests := []struct {
		on       bool
		gameOver bool
		winners  []string
	}{
		{false, false, []string{}},
		{true, true, []string{"bo"}},
	}
	// Under sm the royal's 52 points in the final showdown reach the target
	// anyway: bo wins with or without the switch, although anna has 45.
	for _, tt := range tests {
		tb := newTable(t, "anna bo cia dan", "anna", hands, "")
		tb.rec.Rules = rules(t, "royal_instant_win", tt.on)
		tb.rec.Scores = map[string]int{"anna": 45}
		tb.announce(0, "bo:pair") // a lower claim scores a pair, not the royal
		tb.playOut()
		res := engine.CheckDeal(tb.rec)
		mustValid(t, res)
		if !res.GameOver || !reflect.DeepEqual(res.Winners, []string{"bo"}) {
			t.Errorf("royal_instant_win %v: game_over %v winners %v, want true [bo]", tt.on, res.GameOver, res.Winners)
		}
	}
	// Target 200: only the instant win ends the game.
	for _, tt := range tests {
		tb := newTable(t, "anna bo cia dan", "anna", hands, "")
		tb.rec.Rules = rules(t, "royal_instant_win", tt.on, "target", 200)
		tb.playOut()
		res := engine.CheckDeal(tb.rec)
		mustValid(t, res)
		if res.GameOver != tt.gameOver || !reflect.DeepEqual(res.Winners, tt.winners) {
			t.Errorf("royal_instant_win %v, target 200: game_over %v winners %v, want %v %v",
				tt.on, res.GameOver, res.Winners, tt.gameOver, tt.winners)
		}
	}
}

func TestEndOfGame(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		rules    *engine.Rules
		scores   map[string]int
		chicago  bool
		gameOver bool
		winners  []string
	}{
		{"below target", nil, map[string]int{"bo": 10}, false, false, []string{}},
		{"reaches 52", nil, map[string]int{"bo": 30}, false, true, []string{"bo"}},
		{"switch target", rules(t, "target", 100), map[string]int{"bo": 30}, false, false, []string{}},
		{"highest total wins, not the one who reached it", nil, map[string]int{"bo": 30, "cia": 70}, false, true, []string{"cia"}},
		{"switch win_requires_chicago without Chicago", rules(t, "win_requires_chicago", true), map[string]int{"bo": 30}, false, false, []string{}},
		{"switch win_requires_chicago with Chicago", rules(t, "win_requires_chicago", true), map[string]int{"bo": 30, "cia": 70}, true, true, []string{"bo"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := chicagoTable(t, tt.scores)
			tb.rec.Rules = tt.rules
			tb.announce(0, "bo:full_house")
			tb.announce(1, "bo:full_house")
			if tt.chicago {
				tb.rec.Chicago = "bo"
			}
			tb.playOut()
			res := engine.CheckDeal(tb.rec)
			mustValid(t, res)
			if res.GameOver != tt.gameOver || !reflect.DeepEqual(res.Winners, tt.winners) {
				t.Errorf("game_over %v winners %v (scores %v), want %v %v", res.GameOver, res.Winners, res.Scores, tt.gameOver, tt.winners)
			}
		})
	}
}

func TestSwitchPlayers(t *testing.T) {
	t.Parallel()
	hands := map[string]string{"anna": "3s 4h Jc Td 2c", "bo": "As Ah Ad Ks Kh"}
	tests := []struct {
		rules *engine.Rules
		valid bool
	}{
		{nil, false},
		{rules(t, "players", "2-4"), true},
		{rules(t, "players", 2), true},
		{rules(t, "players", 4), false},
	}
	for _, tt := range tests {
		tb := newTable(t, "anna bo", "anna", hands, "")
		tb.rec.Rules = tt.rules
		tb.playOut()
		res := engine.CheckDeal(tb.rec)
		if res.Valid != tt.valid || !tt.valid && !hasProblem(res.Errors, "invalid_players", "/players") {
			t.Errorf("two players under %v: valid %v errors %+v, want valid %v", tt.rules, res.Valid, res.Errors, tt.valid)
		}
	}
}
