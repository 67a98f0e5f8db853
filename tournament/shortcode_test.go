package tournament_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
)

func TestParseShortCode(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"KXPRTM", "KXPRTM"},
		{"kxprtm", "KXPRTM"},
		{"KxP-rTm", "KXPRTM"},
		{" kxp rtm ", "KXPRTM"},
		{"KXPRT", ""},       // too short
		{"KXPRTMB", ""},     // too long
		{"KXPRT0", ""},      // a zero, not a letter of the alphabet
		{"KXPRTO", ""},      // O is left out (read as 0)
		{"AXPRTM", ""},      // vowels are left out
		{"KXPRT\u00d6", ""}, // Ö
		{"", ""},
		{"../../x", ""},
	} {
		got, err := tournament.ParseShortCode(c.in)
		if got != c.want || (err == nil) != (c.want != "") {
			t.Errorf("ParseShortCode(%q) = %q, %v, want %q", c.in, got, err, c.want)
		}
		if err != nil && tournament.ErrorKind(err) != tournament.KindNotFound {
			t.Errorf("ParseShortCode(%q): error kind %s, want not found", c.in, tournament.ErrorKind(err))
		}
	}
}

func TestNewShortCode(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	r := bytes.NewReader(bytes.Repeat([]byte{0, 1, 18, 19, 255, 200, 77}, 100))
	for range 50 {
		code, err := tournament.NewShortCode(r)
		if err != nil {
			t.Fatal(err)
		}
		if back, err := tournament.ParseShortCode(code); err != nil || back != code {
			t.Errorf("ParseShortCode(NewShortCode() = %q) = %q, %v", code, back, err)
		}
		seen[code] = true
	}
	if len(seen) < 2 {
		t.Errorf("50 codes from varied bytes: %d distinct", len(seen))
	}
	if _, err := tournament.NewShortCode(strings.NewReader("abc")); err == nil {
		t.Error("NewShortCode from 3 bytes: no error")
	}
}

// FuzzParseShortCode: the short link's path parameter comes from anyone.
// A code it accepts is six letters of the alphabet, found again from its
// lower case, and accepted as it is.
func FuzzParseShortCode(f *testing.F) {
	for _, s := range []string{"KXPRTM", "kxp-rtm", "", "KXPRT0", "ÖÖÖÖÖÖ", "\xff\xfe", strings.Repeat("B", 1000)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		code, err := tournament.ParseShortCode(s)
		if err != nil {
			if code != "" || tournament.ErrorKind(err) != tournament.KindNotFound {
				t.Fatalf("ParseShortCode(%q) = %q, %v: want \"\" and not found", s, code, err)
			}
			return
		}
		if len(code) != tournament.ShortCodeLen || strings.Trim(code, tournament.ShortCodeAlphabet) != "" {
			t.Fatalf("ParseShortCode(%q) = %q: not %d letters of %s", s, code, tournament.ShortCodeLen, tournament.ShortCodeAlphabet)
		}
		if again, err := tournament.ParseShortCode(strings.ToLower(code)); err != nil || again != code {
			t.Fatalf("ParseShortCode(lower(%q)) = %q, %v", code, again, err)
		}
	})
}
