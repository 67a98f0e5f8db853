package engine_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/sim"
)

// jsonFieldCount returns the number of fields of typ that encoding/json
// writes (those not tagged "-").
func jsonFieldCount(typ reflect.Type) int {
	n := 0
	for i := range typ.NumField() {
		if typ.Field(i).Tag.Get("json") != "-" {
			n++
		}
	}
	return n
}

// TestResultJSONMatchesMarshal: AppendJSON writes byte for byte what
// json.Marshal writes, for clean, violating, invalid and
// undecodable records, deals and games, and for awkward strings.
func TestResultJSONMatchesMarshal(t *testing.T) {
	t.Parallel()
	for typ, n := range map[reflect.Type]int{
		reflect.TypeFor[engine.DealResult](): 9, reflect.TypeFor[engine.GameResult](): 10,
		reflect.TypeFor[engine.Problem](): 4, reflect.TypeFor[engine.Violation](): 5,
		reflect.TypeFor[engine.Award](): 4, reflect.TypeFor[engine.Placement](): 3,
	} {
		if got := jsonFieldCount(typ); got != n {
			t.Errorf("%v has %d JSON fields, result_json.go writes %d: update it", typ, got, n)
		}
	}
	check := func(name string, res any) {
		t.Helper()
		want, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		var got []byte
		switch r := res.(type) {
		case *engine.DealResult:
			got = r.AppendJSON(nil)
		case *engine.GameResult:
			got = r.AppendJSON(nil)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: appended JSON\n%s\nwant\n%s", name, got, want)
		}
	}
	opt := sim.DefaultOptions()
	opt.Revoke, opt.Bluff, opt.UnshownBreak = 0.1, 0.05, 0.5
	s := sim.NewWithOptions(4, engine.SM(), opt)
	players := sim.Players(4)
	for i := 0; i < 50; i++ {
		d := s.Deal(players, players[i%4], s.Scores(players, 50))
		check(fmt.Sprintf("deal %d", i), engine.CheckDeal(d))
		d.Tricks[0][0].Card, d.Exchanges[0] = d.Tricks[0][1].Card, nil
		check(fmt.Sprintf("broken deal %d", i), engine.CheckDeal(d))
	}
	for i := 0; i < 3; i++ {
		g := s.Game(players, "p3")
		check(fmt.Sprintf("game %d", i), engine.CheckGame(g, engine.GameOptions{}))
		check(fmt.Sprintf("sheet game %d", i), engine.CheckGame(s.SheetsOf(g, 0.5), engine.GameOptions{}))
		g.Deals = g.Deals[:len(g.Deals)/2]
		check(fmt.Sprintf("unfinished game %d", i), engine.CheckGame(g, engine.GameOptions{}))
	}
	odd := []string{"a<b>&c", "quote\"back\\slash", "ctl\x01\x1f\b\f\n\r\t", "bad\xffutf8", "sep\u2028\u2029", "åäö ♠"}
	d := &engine.DealRecord{Players: odd[:4], Dealer: "nobody", Scores: map[string]int{odd[4]: 3, odd[5]: -2}}
	check("odd names", engine.CheckDeal(d))
	d.Dealer = odd[0]
	check("odd names, dealt", engine.CheckDeal(d))
	g := &engine.GameRecord{Players: odd[:3], FirstDealer: odd[1], Deals: []engine.GameDeal{{Sheet: engine.Sheet{odd[2]: {"last_trick": 5, odd[5]: 1}}}}}
	check("odd game", engine.CheckGame(g, engine.GameOptions{}))
	many := &engine.GameRecord{Players: players, FirstDealer: "nobody"}
	for range engine.MaxGameDeals {
		many.Deals = append(many.Deals, engine.GameDeal{Sheet: engine.Sheet{"x": {"hand1": 1}}})
	}
	many.FirstDealer = players[0]
	check("game with omitted errors", engine.CheckGame(many, engine.GameOptions{}))
	for _, in := range []string{"nope", `{"players": 1}`, `{"players":["a","b","c"],"dealer":"a","hands":{"a":["Xx", "<&>"]}}`} {
		_, err := engine.DecodeDeal([]byte(in))
		var de *engine.DecodeError
		if !errors.As(err, &de) {
			t.Fatalf("DecodeDeal(%q) = %v, want a DecodeError", in, err)
		}
		check("decode "+in, de.DealResult())
		check("decode game "+in, de.GameResult())
	}
}
