package engine_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/revisor-sm/revisor/engine"
)

// TestDecodeJSONSyntax checks the engine's JSON reading against
// encoding/json: the same documents are JSON, and strings decode the same.
func TestDecodeJSONSyntax(t *testing.T) {
	t.Parallel()
	docs := []string{
		`{}`, ` { } `, `[]`, `{"a":1}`, `{"a":-0.5e+3}`, `{"a":01}`, `{"a":1.}`, `{"a":.5}`, `{"a":-}`,
		`{"a":"x\u00e9\n\t\"\\\/"}`, `{"a":"\ud83d\ude00"}`, `{"a":"\ud83d"}`, `{"a":"\x"}`, "{\"a\":\"\x01\"}",
		`{"a":tru}`, `{"a":true,}`, `{"a" 1}`, `{"a":1}}`, `[1,2`, `"abc`, ``, `nul`, `{"a":[true,false,null]}`,
		`{1:2}`, `{"a":1,"a":2}`, `{"a":"\u12"}`, `{"a":1e}`, `{"a":-01}`, `{"a":2E-3}`,
	}
	for _, doc := range docs {
		_, err := engine.DecodeDeal([]byte(doc))
		de, _ := err.(*engine.DecodeError)
		syntax := de != nil && de.Syntax
		if syntax == json.Valid([]byte(doc)) {
			t.Errorf("DecodeDeal(%s): syntax error %v, want %v", doc, syntax, !json.Valid([]byte(doc)))
		}
	}
}

func TestDecodeStrings(t *testing.T) {
	t.Parallel()
	doc := `{"players":["a\u00e9","b\"q","c\\/\u0041","\ud83d\ude00"],"dealer":"b\"q","hands":{},
		"exchanges":[[],[],[]],"announcements":[[],[]],"tricks":[]}`
	rec, err := engine.DecodeDeal([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	var want struct{ Players []string }
	if err := json.Unmarshal([]byte(doc), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rec.Players, want.Players) || rec.Dealer != want.Players[1] {
		t.Errorf("DecodeDeal players = %q, dealer %q, want %q", rec.Players, rec.Dealer, want.Players)
	}
}

func TestDecodeDeepNesting(t *testing.T) {
	t.Parallel()
	doc := `{"players":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`
	_, err := engine.DecodeDeal([]byte(doc))
	if de, ok := err.(*engine.DecodeError); !ok || len(de.Problems) == 0 {
		t.Errorf("DecodeDeal(deep nesting) = %v, want a DecodeError", err)
	}
}

// TestConcurrentUse checks one record from many goroutines (run with -race).
func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	tb := base(t)
	tb.exchange(0, "cia", "5h 4c")
	tb.announce(0, "bo:pair")
	tb.playOut()
	want := engine.CheckDeal(tb.rec)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				if got := engine.CheckDeal(tb.rec); !reflect.DeepEqual(got, want) {
					t.Errorf("CheckDeal differs between calls: %+v, want %+v", got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}
