// Tests of the Interner: equal bytes give equal strings, short and long,
// and the interned strings stay bounded.

package jsonscan

import (
	"fmt"
	"testing"
	"unsafe"
)

func TestInterner(t *testing.T) {
	t.Parallel()
	var in Interner
	for _, s := range []string{"", "a", "Anna", "1234567", "12345678", "a longer player name"} {
		first := in.Intern([]byte(s))
		again := in.Intern([]byte(s))
		if first != s || again != s {
			t.Fatalf("Intern(%q) = %q then %q", s, first, again)
		}
		if len(s) > 0 && unsafe.StringData(first) != unsafe.StringData(again) {
			t.Errorf("Intern(%q) made a new string the second time", s)
		}
	}
	// Strings that pack alike but differ: a NUL byte, another length.
	if a, b := in.Intern([]byte("ab")), in.Intern([]byte("ab\x00")); a == b {
		t.Errorf("Intern(ab) = Intern(ab\\x00) = %q", a)
	}
	for i := range 10 * maxNames {
		s := fmt.Sprintf("player %d", i)
		if got := in.Intern([]byte(s)); got != s {
			t.Fatalf("Intern(%q) = %q", s, got)
		}
	}
	if len(in.names) > maxNames {
		t.Errorf("the Interner keeps %d strings, want at most %d", len(in.names), maxNames)
	}
}
