package bridge_test

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/engine/bridge"
)

var four = []string{"anna", "bo", "cia", "dan"}

// record builds a match from deals written "dealer: calls = tricks" (the
// dealer and "= tricks" may be left out).
func record(t testing.TB, game string, players []string, deals ...string) *bridge.Record {
	t.Helper()
	rec := &bridge.Record{Game: game, Players: players, FirstDealer: players[0]}
	for _, s := range deals {
		d := bridge.Deal{Tricks: bridge.NoTricks}
		if name, rest, ok := strings.Cut(s, ":"); ok {
			d.Dealer, s = name, rest
		}
		if cs, tr, ok := strings.Cut(s, "="); ok {
			n, err := strconv.Atoi(strings.TrimSpace(tr))
			if err != nil {
				t.Fatal(err)
			}
			d.Tricks, s = n, cs
		}
		d.Auction = calls(t, s)
		rec.Deals = append(rec.Deals, d)
	}
	return rec
}

type dealWant struct {
	number     int
	vulnerable [2]bool
	points     [2]int
	game, part int
}

func checkDeals(t *testing.T, name string, res *bridge.Result, want []dealWant) {
	t.Helper()
	if !res.Valid {
		t.Fatalf("%s: not valid: %v", name, res.Errors)
	}
	if len(res.Deals) != len(want) {
		t.Fatalf("%s: %d deals, want %d", name, len(res.Deals), len(want))
	}
	for i, w := range want {
		d := res.Deals[i]
		got := dealWant{d.Number, d.Vulnerable, d.Points, d.GameBonus + d.RubberBonus, d.PartscoreBonus}
		if d.PassedOut {
			got = dealWant{}
		}
		if got != w {
			t.Errorf("%s: deal %d = %+v, want %+v", name, i, got, w)
		}
	}
}

func TestChicagoVulnerability(t *testing.T) {
	t.Parallel()
	none, ns, ew, both := [2]bool{}, [2]bool{true, false}, [2]bool{false, true}, [2]bool{true, true}
	deals := []string{"1C P P P = 6", "1C P P P = 6", "P P P P", "1C P P P = 6", "1C P P P = 6"}
	res := bridge.Check(record(t, bridge.GameChicago, four, deals...))
	// anna (ns) deals 1, bo (ew) deals 2, cia (ns) deals the passed-out
	// deal and again deal 3, dan deals 4. Every contract goes one down.
	checkDeals(t, "dealer", res, []dealWant{
		{1, none, [2]int{0, 50}, 0, 0}, {2, ew, [2]int{100, 0}, 0, 0}, {}, {3, ns, [2]int{0, 100}, 0, 0}, {4, both, [2]int{100, 0}, 0, 0},
	})
	rec := record(t, bridge.GameChicago, four, deals...)
	rec.Rules.Vulnerability = bridge.VulNonDealer
	checkDeals(t, "non_dealer", bridge.Check(rec), []dealWant{
		{1, none, [2]int{0, 50}, 0, 0}, {2, ns, [2]int{50, 0}, 0, 0}, {}, {3, ew, [2]int{0, 50}, 0, 0}, {4, both, [2]int{100, 0}, 0, 0},
	})
	if res.Deals[3].Declarer != "cia" || res.Totals != [2]int{200, 150} || !res.Complete || res.Winner != "ns" {
		t.Errorf("deal 3 declarer %q, totals %v, complete %v, winner %q", res.Deals[3].Declarer, res.Totals, res.Complete, res.Winner)
	}
}

func TestChicagoPartscores(t *testing.T) {
	t.Parallel()
	// 2S by anna (60), 1D by bo (20), 2D by cia: 60+40 = 100, game for ns
	// on deal 3 (ns vulnerable: 500), bo's 20 is wiped out; then 1NT by dan
	// on deal 4: a partscore, +100.
	res := bridge.Check(record(t, bridge.GameChicago, four,
		"2S P P P = 8", "1D P P P = 7", "2D P P P = 8", "1NT P P P = 7"))
	checkDeals(t, "carried", res, []dealWant{
		{1, [2]bool{}, [2]int{60, 0}, 0, 0},
		{2, [2]bool{false, true}, [2]int{0, 20}, 0, 0},
		{3, [2]bool{true, false}, [2]int{540, 0}, 500, 0},
		{4, [2]bool{true, true}, [2]int{0, 140}, 0, 100},
	})
	// A fourth-deal contract that completes a game earns the game bonus,
	// not the partscore bonus; one that goes down earns nothing.
	res = bridge.Check(record(t, bridge.GameChicago, four,
		"P P P P", "1C P P P = 5", "1C P P P = 5", "2D P P P = 8", "P 2H P P P = 8"))
	checkDeals(t, "game on 4", res, []dealWant{
		{}, {1, [2]bool{}, [2]int{0, 100}, 0, 0}, {2, [2]bool{false, true}, [2]int{200, 0}, 0, 0},
		{3, [2]bool{true, false}, [2]int{40, 0}, 0, 0}, {4, [2]bool{true, true}, [2]int{560, 0}, 500, 0},
	})
	res = bridge.Check(record(t, bridge.GameChicago, four,
		"1C P P P = 5", "1C P P P = 5", "1C P P P = 5", "P 3NT P P P = 8"))
	if d := res.Deals[3]; d.PartscoreBonus != 0 || d.Points != [2]int{0, 100} {
		t.Errorf("3NT down 1 on deal 4 = %+v", d)
	}
}

func TestChicagoEnds(t *testing.T) {
	t.Parallel()
	two := []string{"1NT P P P = 8", "2H P P P = 8"}
	res := bridge.Check(record(t, bridge.GameChicago, four, two...))
	if res.Complete || res.Winner != "" || res.Drawn || res.Totals != [2]int{70, 60} {
		t.Errorf("in progress: complete %v winner %q drawn %v totals %v", res.Complete, res.Winner, res.Drawn, res.Totals)
	}
	rec := record(t, bridge.GameChicago, four, two...)
	rec.EndedByTime = true
	res = bridge.Check(rec)
	if res.Complete || res.Winner != "ns" || res.Totals != [2]int{70, 60} {
		t.Errorf("by time: complete %v winner %q totals %v", res.Complete, res.Winner, res.Totals)
	}
	// ew 100 (down 2), ns 100, ew 100, ns 100 (down 1 vulnerable).
	rec = record(t, bridge.GameChicago, four, "1C P P P = 5", "P P P P", "1C P P P = 6", "1C P P P = 6", "1C P P P = 6")
	res = bridge.Check(rec)
	if !res.Complete || res.Winner != "" || !res.Drawn || res.Totals[0] != res.Totals[1] {
		t.Errorf("drawn: complete %v winner %q drawn %v totals %v", res.Complete, res.Winner, res.Drawn, res.Totals)
	}
	rec.Deals = append(rec.Deals, rec.Deals[0])
	res = bridge.Check(rec)
	if res.Valid || len(res.Errors) != 1 || res.Errors[0].Code != bridge.CodeTooManyDeals || res.Errors[0].Path != "/deals/5" {
		t.Errorf("a fifth deal: %+v", res.Errors)
	}
}

func TestDrawBridge(t *testing.T) {
	t.Parallel()
	two := []string{"anna", "bo"}
	// anna deals 1 (thrown in), bo deals 2: 1NT by bo +1; anna deals 3:
	// 4S by anna, game; bo deals 4: 2H by bo, 60 below.
	deals := []string{"P P", "1NT P = 8", "4S P = 10", "2H P = 8"}
	res := bridge.Check(record(t, bridge.GameDraw, two, deals...))
	checkDeals(t, "draw", res, []dealWant{
		{}, {1, [2]bool{}, [2]int{0, 70}, 0, 0}, {2, [2]bool{}, [2]int{120, 0}, 0, 0}, {3, [2]bool{true, false}, [2]int{0, 60}, 0, 0},
	})
	if res.Complete || res.Winner != "" || res.UnfinishedBonus != [2]int{} || res.Games != [2]int{1, 0} {
		t.Errorf("in progress: %+v", res)
	}
	rec := record(t, bridge.GameDraw, two, deals...)
	rec.EndedByTime = true
	res = bridge.Check(rec)
	// anna: one game (300); bo: a partscore in the unfinished game (100),
	// which anna's game wiped out of bo's 40 on deal 2.
	if res.UnfinishedBonus != [2]int{300, 100} || res.Totals != [2]int{420, 230} || res.Winner != "anna" || res.Complete {
		t.Errorf("cut short: bonus %v totals %v winner %q complete %v", res.UnfinishedBonus, res.Totals, res.Winner, res.Complete)
	}
	// 700 for two games to none; a deal after the rubber is too many.
	rec = record(t, bridge.GameDraw, two, "3NT P = 9", "P P", "3NT X P = 9", "1C P = 7")
	res = bridge.Check(rec)
	if res.Valid || len(res.Errors) != 1 || res.Errors[0].Code != bridge.CodeTooManyDeals || res.Errors[0].Path != "/deals/3" {
		t.Fatalf("after the rubber: %+v", res.Errors)
	}
	rec.Deals = rec.Deals[:3]
	res = bridge.Check(rec)
	if d := res.Deals[2]; !res.Valid || d.Declarer != "anna" || d.RubberBonus != 700 || d.Points[0] != 200+50+700 {
		t.Errorf("rubber 2-0: %+v (errors %v)", d, res.Errors)
	}
}

// TestRecordErrors checks that each mistake is found, with its path, and
// that one record reports several.
func TestRecordErrors(t *testing.T) {
	t.Parallel()
	type problem struct{ code, path string }
	for _, tc := range []struct {
		name string
		edit func(*bridge.Record)
		want []problem
	}{
		{"unknown game", func(r *bridge.Record) { r.Game = "bridge" }, []problem{{bridge.CodeUnknownGame, "/game"}}},
		{"three players", func(r *bridge.Record) { r.Players = r.Players[:3] }, []problem{{bridge.CodeInvalidPlayers, "/players"}}},
		{"same name twice", func(r *bridge.Record) { r.Players = []string{"anna", "bo", "anna", ""} },
			[]problem{{bridge.CodeInvalidPlayers, "/players/2"}, {bridge.CodeInvalidPlayers, "/players/3"}}},
		{"first dealer", func(r *bridge.Record) { r.FirstDealer = "eve" }, []problem{{bridge.CodeUnknownPlayer, "/first_dealer"}}},
		{"rule", func(r *bridge.Record) { r.Rules.Vulnerability = "both" }, []problem{{bridge.CodeInvalidRecord, "/rules/vulnerability"}}},
		{"dealers", func(r *bridge.Record) { r.Deals[0].Dealer, r.Deals[2].Dealer = "bo", "eve" },
			[]problem{{bridge.CodeWrongDealer, "/deals/0/dealer"}, {bridge.CodeUnknownPlayer, "/deals/2/dealer"}}},
		{"tricks", func(r *bridge.Record) {
			r.Deals[0].Tricks, r.Deals[1].Tricks, r.Deals[2].Tricks = 14, 3, bridge.NoTricks
		},
			[]problem{{bridge.CodeInvalidTricks, "/deals/0/tricks"}, {bridge.CodeInvalidTricks, "/deals/1/tricks"}, {bridge.CodeInvalidTricks, "/deals/2/tricks"}}},
		{"auctions", func(r *bridge.Record) {
			r.Deals[0].Auction = r.Deals[0].Auction[:3]
			r.Deals[3].Auction = append(r.Deals[3].Auction, bridge.Pass)
		}, []problem{{bridge.CodeAuctionOpen, "/deals/0/auction"}, {bridge.CodeCallAfterEnd, "/deals/3/auction/6"}}},
	} {
		rec := record(t, bridge.GameChicago, append([]string(nil), four...),
			"anna: 1NT P 3NT P P P = 10", "bo: P P P P", "bo: 1S X XX P P P = 7", "cia: 1H P 4H P P P = 9")
		tc.edit(rec)
		res := bridge.Check(rec)
		var got []problem
		for _, p := range res.Errors {
			got = append(got, problem{p.Code, p.Path})
		}
		if res.Valid || !reflect.DeepEqual(got, tc.want) || res.Deals != nil {
			t.Errorf("%s: valid %v, errors %v, want %v", tc.name, res.Valid, got, tc.want)
		}
	}
}
