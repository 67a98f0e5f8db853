package engine_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/revisor-sm/revisor/engine"
)

func decodeProblems(t *testing.T, game bool, in string) (*engine.DecodeError, bool) {
	t.Helper()
	var err error
	if game {
		_, err = engine.DecodeGame([]byte(in))
	} else {
		_, err = engine.DecodeDeal([]byte(in))
	}
	var de *engine.DecodeError
	if err != nil && !errors.As(err, &de) {
		t.Fatalf("error %T, want *DecodeError", err)
	}
	return de, err != nil
}

func TestDecodeDealProblems(t *testing.T) {
	t.Parallel()
	const ok = `{"players":["a","b","c"],"dealer":"a","hands":{},"exchanges":[[],[],[]],"announcements":[[],[]],"tricks":[]}`
	tests := []struct {
		name, in   string
		code, path string
	}{
		{"not JSON", `{"players":`, "invalid_record", ""},
		{"trailing data", ok + `x`, "invalid_record", ""},
		{"array at root", `[]`, "invalid_record", ""},
		{"players not a list", `{"players":"a","dealer":"a","hands":{},"exchanges":[],"announcements":[],"tricks":[]}`, "invalid_record", "/players"},
		{"player id a number", `{"players":["a",2],"dealer":"a","hands":{},"exchanges":[],"announcements":[],"tricks":[]}`, "invalid_record", "/players/1"},
		{"missing tricks", `{"players":["a"],"dealer":"a","hands":{},"exchanges":[],"announcements":[]}`, "invalid_record", ""},
		{"card a number", `{"players":["a"],"dealer":"a","hands":{"a":[5]},"exchanges":[],"announcements":[],"tricks":[]}`, "invalid_record", "/hands/a/0"},
		{"bad card", `{"players":["a"],"dealer":"a","hands":{"a":["Xx"]},"exchanges":[],"announcements":[],"tricks":[]}`, "invalid_card", "/hands/a/0"},
		{"key with slash", `{"players":["a"],"dealer":"a","hands":{"a/b~":["Xx"]},"exchanges":[],"announcements":[],"tricks":[]}`, "invalid_card", "/hands/a~1b~0/0"},
		{"exchange not an object", `{"players":["a"],"dealer":"a","hands":{},"exchanges":[[1]],"announcements":[],"tricks":[]}`, "invalid_record", "/exchanges/0/0"},
		{"open card taken not bool", `{"players":["a"],"dealer":"a","hands":{},"exchanges":[[{"player":"a","discard":["2c"],"draw":["3c"],"open":{"card":"3c","taken":"yes"}}]],"announcements":[],"tricks":[]}`, "invalid_record", "/exchanges/0/0/open/taken"},
		{"announce a number", `{"players":["a"],"dealer":"a","hands":{},"exchanges":[],"announcements":[[{"player":"a","announce":1}]],"tricks":[]}`, "invalid_record", "/announcements/0/0/announce"},
		{"trick card missing", `{"players":["a"],"dealer":"a","hands":{},"exchanges":[],"announcements":[],"tricks":[[{"player":"a"}]]}`, "invalid_record", "/tricks/0/0"},
		{"score not whole", `{"players":["a"],"dealer":"a","scores":{"a":1.5},"hands":{},"exchanges":[],"announcements":[],"tricks":[]}`, "invalid_record", "/scores/a"},
		{"unknown preset", `{"rules":{"preset":"house"},"players":["a"],"dealer":"a","hands":{},"exchanges":[],"announcements":[],"tricks":[]}`, "unknown_rule", "/rules/preset"},
		{"unknown switch", `{"rules":{"preset":"sm","overrides":{"jokers":true}},"players":["a"],"dealer":"a","hands":{},"exchanges":[],"announcements":[],"tricks":[]}`, "unknown_rule", "/rules/overrides/jokers"},
		{"unknown value", `{"rules":{"overrides":{"first_lead":"dealer"}},"players":["a"],"dealer":"a","hands":{},"exchanges":[],"announcements":[],"tricks":[]}`, "unknown_rule", "/rules/overrides/first_lead"},
		{"switch of wrong type", `{"rules":{"overrides":{"target":"52"}},"players":["a"],"dealer":"a","hands":{},"exchanges":[],"announcements":[],"tricks":[]}`, "invalid_record", "/rules/overrides/target"},
		{"unknown hand_points category", `{"rules":{"overrides":{"hand_points":{"high_card":1}}},"players":["a"],"dealer":"a","hands":{},"exchanges":[],"announcements":[],"tricks":[]}`, "unknown_rule", "/rules/overrides/hand_points/high_card"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			de, failed := decodeProblems(t, false, tt.in)
			if !failed {
				t.Fatalf("DecodeDeal(%s) = ok, want %s at %q", tt.in, tt.code, tt.path)
			}
			if !hasProblem(de.Problems, tt.code, tt.path) {
				t.Errorf("DecodeDeal(%s) = %+v, want %s at %q", tt.in, de.Problems, tt.code, tt.path)
			}
		})
	}
	if _, failed := decodeProblems(t, false, ok); failed {
		t.Errorf("DecodeDeal(%s) failed, want ok", ok)
	}
}

func TestDecodeReportsAllProblems(t *testing.T) {
	t.Parallel()
	in := `{"players":["a","b","c"],"dealer":7,"hands":{"a":["Zz","2c"]},"exchanges":[[],[],[]],"announcements":[[],[]],"tricks":[[{"player":"a","card":"1x"}]]}`
	de, _ := decodeProblems(t, false, in)
	var got []string
	for _, p := range de.Problems {
		got = append(got, p.Code+"@"+p.Path)
	}
	want := []string{"invalid_record@/dealer", "invalid_card@/hands/a/0", "invalid_card@/tricks/0/0/card"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems = %v, want %v", got, want)
	}
}

func TestDecodeGameProblems(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in   string
		code, path string
	}{
		{"deals not a list", `{"players":["a","b","c"],"first_dealer":"a","deals":{}}`, "invalid_record", "/deals"},
		{"sheet points not numbers", `{"players":["a","b","c"],"first_dealer":"a","deals":[{"sheet":{"a":{"hand1":"2"}}}]}`, "invalid_record", "/deals/0/sheet/a/hand1"},
		{"sheet line not an object", `{"players":["a","b","c"],"first_dealer":"a","deals":[{"sheet":{"a":2}}]}`, "invalid_record", "/deals/0/sheet/a"},
		{"bad card in a full deal", `{"players":["a","b","c"],"first_dealer":"a","deals":[{"hands":{"a":["Qx"]},"exchanges":[],"announcements":[],"tricks":[]}]}`, "invalid_card", "/deals/0/hands/a/0"},
		{"ended_by a number", `{"players":["a"],"first_dealer":"a","deals":[],"ended_by":1}`, "invalid_record", "/ended_by"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			de, failed := decodeProblems(t, true, tt.in)
			if !failed || !hasProblem(de.Problems, tt.code, tt.path) {
				t.Errorf("DecodeGame(%s) = %+v, want %s at %q", tt.in, de, tt.code, tt.path)
			}
		})
	}
}

// TestRecordJSONRoundTrip marshals decoded example records and decodes them
// again: the engine's own JSON reads back to the same record.
func TestRecordJSONRoundTrip(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join("testdata", "examples", "*.json"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var ex example
		if err := json.Unmarshal(data, &ex); err != nil {
			t.Fatal(err)
		}
		var a, b any
		if ex.Kind == "deal" {
			a = new(engine.DealRecord)
			b = new(engine.DealRecord)
		} else {
			a = new(engine.GameRecord)
			b = new(engine.GameRecord)
		}
		if err := json.Unmarshal(ex.Record, a); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out, err := json.Marshal(a)
		if err != nil {
			t.Fatalf("%s: Marshal: %v", f, err)
		}
		if err := json.Unmarshal(out, b); err != nil {
			t.Fatalf("%s: re-decode %s: %v", f, out, err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: round trip differs:\n%+v\n%+v", f, a, b)
		}
	}
}

func TestRules(t *testing.T) {
	t.Parallel()
	r, err := engine.ParseRules([]byte(`{"preset":"sm","overrides":{"players":"2-4","first_lead":"chicago_declarer",
		"negative_scores":true,"chicago_min_score":null,"chicago_points":20,"chicago_stacks_last_trick":true,
		"last_trick_points":10,"exchange_stop":null,"open_card":"off","stock_exhaustion":"forbid",
		"quads_reset_opponents":true,"win_requires_chicago":true,"suit_order":"shdc","royal_instant_win":true,
		"hand_points":{"pair":2,"royal_straight_flush":100},"target":100,"false_announcement":"penalty"}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := engine.SM()
	want.MinPlayers, want.MaxPlayers = 2, 4
	want.FirstLead = engine.LeadChicagoDeclarer
	want.NegativeScores = true
	want.ChicagoMinScore = engine.NullInt{Null: true}
	want.ChicagoPoints = 20
	want.ChicagoStacksLastTrick = true
	want.LastTrickPoints = 10
	want.ExchangeStop = engine.NullInt{Null: true}
	want.OpenCard = engine.OpenCardOff
	want.StockExhaustion = engine.StockForbid
	want.QuadsResetOpponents = true
	want.WinRequiresChicago = true
	want.SuitOrder = "shdc"
	want.RoyalInstantWin = true
	want.HandPoints[engine.Pair] = 2
	want.HandPoints[engine.RoyalStraightFlush] = 100
	want.Target = 100
	want.FalseAnnouncement = engine.Penalty
	if r != want {
		t.Errorf("ParseRules = %+v, want %+v", r, want)
	}
	// MarshalJSON writes the overrides back.
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := engine.ParseRules(b)
	if err != nil || r2 != r {
		t.Errorf("ParseRules(Marshal(r)) = %+v, %v, want %+v", r2, err, r)
	}
	if p, err := engine.Preset("sm"); err != nil || p != engine.SM() {
		t.Errorf(`Preset("sm") = %+v, %v`, p, err)
	}
	if _, err := engine.Preset("bridge"); err == nil {
		t.Errorf(`Preset("bridge") = nil error, want unknown_rule`)
	}
	if _, err := engine.SM().Override("players", 5); err == nil {
		t.Errorf(`Override("players", 5) = nil error`)
	}
}

// TestEmptyRecordsRoundTrip: records with nil lists marshal to JSON that
// decodes again.
func TestEmptyRecordsRoundTrip(t *testing.T) {
	t.Parallel()
	d := &engine.DealRecord{Players: []string{"a", "b", "c"}, Dealer: "a",
		Exchanges: [][]engine.Exchange{{{Player: "b"}}, nil, nil}}
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := engine.DecodeDeal(data); err != nil {
		t.Errorf("DecodeDeal(Marshal(%+v)) = %v (%s)", d, err, data)
	}
	g := &engine.GameRecord{FirstDealer: "a"}
	data, err = json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := engine.DecodeGame(data); err != nil {
		t.Errorf("DecodeGame(Marshal(%+v)) = %v (%s)", g, err, data)
	}
}

func TestCheckNil(t *testing.T) {
	t.Parallel()
	if res := engine.CheckDeal(nil); res.Valid || len(res.Errors) != 1 || res.Errors[0].Code != "invalid_record" {
		t.Errorf("CheckDeal(nil) = %+v, want invalid_record", res)
	}
	if res := engine.CheckGame(nil, engine.GameOptions{}); res.Valid || len(res.Errors) != 1 {
		t.Errorf("CheckGame(nil) = %+v, want invalid_record", res)
	}
}
