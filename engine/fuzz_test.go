package engine_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/engine"
)

func FuzzParseCard(f *testing.F) {
	for _, s := range []string{"Th", "10h", "TH", "A♠", "A♠\ufe0f", "2c", "", "1", "10", "Xx", "♠A"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := engine.ParseCard(s)
		if err != nil {
			return
		}
		if !c.Valid() {
			t.Fatalf("ParseCard(%q) = %d, not a card", s, c)
		}
		back, err := engine.ParseCard(c.String())
		if err != nil || back != c {
			t.Fatalf("ParseCard(%q) = %v; ParseCard(%q) = %v, %v", s, c, c.String(), back, err)
		}
		if strings.ToLower(s[len(s)-1:]) == s[len(s)-1:] && len(s) == 2 && s[0] != '1' && c.String() != s {
			t.Fatalf("ParseCard(%q).String() = %q, want canonical input unchanged", s, c.String())
		}
	})
}

// seedRecords adds the records of the examples to a fuzz corpus.
func seedRecords(f *testing.F, kind string) {
	files, _ := filepath.Glob(filepath.Join("testdata", "examples", "*.json"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		var ex example
		if err := json.Unmarshal(data, &ex); err != nil {
			f.Fatal(err)
		}
		if ex.Kind == kind {
			f.Add([]byte(ex.Record))
		}
	}
}

// checkProblems fails unless every problem has a code, a JSON Pointer path
// and a message.
func checkProblems(t *testing.T, ps []engine.Problem) {
	t.Helper()
	for _, p := range ps {
		if p.Code == "" || p.Message == "" || (p.Path != "" && !strings.HasPrefix(p.Path, "/")) {
			t.Fatalf("bad problem %+v", p)
		}
		if got := p.At.Path(); got != p.Path {
			t.Fatalf("problem %s at %q: At.Path() = %q, want the path (At %+v)", p.Code, p.Path, got, p.At)
		}
	}
}

func checkViolations(t *testing.T, vs []engine.Violation) {
	t.Helper()
	for _, v := range vs {
		if v.Code == "" || v.Message == "" || v.Player == "" || !strings.HasPrefix(v.Path, "/") ||
			(v.Consequence != engine.Penalty && v.Consequence != engine.ForfeitGame) {
			t.Fatalf("bad violation %+v", v)
		}
	}
}

func FuzzDecodeAndCheckDeal(f *testing.F) {
	seedRecords(f, "deal")
	f.Add([]byte(`{"players":["a","b","c"],"dealer":"a","hands":{"a":["2c"]},"exchanges":[[{"player":"a","discard":["2c"],"draw":["3c"],"open":{"card":"3c","taken":true}}],[],[]],"announcements":[[],[]],"tricks":[[{"player":"b","card":"2c"}]]}`))
	f.Add([]byte(`{"rules":{"preset":"sm","overrides":{"players":"2-4","suit_order":"shdc","hand_points":{"pair":3}}},"players":["a","b"],"dealer":"b","hands":{},"exchanges":[],"announcements":[],"tricks":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := engine.DecodeDeal(data)
		shallow := bytes.Count(data, []byte("["))+bytes.Count(data, []byte("{")) < 200
		if err != nil {
			de, ok := err.(*engine.DecodeError)
			if !ok || len(de.Problems) == 0 {
				t.Fatalf("DecodeDeal error %T %v, want *DecodeError with problems", err, err)
			}
			if shallow && de.Syntax == json.Valid(data) {
				t.Fatalf("DecodeDeal syntax %v, json.Valid %v", de.Syntax, json.Valid(data))
			}
			checkProblems(t, de.Problems)
			return
		}
		if !json.Valid(data) {
			t.Fatalf("DecodeDeal accepted input that is not JSON")
		}
		res := engine.CheckDeal(d)
		checkProblems(t, res.Errors)
		checkViolations(t, res.Violations)
		if res.Valid != (len(res.Errors) == 0) {
			t.Fatalf("valid %v with %d errors", res.Valid, len(res.Errors))
		}
		if _, err := json.Marshal(res); err != nil {
			t.Fatalf("Marshal(result): %v", err)
		}
		if res.Valid {
			sum := 0
			for p, pts := range res.Points {
				sum += pts
				if res.Scores[p]-d.Scores[p] != pts {
					t.Fatalf("points[%s] = %d, scores %d from %d", p, pts, res.Scores[p], d.Scores[p])
				}
			}
		}
	})
}

func FuzzDecodeAndCheckGame(f *testing.F) {
	seedRecords(f, "game")
	f.Add([]byte(`{"players":["a","b","c"],"first_dealer":"c","ended_by":"time","deals":[{"sheet":{"a":{"hand1":2,"chicago":-15},"b":{"last_trick":5}}},{"hands":{},"exchanges":[],"announcements":[],"tricks":[]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := engine.DecodeGame(data)
		if err != nil {
			de, ok := err.(*engine.DecodeError)
			if !ok || len(de.Problems) == 0 {
				t.Fatalf("DecodeGame error %T %v, want *DecodeError with problems", err, err)
			}
			checkProblems(t, de.Problems)
			return
		}
		for _, opt := range []engine.GameOptions{{}, {InProgress: true}} {
			res := engine.CheckGame(g, opt)
			checkProblems(t, res.Errors)
			checkViolations(t, res.Violations)
			if res.Valid != (len(res.Errors) == 0) {
				t.Fatalf("valid %v with %d errors", res.Valid, len(res.Errors))
			}
			if len(res.Errors) == 0 && len(res.Deals) != len(g.Deals) {
				t.Fatalf("%d deal results for %d deals", len(res.Deals), len(g.Deals))
			}
			if _, err := json.Marshal(res); err != nil {
				t.Fatalf("Marshal(result): %v", err)
			}
		}
	})
}
