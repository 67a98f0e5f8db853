package web

import (
	"io/fs"
	"maps"
	"regexp"
	"slices"
	"testing"
)

// TestMessagesComplete checks that both languages have the same keys and
// that every key a template names exists.
func TestMessagesComplete(t *testing.T) {
	en, sv := slices.Sorted(maps.Keys(messages[langEN])), slices.Sorted(maps.Keys(messages[langSV]))
	for _, k := range en {
		if _, ok := messages[langSV][k]; !ok {
			t.Errorf("key %q has no Swedish text", k)
		}
	}
	for _, k := range sv {
		if _, ok := messages[langEN][k]; !ok {
			t.Errorf("key %q has no English text", k)
		}
	}
	used := regexp.MustCompile(`\.T "([a-z0-9.]+)"`)
	files, _ := fs.Glob(templateFS, "templates/*.html")
	for _, f := range files {
		b, _ := fs.ReadFile(templateFS, f)
		for _, m := range used.FindAllStringSubmatch(string(b), -1) {
			if _, ok := messages[langEN][m[1]]; !ok {
				t.Errorf("%s uses key %q, which has no text", f, m[1])
			}
		}
	}
}

func TestFromAcceptLanguage(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "en"}, {"sv", "sv"}, {"sv-SE", "sv"}, {"SV-se;q=0.5", "sv"}, {"en-US,en;q=0.9", "en"},
		{"de, sv;q=0.1", "sv"}, {"sv;q=0", "en"}, {"sv;q=bad", "en"}, {"en;q=0.4, sv;q=0.6", "sv"},
		{"sv;q=0.6, en;q=0.6", "sv"}, {"*", "en"}, {"nb-NO,nb;q=0.9", "en"},
	}
	for _, tt := range tests {
		if got := fromAcceptLanguage(tt.in); got != tt.want {
			t.Errorf("fromAcceptLanguage(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzFromAcceptLanguage(f *testing.F) {
	for _, s := range []string{"sv-SE,sv;q=0.9,en;q=0.8", "en;q=", ";;,,", "sv;q=1e400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		if got := fromAcceptLanguage(h); !supported(got) {
			t.Fatalf("fromAcceptLanguage(%q) = %q, not a supported language", h, got)
		}
	})
}

func TestParseSheetValue(t *testing.T) {
	tests := []struct {
		src, in    string
		wantSource string
		want       int
		ok         bool
	}{
		{"hand1", "3", "hand1", 3, true},
		{"hand3", "+8", "hand3", 8, true},
		{"last", "5", "last_trick", 5, true},
		{"last", "15", "chicago", 15, true},
		{"last", "-15", "chicago", -15, true},
		{"last", "−15", "chicago", -15, true},
		{"last", "c 5", "chicago", 5, true},
		{"last", "C-15", "chicago", -15, true},
		{"hand2", "C3", "", 0, false},
		{"hand1", "två", "", 0, false},
		{"last", "C", "", 0, false},
	}
	for _, tt := range tests {
		src, v, ok := parseSheetValue(tt.src, tt.in, 5)
		if src != tt.wantSource || v != tt.want || ok != tt.ok {
			t.Errorf("parseSheetValue(%q, %q) = %q, %d, %v; want %q, %d, %v", tt.src, tt.in, src, v, ok, tt.wantSource, tt.want, tt.ok)
		}
	}
}

func FuzzParseSheetValue(f *testing.F) {
	for _, s := range []string{"5", "C15", "−15", "+3", "c", ""} {
		f.Add("last", s)
	}
	f.Fuzz(func(t *testing.T, src, s string) {
		got, _, ok := parseSheetValue(src, s, 5)
		if ok && got == "" {
			t.Fatalf("parseSheetValue(%q, %q) accepted without a source", src, s)
		}
	})
}
