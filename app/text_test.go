package app_test

import (
	"testing"

	"github.com/revisor-sm/revisor/app"
)

// TestCheckJSONText (issue 13, item 11): text that decoding would change
// silently (to U+FFFD) or that PostgreSQL cannot store is refused.
func TestCheckJSONText(t *testing.T) {
	tests := []struct {
		body string
		ok   bool
	}{
		{`{"name":"Åsa Öberg"}`, true},
		{`{"name":"\u00c5sa \ud83c\udca1"}`, true},
		{`{"name":"a\\ud800"}`, true}, // an escaped backslash, then plain text
		{`{"name":"\\\ud83c\udca1"}`, true},
		{`{"name":"x\u0041"}`, true},
		{`{"name":"\uZZZZ"}`, true}, // a syntax error: the decoder reports it
		{"{\"name\":\"\xff\"}", false},
		{"{\"name\":\"\xc3\"}", false},
		{"{\"name\":\"\xed\xa0\x80\"}", false}, // a surrogate encoded in UTF-8
		{`{"name":"\ud800"}`, false},
		{`{"name":"\ud800x"}`, false},
		{`{"name":"\udc00\ud800"}`, false},
		{`{"name":"\ud800\u0041"}`, false},
		{`{"name":"\\\ud800"}`, false},
		{`{"name":"a\u0000b"}`, false},
		{`"\ud800`, false},
	}
	for _, tt := range tests {
		if err := app.CheckJSONText([]byte(tt.body)); (err == nil) != tt.ok {
			t.Errorf("app.CheckJSONText(%q) = %v, want ok %v", tt.body, err, tt.ok)
		}
	}
}
