package canonjson

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/sim"
)

// canonicalSeeds are bodies of every shape the fast path takes or leaves
// to the slow one.
var canonicalSeeds = []string{
	`{"sheet":{"p2":{"hand1":52,"last_trick":5},"p1":{"poker":2}}}`,
	` { "b" : [ 1 , -2.5e+3 , 0 , true , false , null , "x" , { } , [ ] ] , "a" : { "d" : 1 , "c" : 2 } } `,
	`{"hands":{"p1":["AS","KH"]},"exchanges":[[{"player":"p1","discard":["2C"]}]],"tricks":[],"announcements":[]}`,
	`{"a":1,"a":2}`,                 // a member twice: the last wins (slow path)
	`{"a\u00e5":"\u2028", "b":"é"}`, // escapes and UTF-8 (slow path)
	`{"a":"<&>"}`,
	`{"a":1} {"b":2}`, // a second value: ignored by the decoder (slow path)
	`{"a":1}x`,
	`01`, `-`, `1.`, `1e`, `-0.0E-0`, `[1,]`, `{"a"}`, `{"a":}`, `{,}`, `"abc`, `tru`, `nul`, ``, `   `,
	`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`,
	"{\"a\":\"\x7f\"}", "{\"a\":\"\t\"}",
}

// TestCanonicalFastMatchesSlow holds the fast path to encoding/json's
// canonical form, and checks that it takes the common shapes at all.
func TestCanonicalFastMatchesSlow(t *testing.T) {
	t.Parallel()
	for _, s := range canonicalSeeds {
		checkCanonical(t, []byte(s))
	}
	for _, s := range []string{canonicalSeeds[0], canonicalSeeds[1], canonicalSeeds[2], `{"a":"<&>"}`} {
		if _, ok := canonicalFast([]byte(s)); !ok {
			t.Errorf("canonicalFast(%s) left a plain body to the slow path", s)
		}
	}
	for _, d := range simDeals(t, 40) {
		if _, ok := canonicalFast(d); !ok {
			t.Errorf("canonicalFast left a simulated deal to the slow path: %s", d)
		}
		checkCanonical(t, d)
	}
	if got, _ := canonicalFast([]byte(`{"a":1,"a":2}`)); got != nil {
		t.Errorf("canonicalFast took a member given twice: %s", got)
	}
}

func checkCanonical(t *testing.T, data []byte) {
	t.Helper()
	fast, ok := canonicalFast(data)
	slow, err := canonicalSlow(data)
	if !ok {
		return
	}
	if err != nil {
		t.Fatalf("canonicalFast(%q) = %s, but canonicalSlow fails: %v", data, fast, err)
	}
	if !bytes.Equal(fast, slow) {
		t.Fatalf("canonicalFast(%q) = %s, canonicalSlow = %s", data, fast, slow)
	}
	if !json.Valid(fast) {
		t.Fatalf("canonicalFast(%q) = %s, not JSON", data, fast)
	}
}

// FuzzCanonicalJSON: whatever the fast path writes, encoding/json writes
// too.
func FuzzCanonicalJSON(f *testing.F) {
	for _, s := range canonicalSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkCanonical)
}

// BenchmarkCanonicalDeal: the deal's canonical form, which is stored and
// compared when a deal is sent again (half score-sheet lines, half full
// deals): Fast is what a deal costs now, Slow through encoding/json.
func BenchmarkCanonicalDeal(b *testing.B) {
	deals := simDeals(b, 40)
	for _, bc := range []struct {
		name string
		f    func([]byte) ([]byte, error)
	}{{"Fast", Canonical}, {"Slow", canonicalSlow}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if _, err := bc.f(deals[i%len(deals)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// simDeals returns about n deals of simulated games as a client sends
// them: every other game's deals as score-sheet lines.
func simDeals(tb testing.TB, n int) [][]byte {
	tb.Helper()
	var out [][]byte
	for seed := uint64(1); len(out) < n; seed++ {
		s := sim.NewWithOptions(seed, engine.SM(), sim.DefaultOptions())
		g := s.Game([]string{"p1", "p2", "p3", "p4"}, "p2")
		if seed%2 == 0 {
			g = s.SheetsOf(g, 1)
		}
		for _, d := range g.Deals {
			b, err := json.Marshal(d)
			if err != nil {
				tb.Fatal(err)
			}
			out = append(out, b)
		}
	}
	return out
}
