package engine_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/engine"
)

// TestProblemLocationsMatchPaths checks, over thousands of broken records
// made from the examples and the fuzz seeds, that the location of every
// problem names the place its path does.
func TestProblemLocationsMatchPaths(t *testing.T) {
	t.Parallel()
	seen := map[string]int{}
	n := 0
	for _, rec := range locationCorpus(t) {
		for _, data := range mutants(t, rec) {
			n++
			for _, opt := range []engine.GameOptions{{}, {InProgress: true}} {
				o := engine.Validate(data, opt)
				if !o.Game && opt.InProgress {
					break
				}
				for _, p := range outcomeProblems(o) {
					seen[p.Code]++
					if got := p.At.Path(); got != p.Path {
						t.Fatalf("%s at %q: At.Path() = %q, want the path\nAt: %+v\nrecord: %s", p.Code, p.Path, got, p.At, data)
					}
				}
			}
		}
	}
	// The mutants reach the decoder and the rules checks alike.
	for _, code := range []string{"invalid_record", "invalid_card", "invalid_players", "unknown_player",
		"out_of_turn", "card_not_held", "duplicate_card", "invalid_hands", "invalid_deck", "invalid_points",
		"unknown_source", "unknown_category", "unknown_rule", "incomplete_deal", "missing_last_trick",
		"game_not_finished", "deal_does_not_match_deck", "card_not_in_stock"} {
		if seen[code] == 0 {
			t.Errorf("no mutant of %d made a %s problem; seen %v", n, code, seen)
		}
	}
}

// locationCorpus returns the example records and the fuzz seeds.
func locationCorpus(t *testing.T) [][]byte {
	t.Helper()
	var out [][]byte
	for _, f := range exampleFiles(t) {
		var ex example
		if err := json.Unmarshal(mustRead(t, f), &ex); err != nil {
			t.Fatal(err)
		}
		out = append(out, ex.Record)
	}
	seeds, _ := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzDecodeAndCheck*", "*"))
	for _, f := range seeds {
		for _, line := range strings.Split(string(mustRead(t, f)), "\n") {
			if q, ok := strings.CutPrefix(line, "[]byte("); ok {
				s, err := strconv.Unquote(strings.TrimSuffix(q, ")"))
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				out = append(out, []byte(s))
			}
		}
	}
	out = append(out, []byte(`{"rules":{"preset":"sm","overrides":{"players":"2-4","hand_points":{"pair":3,"":1,"x":true},"":1}},`+
		`"players":["a","b"],"dealer":"b","scores":{"":3},"hands":{"":["2c"]},"exchanges":[],"announcements":[],"tricks":[]}`))
	return out
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// outcomeProblems returns the problems of an outcome, those of each deal of
// a game included.
func outcomeProblems(o engine.Outcome) []engine.Problem {
	var ps []engine.Problem
	if o.Game {
		ps = append(ps, o.GameResult.Errors...)
		for _, d := range o.GameResult.Deals {
			ps = append(ps, d.Errors...)
		}
		return ps
	}
	return o.DealResult.Errors
}

// mutants returns copies of a JSON record with one value changed: of the
// wrong type, another player or card, another number, a list shortened or
// lengthened, a member dropped or renamed.
func mutants(t *testing.T, rec []byte) [][]byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(rec))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		return [][]byte{rec}
	}
	var out [][]byte
	emit := func(v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	var walk func(v any, set func(any))
	walk = func(v any, set func(any)) {
		for _, w := range valueMutants(v) {
			set(w)
			emit(root)
		}
		set(v)
		switch v := v.(type) {
		case []any:
			for i := range v {
				e := v[i]
				walk(e, func(x any) { v[i] = x })
			}
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				e := v[k]
				walk(e, func(x any) { v[k] = x })
				for _, nk := range []string{"", "zz"} {
					delete(v, k)
					if nk != "" || k != "" {
						v[nk] = e
						emit(root)
						delete(v, nk)
					}
					emit(root)
					v[k] = e
				}
			}
		}
	}
	walk(root, func(x any) { root = x })
	return out
}

// valueMutants returns the values that replace v in the mutants.
func valueMutants(v any) []any {
	out := []any{true, "zz"}
	switch v := v.(type) {
	case string:
		out = append(out, 3, "2c", "As", "bo", "b")
	case json.Number:
		out = append(out, json.Number("7"), json.Number("-20"), json.Number("1.5"))
	case []any:
		if len(v) > 0 {
			out = append(out, slices.Clone(v[:len(v)-1]), append(slices.Clone(v), v[0]), []any{})
		}
	case map[string]any:
		out = append(out, []any{})
	}
	return out
}

// TestProblemLocations checks the location of one problem of each part of
// a record, field by field.
func TestProblemLocations(t *testing.T) {
	t.Parallel()
	deal := exampleRecord(t, "d01_plain.json")
	tests := []struct {
		name string
		data []byte
		code string
		want engine.Location
	}{
		{"sheet source of the second deal", []byte(`{"players":["a","b","c"],"first_dealer":"a","ended_by":"time",` +
			`"deals":[{"sheet":{"a":{"hand1":2,"last_trick":5}}},{"sheet":{"b":{"hand1":53,"last_trick":5}}}]}`),
			"invalid_points", engine.Location{Deal: 2, Part: engine.PartSheet, Player: "b", Member: "hand1"}},
		{"unknown source", []byte(`{"players":["a","b","c"],"first_dealer":"a","ended_by":"time",` +
			`"deals":[{"sheet":{"c":{"hand4":2,"last_trick":5}}}]}`),
			"unknown_source", engine.Location{Deal: 1, Part: engine.PartSheet, Player: "c", Member: "hand4"}},
		{"source scored twice", []byte(`{"players":["a","b","c"],"first_dealer":"a","ended_by":"time",` +
			`"deals":[{"sheet":{"a":{"hand1":2,"last_trick":5},"c":{"last_trick":5}}}]}`),
			"source_scored_twice", engine.Location{Deal: 1, Part: engine.PartSheet, Player: "c", Member: "last_trick"}},
		{"missing last trick", []byte(`{"players":["a","b","c"],"first_dealer":"a","ended_by":"time",` +
			`"deals":[{"sheet":{"c":{"hand1":2}}}]}`),
			"missing_last_trick", engine.Location{Deal: 1, Part: engine.PartSheet}},
		{"game not finished", []byte(`{"players":["a","b","c"],"first_dealer":"a",` +
			`"deals":[{"sheet":{"c":{"last_trick":5}}}]}`),
			"game_not_finished", engine.Location{Part: engine.PartDeals}},
		{"first dealer", []byte(`{"players":["a","b","c"],"first_dealer":"d","deals":[]}`),
			"unknown_player", engine.Location{Part: engine.PartFirstDealer}},
		{"player listed twice", []byte(`{"players":["a","b","a"],"first_dealer":"a","deals":[]}`),
			"invalid_players", engine.Location{Part: engine.PartPlayers, Index: 3}},
		{"sheet value of the wrong type", []byte(`{"players":["a","b","c"],"first_dealer":"a",` +
			`"deals":[{"sheet":{"a":{"hand1":2}}},{"sheet":{"a":{"hand2":"x"}}}]}`),
			"invalid_record", engine.Location{Deal: 2, Part: engine.PartSheet, Player: "a", Member: "hand2"}},
		{"hand card dealt twice", mutate(t, deal, func(r map[string]any) {
			r["hands"].(map[string]any)["bo"].([]any)[2] = "Kc"
		}), "duplicate_card", engine.Location{Part: engine.PartHands, Player: "bo", Card: 3}},
		{"card not a card", mutate(t, deal, func(r map[string]any) {
			r["hands"].(map[string]any)["bo"].([]any)[1] = "Zz"
		}), "invalid_card", engine.Location{Part: engine.PartHands, Player: "bo", Card: 2}},
		{"discard not held", mutate(t, deal, func(r map[string]any) {
			exchangeOf(r, 0, 0)["discard"].([]any)[1] = "2h"
		}), "card_not_held", engine.Location{Part: engine.PartExchanges, Round: 1, Index: 1, Member: "discard", Card: 2}},
		{"open card not a card", mutate(t, deal, func(r map[string]any) {
			exchangeOf(r, 1, 0)["open"] = map[string]any{"card": "Q", "taken": false}
		}), "invalid_card", engine.Location{Part: engine.PartExchanges, Round: 2, Index: 1, Member: "open", Key: "card"}},
		{"announcement out of turn", mutate(t, deal, func(r map[string]any) {
			r["announcements"].([]any)[1].([]any)[2].(map[string]any)["player"] = "anna"
		}), "out_of_turn", engine.Location{Part: engine.PartAnnouncements, Round: 2, Index: 3}},
		{"unknown category", mutate(t, deal, func(r map[string]any) {
			r["announcements"].([]any)[0].([]any)[0].(map[string]any)["announce"] = "trips"
		}), "unknown_category", engine.Location{Part: engine.PartAnnouncements, Round: 1, Index: 1, Member: "announce"}},
		{"trick card not held", mutate(t, deal, func(r map[string]any) {
			r["tricks"].([]any)[1].([]any)[3].(map[string]any)["card"] = "Ks"
		}), "card_not_held", engine.Location{Part: engine.PartTricks, Round: 2, Index: 4, Member: "card"}},
		{"deck twice", mutate(t, deal, func(r map[string]any) {
			r["deck"].([]any)[5] = "7c"
		}), "invalid_deck", engine.Location{Part: engine.PartDeck, Index: 6}},
		{"start score", mutate(t, deal, func(r map[string]any) {
			r["scores"] = map[string]any{"cia": -3}
		}), "invalid_points", engine.Location{Part: engine.PartScores, Player: "cia"}},
		{"dealer", mutate(t, deal, func(r map[string]any) { r["dealer"] = "eve" }),
			"unknown_player", engine.Location{Part: engine.PartDealer}},
		{"hand points override", mutate(t, deal, func(r map[string]any) {
			r["rules"] = map[string]any{"preset": "sm", "overrides": map[string]any{"hand_points": map[string]any{"trips": 3}}}
		}), "unknown_rule", engine.Location{Part: engine.PartOverrides, Member: "hand_points", Key: "trips"}},
		{"rules key", mutate(t, deal, func(r map[string]any) {
			r["rules"] = map[string]any{"preset": "sm", "colour": 3}
		}), "unknown_rule", engine.Location{Part: engine.PartRules, Member: "colour"}},
	}
	for _, tt := range tests {
		ps := outcomeProblems(engine.Validate(tt.data, engine.GameOptions{}))
		i := slices.IndexFunc(ps, func(p engine.Problem) bool { return p.Code == tt.code })
		if i < 0 {
			t.Errorf("%s: no %s problem in %+v", tt.name, tt.code, ps)
			continue
		}
		if got := ps[i].At; got != tt.want {
			t.Errorf("%s: At = %+v, want %+v", tt.name, got, tt.want)
		}
		if got, want := ps[i].Path, tt.want.Path(); got != want {
			t.Errorf("%s: Path = %q, want %q", tt.name, got, want)
		}
	}
}

// TestRulesProblemLocations checks that problems of a rules object alone
// are located as the rules of a record.
func TestRulesProblemLocations(t *testing.T) {
	t.Parallel()
	_, err := engine.ParseRules([]byte(`{"preset":"sm","overrides":{"hand_points":{"trips":3},"":1},"x":1}`))
	de, ok := err.(*engine.DecodeError)
	if !ok || len(de.Problems) != 3 {
		t.Fatalf("ParseRules error = %v, want 3 problems", err)
	}
	for _, p := range de.Problems {
		if got, want := p.At.Path(), "/rules"+p.Path; got != want {
			t.Errorf("%s at %q: At.Path() = %q, want %q", p.Code, p.Path, got, want)
		}
	}
	_, err = engine.Preset("xx")
	if de, ok := err.(*engine.DecodeError); !ok || de.Problems[0].At != (engine.Location{Part: engine.PartRules, Member: "preset"}) {
		t.Errorf("Preset(xx) = %v, want a problem at the rules' preset", err)
	}
}

func TestLocationPath(t *testing.T) {
	t.Parallel()
	tests := []struct {
		loc  engine.Location
		want string
	}{
		{engine.Location{}, ""},
		{engine.Location{Deal: 1}, "/deals/0"},
		{engine.Location{Part: engine.PartDeals}, "/deals"},
		{engine.Location{Deal: 12, Part: engine.PartSheet, Player: "a/b~", Member: "last_trick"}, "/deals/11/sheet/a~1b~0/last_trick"},
		{engine.Location{Part: engine.PartExchanges, Round: 3, Index: 2, Member: "open", Key: "card"}, "/exchanges/2/1/open/card"},
		{engine.Location{Part: engine.PartExchanges, Round: 1, Index: 1, Member: "draw", Card: 1}, "/exchanges/0/0/draw/0"},
		{engine.Location{Part: engine.PartHands, Player: "bo", Card: 5}, "/hands/bo/4"},
		{engine.Location{Part: engine.PartOverrides, Member: "hand_points", Key: "pair"}, "/rules/overrides/hand_points/pair"},
		{engine.Location{Part: engine.PartTricks, Round: 5}, "/tricks/4"},
	}
	for _, tt := range tests {
		if got := tt.loc.Path(); got != tt.want {
			t.Errorf("%+v.Path() = %q, want %q", tt.loc, got, tt.want)
		}
	}
}

// exampleRecord returns the record of an example file.
func exampleRecord(t *testing.T, name string) []byte {
	t.Helper()
	var ex example
	if err := json.Unmarshal(mustRead(t, filepath.Join("testdata", "examples", name)), &ex); err != nil {
		t.Fatal(err)
	}
	return ex.Record
}

// mutate returns rec changed by f.
func mutate(t *testing.T, rec []byte, f func(map[string]any)) []byte {
	t.Helper()
	var r map[string]any
	if err := json.Unmarshal(rec, &r); err != nil {
		t.Fatal(err)
	}
	f(r)
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func exchangeOf(r map[string]any, round, i int) map[string]any {
	return r["exchanges"].([]any)[round].([]any)[i].(map[string]any)
}

// TestParseLocation checks, over the same broken records, that every
// problem's path reads back into its location.
func TestParseLocation(t *testing.T) {
	t.Parallel()
	n := 0
	for _, rec := range locationCorpus(t) {
		for _, data := range mutants(t, rec) {
			for _, p := range outcomeProblems(engine.Validate(data, engine.GameOptions{})) {
				n++
				got, err := engine.ParseLocation(p.Path)
				if err != nil || got != p.At {
					t.Fatalf("ParseLocation(%q) = %+v, %v, want %+v", p.Path, got, err, p.At)
				}
			}
		}
	}
	if n < 1000 {
		t.Errorf("only %d problems read back; want the corpus's thousands", n)
	}
	if _, err := engine.ParseLocation("deals/0"); err == nil {
		t.Errorf("ParseLocation(%q) = nil error, want one", "deals/0")
	}
}

func FuzzParseLocation(f *testing.F) {
	for _, s := range []string{"", "/", "/deals/3/sheet/p1/last_trick", "/tricks/2/1/card", "/rules/overrides/hand_points/pair", "/hands/a~1b/4", "x"} {
		f.Add(s)
	}
	// Any text reads without a panic; only a pointer is taken. (That real
	// problems read back exactly is TestParseLocation's.)
	f.Fuzz(func(t *testing.T, path string) {
		_, err := engine.ParseLocation(path)
		if pointer := path == "" || path[0] == '/'; pointer != (err == nil) {
			t.Fatalf("ParseLocation(%q) error = %v, want an error only for a non-pointer", path, err)
		}
	})
}
