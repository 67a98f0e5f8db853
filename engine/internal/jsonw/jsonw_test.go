package jsonw_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/revisor-sm/revisor/engine/internal/jsonw"
)

var awkward = []string{"", "anna", "a<b>&c", "quote\"back\\slash", "ctl\x00\x01\x1f\b\f\n\r\t\x7f",
	"bad\xffutf8\xc3", "sep\u2028\u2029", "åäö ♠ 🂡", "\ufffd"}

// FuzzString: String writes what json.Marshal writes for any string.
func FuzzString(f *testing.F) {
	for _, s := range awkward {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := jsonw.String(nil, s); !bytes.Equal(got, want) {
			t.Errorf("String(%q) = %s, want %s", s, got, want)
		}
	})
}

func TestStringsAndIntMap(t *testing.T) {
	t.Parallel()
	m := map[string]int{}
	for i, s := range awkward {
		m[s] = i - 3
	}
	for _, c := range []struct {
		got []byte
		v   any
	}{
		{jsonw.Strings(nil, awkward), awkward},
		{jsonw.Strings(nil, nil), []string{}},
		{jsonw.IntMap(nil, m), m},
		{jsonw.IntMap(nil, nil), map[string]int{}},
		{append(jsonw.KV([]byte("{"), `"k":`, "<v>"), '}'), map[string]string{"k": "<v>"}},
	} {
		want, err := json.Marshal(c.v)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(c.got, want) {
			t.Errorf("got %s, want %s", c.got, want)
		}
	}
}
