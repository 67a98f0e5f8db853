package engine_test

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/sim"
)

// simDeals returns n simulated deal records as JSON: 2 to 4 players, with
// and without a recorded deck, with the sm rules and a variant.
func simDeals(tb testing.TB, n int) [][]byte {
	tb.Helper()
	variant := engine.SM()
	variant.SuitOrder = "shdc"
	out := make([][]byte, 0, n)
	for i := 0; i < n; i++ {
		rules := engine.SM()
		if i%5 == 4 {
			rules = variant
		}
		opt := sim.DefaultOptions()
		opt.NoDeck = i%7 == 3
		s := sim.NewWithOptions(uint64(i), rules, opt)
		players := sim.Players(2 + i%3)
		rec := s.Deal(players, players[i%len(players)], s.Scores(players, 40))
		data, err := json.Marshal(rec)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, data)
	}
	return out
}

// exampleDeals returns the records of the example deals.
func exampleDeals(tb testing.TB) [][]byte {
	tb.Helper()
	files, _ := filepath.Glob(filepath.Join("testdata", "examples", "*.json"))
	var out [][]byte
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			tb.Fatal(err)
		}
		var ex example
		if err := json.Unmarshal(data, &ex); err != nil {
			tb.Fatal(err)
		}
		if ex.Kind == "deal" {
			out = append(out, []byte(ex.Record))
		}
	}
	return out
}

// checkFastMatchesTree fails when the fast path accepts data and decodes
// it differently from the tree decoder, or accepts what is not JSON or
// what the tree decoder rejects. It returns whether the fast path took it.
func checkFastMatchesTree(t *testing.T, data []byte) bool {
	t.Helper()
	return checkFastAgainstTree(t, "DecodeDeal", data, engine.DecodeDealFast, engine.DecodeDealTree, engine.DecodeDeal)
}

// checkFastGameMatchesTree is checkFastMatchesTree for game records.
func checkFastGameMatchesTree(t *testing.T, data []byte) bool {
	t.Helper()
	return checkFastAgainstTree(t, "DecodeGame", data, engine.DecodeGameFast, engine.DecodeGameTree, engine.DecodeGame)
}

// checkFastGameDealMatchesTree is checkFastMatchesTree for an entry of a
// game's deals (DecodeGameDeal).
func checkFastGameDealMatchesTree(t *testing.T, data []byte) bool {
	t.Helper()
	return checkFastAgainstTree(t, "DecodeGameDeal", data, engine.DecodeGameDealFast, engine.DecodeGameDealTree, engine.DecodeGameDeal)
}

// checkFastAgainstTree holds a decoder (decode, named name) and its fast
// path to its tree decoder; it returns whether the fast path took data.
func checkFastAgainstTree[T any](t *testing.T, name string, data []byte, fastPath func([]byte) (T, bool),
	treePath, decode func([]byte) (T, error)) bool {
	t.Helper()
	fast, ok := fastPath(data)
	tree, err := treePath(data)
	got, gotErr := decode(data)
	if !reflect.DeepEqual(got, tree) || !reflect.DeepEqual(gotErr, err) {
		t.Fatalf("%s(%s) = %+v, %v; tree decoder %+v, %v", name, data, got, gotErr, tree, err)
	}
	if !ok {
		return false
	}
	if !json.Valid(data) {
		t.Fatalf("fast path accepted %s, which is not JSON", data)
	}
	if err != nil {
		t.Fatalf("fast path accepted %s; tree decoder: %v", data, err)
	}
	if !reflect.DeepEqual(fast, tree) {
		t.Fatalf("fast path decoded %s as\n%+v\nthe tree decoder as\n%+v", data, fast, tree)
	}
	return true
}

// TestFastDecodeMatchesTree: the fast path takes every simulated deal and
// the common variants of the example deals, and decodes them exactly as
// the tree decoder does.
func TestFastDecodeMatchesTree(t *testing.T) {
	t.Parallel()
	for i, data := range simDeals(t, 300) {
		if !checkFastMatchesTree(t, data) {
			t.Errorf("fast path did not take simulated deal %d: %s", i, data)
		}
	}
	taken := 0
	for _, data := range exampleDeals(t) {
		if checkFastMatchesTree(t, data) {
			taken++
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		indented, err := json.MarshalIndent(v, "", "\t")
		if err != nil {
			t.Fatal(err)
		}
		checkFastMatchesTree(t, indented)
	}
	if taken == 0 {
		t.Errorf("fast path took none of the example deals")
	}
}

// TestFastDecodeGivesUp: records the fast path leaves to the tree decoder
// (and a few it takes) decode as the tree decoder decodes them.
func TestFastDecodeGivesUp(t *testing.T) {
	t.Parallel()
	const body = `"players":["a","b"],"dealer":"a","hands":{"a":["2c"],"b":["3c"]},` +
		`"exchanges":[[{"player":"b","discard":["3c"],"draw":["4c"]}]],"announcements":[[]],` +
		`"tricks":[[{"player":"b","card":"4c"},{"player":"a","card":"2c"}]]`
	for _, tc := range []struct {
		doc  string
		fast bool
	}{
		{`{` + body + `}`, true},
		{` {` + body + `} ` + "\n", true},
		{`{"id":{"x":[1,-2.5e3,true,false,null,"s",{}]},` + body + `}`, true},
		{`{"rules":null,"scores":null,"deck":null,"chicago":null,` + body + `}`, true},
		{`{"rules":{"preset":"sm","overrides":{"suit_order":"shdc"}},` + body + `}`, true},
		{`{"deck":[],` + body + `}`, true},
		{`{"scores":{"a":-3,"b":0},` + body + `}`, true},
		{strings.Replace(`{`+body+`}`, `"2c"]`, `"2♣"]`, 1), true},
		{strings.Replace(`{`+body+`}`, `"2c"]`, `"10c"]`, 1), true},
		{strings.Replace(`{`+body+`}`, `"dealer":"a"`, `"dealer":"\u0061"`, 1), false},
		{strings.Replace(`{`+body+`}`, `"dealer":"a"`, `"dealer":"a","dealer":"b"`, 1), false},
		{strings.Replace(`{`+body+`}`, `"dealer":"a"`, `"dealer":null`, 1), false},
		{strings.Replace(`{`+body+`}`, `"dealer":"a",`, ``, 1), false},
		{strings.Replace(`{`+body+`}`, `"2c"]`, `"2x"]`, 1), false},
		{`{"scores":{"a":1.0},` + body + `}`, false},
		{`{"scores":{"a":01},` + body + `}`, false},
		{`{"rules":{"preset":"nope"},` + body + `}`, false},
		{`{"deals":[],` + body + `}`, false},
		{`{` + body + `,}`, false},
		{`{` + body + `}x`, false},
		{`{` + body, false},
		{`[]`, false},
		{``, false},
	} {
		if got := checkFastMatchesTree(t, []byte(tc.doc)); got != tc.fast {
			t.Errorf("fast path took %s: %v, want %v", tc.doc, got, tc.fast)
		}
	}
}

// FuzzFastDecode: whatever the fast path takes is JSON and decodes exactly
// as the tree decoder decodes it; DecodeDeal always answers as the tree
// decoder.
func FuzzFastDecode(f *testing.F) {
	for _, data := range exampleDeals(f) {
		f.Add(data)
	}
	for _, data := range simDeals(f, 10) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastMatchesTree(t, data)
	})
}

// TestValidatorReuse: one Validator gives, record after record, the
// outcome of Validate, and earlier outcomes stay as they were.
func TestValidatorReuse(t *testing.T) {
	t.Parallel()
	docs := append(simDeals(t, 40), exampleDeals(t)...)
	huge := `{"players":["a","b"],"dealer":"a","hands":{},"exchanges":[[` +
		strings.Repeat(`{"player":"a","discard":[],"draw":[]},`, 5000) + `{"player":"b"}]],"announcements":[],"tricks":[]}`
	docs = append(docs, []byte(`{"players":`), []byte(`{"players":["a"],"deals":[]}`), []byte(huge),
		[]byte(huge[:len(huge)-1]))
	docs = append(docs, simDeals(t, 5)...)
	docs = append(docs, simGames(t, 6)...)
	var v engine.Validator
	var kept []engine.Outcome
	for _, data := range docs {
		got, want := v.Validate(data, engine.GameOptions{}), engine.Validate(data, engine.GameOptions{})
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Validator.Validate(%s) = %+v, want %+v", data, got, want)
		}
		kept = append(kept, got)
	}
	for i, data := range docs {
		if want := engine.Validate(data, engine.GameOptions{}); !reflect.DeepEqual(kept[i], want) {
			t.Errorf("outcome %d changed after later records: %+v, want %+v", i, kept[i], want)
		}
	}
}

// BenchmarkValidateSimDeal: Validate and a reused Validator over simulated
// 4-player deals with a recorded deck (~2 KB each), as revisor validate
// --lines meets them.
func BenchmarkValidateSimDeal(b *testing.B) {
	var docs [][]byte
	for i, data := range simDeals(b, 300) {
		if i%3 == 2 && i%7 != 3 {
			docs = append(docs, data)
		}
	}
	b.Run("Validate", func(b *testing.B) {
		b.ReportAllocs()
		cpu0, i := cpuTime(b), 0
		for b.Loop() {
			engine.Validate(docs[i%len(docs)], engine.GameOptions{})
			i++
		}
		reportCPU(b, cpu0)
	})
	b.Run("Validator", func(b *testing.B) {
		b.ReportAllocs()
		var v engine.Validator
		cpu0, i := cpuTime(b), 0
		for b.Loop() {
			v.Validate(docs[i%len(docs)], engine.GameOptions{})
			i++
		}
		reportCPU(b, cpu0)
	})
	b.Run("DecodeDeal", func(b *testing.B) {
		b.ReportAllocs()
		cpu0, i := cpuTime(b), 0
		for b.Loop() {
			if _, err := engine.DecodeDeal(docs[i%len(docs)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
		reportCPU(b, cpu0)
	})
	b.Run("FastDecoder", func(b *testing.B) {
		b.ReportAllocs()
		var f engine.FastDecoder
		cpu0, i := cpuTime(b), 0
		for b.Loop() {
			if _, ok := f.Deal(docs[i%len(docs)]); !ok {
				b.Fatal("fast path refused a simulated deal")
			}
			i++
		}
		reportCPU(b, cpu0)
	})
	// The yardstick for a fast path on jsontext (github.com/go-json-
	// experiment/json, the base of encoding/json/v2): only reading every
	// token of the same records and parsing their cards, the least such a
	// decoder does before it builds anything (issue 16, item 6).
	b.Run("JSONTextWalk", func(b *testing.B) {
		b.ReportAllocs()
		var rd bytes.Reader
		dec := jsontext.NewDecoder(&rd)
		cpu0, i := cpuTime(b), 0
		for b.Loop() {
			rd.Reset(docs[i%len(docs)])
			dec.Reset(&rd)
			if err := walkJSONText(dec); err != nil {
				b.Fatal(err)
			}
			i++
		}
		reportCPU(b, cpu0)
	})
	b.Run("DecodeDealTree", func(b *testing.B) {
		b.ReportAllocs()
		cpu0, i := cpuTime(b), 0
		for b.Loop() {
			if _, err := engine.DecodeDealTree(docs[i%len(docs)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
		reportCPU(b, cpu0)
	})
}

// walkJSONText reads every token of a document, parsing strings of two
// characters as cards.
func walkJSONText(dec *jsontext.Decoder) error {
	for {
		switch dec.PeekKind() {
		case 0:
			_, err := dec.ReadToken()
			if err == io.EOF {
				return nil
			}
			return err
		case '{', '}', '[', ']':
			if _, err := dec.ReadToken(); err != nil {
				return err
			}
		default:
			v, err := dec.ReadValue()
			if err != nil {
				return err
			}
			if len(v) == 4 && v[0] == '"' {
				engine.ParseCard(string(v[1:3]))
			}
		}
	}
}

// cpuTime is the CPU time the process has used so far (all threads, the
// garbage collector's too).
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per operation since cpu0: on a shared
// machine it says more than the wall clock.
func reportCPU(b *testing.B, cpu0 time.Duration) {
	b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(b.N), "cpu-ns/op")
}

// TestTwoCharCard: the fast path's tables read every two-byte string as
// ParseCard does.
func TestTwoCharCard(t *testing.T) {
	t.Parallel()
	for r := 0; r < 256; r++ {
		for s := 0; s < 256; s++ {
			got, ok := engine.TwoCharCard(byte(r), byte(s))
			want, err := engine.ParseCard(string([]byte{byte(r), byte(s)}))
			if ok != (err == nil) || ok && got != want {
				t.Errorf("TwoCharCard(%q) = %v, %v; ParseCard: %v, %v", []byte{byte(r), byte(s)}, got, ok, want, err)
			}
		}
	}
}

// simGames returns n simulated game records as JSON (3 and 4 players);
// every third has score-sheet lines for some deals.
func simGames(tb testing.TB, n int) [][]byte {
	tb.Helper()
	return simGamesOf(tb, n, 12)
}

// simGamesOf is simGames with games of at most maxDeals deals: fuzz seeds
// stay small, since the fuzzer minimises every new input it finds and takes
// long over games of tens of kilobytes.
func simGamesOf(tb testing.TB, n, maxDeals int) [][]byte {
	tb.Helper()
	out := make([][]byte, 0, n)
	for i := 0; i < n; i++ {
		opt := sim.DefaultOptions()
		opt.MaxDeals = maxDeals
		s := sim.NewWithOptions(uint64(i), engine.SM(), opt)
		players := sim.Players(3 + i%2)
		g := s.Game(players, players[i%len(players)])
		if i%3 == 2 {
			g = s.SheetsOf(g, 0.3)
		}
		data, err := json.Marshal(g)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, data)
	}
	return out
}

// TestFastDecodeGameMatchesTree: the fast path takes simulated games, of
// full deals and with score-sheet lines, and decodes them exactly as the
// tree decoder does.
func TestFastDecodeGameMatchesTree(t *testing.T) {
	t.Parallel()
	for i, data := range simGames(t, 30) {
		if !checkFastGameMatchesTree(t, data) {
			t.Errorf("fast path did not take simulated game %d", i)
		}
	}
	long := `{"players":["a","b"],"first_dealer":"a","deals":[` +
		strings.Repeat(`{"sheet":{"a":{"poker":1}}},`, engine.MaxGameDeals) + `{"sheet":{}}]}`
	const deal = `{"hands":{"a":["2c"],"b":["3c"]},"exchanges":[],"announcements":[],"tricks":[]}`
	for _, tc := range []struct {
		doc  string
		fast bool
	}{
		{`{"players":["a","b"],"first_dealer":"a","deals":[]}`, true},
		{`{"rules":{"preset":"sm"},"players":["a","b"],"first_dealer":"a","ended_by":"time","deals":[` + deal + `]}`, true},
		{`{"players":["a","b"],"first_dealer":"a","ended_by":null,"deals":[{"players":7,"dealer":[],"scores":"x",` + deal[1:] + `]}`, true},
		{`{"players":["a","b"],"first_dealer":"a","deals":[{"sheet":{}}]}`, true},
		{`{"players":["a","b"],"first_dealer":"a","deals":[{"sheet":{}},` + deal + `]}`, true},
		{`{"players":["a","b"],"first_dealer":"a","deals":[{"hands":7,"sheet":{"a":{"poker":2}}},` + deal + `]}`, false},
		{`{"players":["a","b"],"first_dealer":"a","deals":[{"sheet":{"a":{"poker":2.5}}}]}`, false},
		{`{"players":["a","b"],"first_dealer":"a","deals":[{"sheet":[]}]}`, false},
		{long, false},
		{`{"players":["a","b"],"deals":[` + deal + `]}`, false},
		{`{"players":["a","b"],"first_dealer":"a","deals":[` + deal + `],"deals":[]}`, false},
		{`{"players":["a","b"],"first_dealer":"a","deals":{}}`, false},
	} {
		if got := checkFastGameMatchesTree(t, []byte(tc.doc)); got != tc.fast {
			t.Errorf("fast path took %s: %v, want %v", tc.doc, got, tc.fast)
		}
	}
}

// gameDealsOf returns the entries of the deals of games, each as JSON.
func gameDealsOf(tb testing.TB, games [][]byte) [][]byte {
	tb.Helper()
	var out [][]byte
	for _, g := range games {
		var rec struct{ Deals []json.RawMessage }
		if err := json.Unmarshal(g, &rec); err != nil {
			tb.Fatal(err)
		}
		for _, d := range rec.Deals {
			out = append(out, d)
		}
	}
	return out
}

// TestFastDecodeGameDealMatchesTree: the fast path takes the deals of
// simulated games, full deals and score-sheet lines, as a table enters
// them one by one, and decodes them exactly as the tree decoder does.
func TestFastDecodeGameDealMatchesTree(t *testing.T) {
	t.Parallel()
	for i, data := range gameDealsOf(t, simGames(t, 12)) {
		if !checkFastGameDealMatchesTree(t, data) {
			t.Errorf("fast path did not take deal %d: %s", i, data)
		}
	}
	for _, tc := range []struct {
		doc  string
		fast bool
	}{
		{`{"sheet":{"a":{"poker":2,"last_trick":5},"b":{}}}`, true},
		{` { "sheet" : { } , "id" : [1, {"x": null}] } `, true},
		{`{"hands":"x","sheet":{"a":{"poker":2}}}`, false}, // a deal member before the sheet fails: the tree decides
		{`{"hands":{},"sheet":{"a":{"poker":2}}}`, true},
		{`{"sheet":{"a":{"poker":2}},"sheet":{}}`, false},
		{`{"sheet":{"a":{"poker":"2"}}}`, false},
		{`{"sheet":{"a":[]}}`, false},
		{`{"sheet":null}`, false},
		{`{"sheet":{}}x`, false},
		{`{"sheet":{"a":{"poker":2}}`, false},
		{`{"sheet":{"\u00e5":{"poker":2}}}`, false},
		{`[]`, false},
		{`{"hands":{"a":["2c"],"b":["3c"]},"exchanges":[],"announcements":[],"tricks":[]}`, true},
		{`{"hands":{"a":["2c"],"b":["3c"]},"exchanges":[],"announcements":[]}`, false},
	} {
		if got := checkFastGameDealMatchesTree(t, []byte(tc.doc)); got != tc.fast {
			t.Errorf("fast path took %s: %v, want %v", tc.doc, got, tc.fast)
		}
	}
}

// FuzzFastDecodeGameDeal is FuzzFastDecode for an entry of a game's deals.
func FuzzFastDecodeGameDeal(f *testing.F) {
	for _, data := range gameDealsOf(f, simGamesOf(f, 6, 4)) {
		f.Add(data)
	}
	f.Add([]byte(`{"sheet":{"a":{"poker":2,"last_trick":5},"b":{}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastGameDealMatchesTree(t, data)
	})
}

// FuzzFastDecodeGame is FuzzFastDecode for game records.
func FuzzFastDecodeGame(f *testing.F) {
	for _, data := range simGamesOf(f, 4, 2) {
		f.Add(data)
	}
	f.Add([]byte(`{"players":["a","b"],"first_dealer":"a","deals":[{"hands":{"a":["2c"]},"exchanges":[[]],"announcements":[[]],"tricks":[[]]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastGameMatchesTree(t, data)
	})
}
