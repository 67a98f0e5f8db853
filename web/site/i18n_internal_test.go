package site

import (
	"fmt"
	"io/fs"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
)

// TestCatalogues checks that the four catalogues have the same keys, that
// a key's text takes the same arguments (format verbs) in every language,
// and that every key a template names exists.
func TestCatalogues(t *testing.T) {
	t.Parallel()
	if got := slices.Sorted(maps.Keys(messages)); !slices.Equal(got, slices.Sorted(slices.Values(Languages))) {
		t.Fatalf("catalogues %v, switch languages %v", got, Languages)
	}
	if !slices.Equal(slices.Sorted(slices.Values(tournament.Languages)), slices.Sorted(slices.Values(Languages))) {
		t.Errorf("a tournament's default language is one of %v, the pages have %v", tournament.Languages, Languages)
	}
	keys := map[string]bool{}
	for _, cat := range messages {
		for k := range cat {
			keys[k] = true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		want, wantLang := "", ""
		for _, l := range Languages {
			s, ok := messages[l][k]
			if !ok {
				t.Errorf("key %q has no text in %s (locales/%s.json)", k, l, l)
				continue
			}
			v, err := formatArgs(s)
			if err != nil {
				t.Errorf("%s %q: %v", l, k, err)
				continue
			}
			if wantLang == "" {
				want, wantLang = v, l
			} else if v != want {
				t.Errorf("key %q takes %s in %s but %s in %s", k, want, wantLang, v, l)
			}
		}
	}
	used := regexp.MustCompile(`\.T "([a-z0-9._]+)"`)
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

// verb matches one fmt verb: flags, an optional explicit argument index,
// width, precision and the verb letter (or %%).
var verb = regexp.MustCompile(`%[-+# 0]*(?:\[(\d+)\])?[0-9]*(?:\.[0-9]+)?([a-zA-Z%])`)

// formatArgs describes the arguments a format string takes, as
// "1:d 2:s": argument number and verb, so that a translation may reorder
// its arguments with %[2]s but not change them.
func formatArgs(s string) (string, error) {
	args := map[int]string{}
	next := 1
	for _, m := range verb.FindAllStringSubmatch(s, -1) {
		if m[2] == "%" {
			continue
		}
		if m[1] != "" {
			n, err := strconv.Atoi(m[1])
			if err != nil {
				return "", err
			}
			next = n
		}
		if old, ok := args[next]; ok && old != m[2] {
			return "", fmt.Errorf("argument %d used as %%%s and %%%s", next, old, m[2])
		}
		args[next] = m[2]
		next++
	}
	var out []string
	for _, n := range slices.Sorted(maps.Keys(args)) {
		out = append(out, fmt.Sprintf("%d:%s", n, args[n]))
	}
	if len(out) == 0 {
		return "no arguments", nil
	}
	return strings.Join(out, " "), nil
}

func TestFormatArgs(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"plain", "no arguments"}, {"100%%", "no arguments"}, {"Rond %d · bord %d", "1:d 2:d"},
		{"%s bekräftade kl. %s", "1:s 2:s"}, {"%[2]d av %[1]s", "1:s 2:d"}, {"%5.1f%%", "1:f"},
	}
	for _, tt := range tests {
		if got, err := formatArgs(tt.in); err != nil || got != tt.want {
			t.Errorf("formatArgs(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if _, err := formatArgs("%[1]d %[1]s"); err == nil {
		t.Error("formatArgs accepted one argument used as two verbs")
	}
	// The catalogue test's comparison must see a changed verb.
	a, _ := formatArgs("Bord %d: %s")
	b, _ := formatArgs("Bord %s: %d")
	if a == b {
		t.Errorf("formatArgs does not tell %q from %q", a, b)
	}
}

func TestFromAcceptLanguage(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", ""}, {"*", ""}, {"de", ""}, {"fr-FR,fr;q=0.9", ""}, {"sv", "sv"}, {"sv-SE", "sv"}, {"SV-se;q=0.5", "sv"}, {"en-US,en;q=0.9", "en"},
		{"de, sv;q=0.1", "sv"}, {"sv;q=0", ""}, {"sv;q=bad", ""}, {"en;q=0.4, sv;q=0.6", "sv"},
		{"sv;q=0.6, en;q=0.6", "sv"}, {"nb-NO,nb;q=0.9", "nb"}, {"no", "nb"}, {"nn-NO", "nb"},
		{"da-DK", "da"}, {"de,da;q=0.5", "da"}, {"nb;q=0.5,sv;q=0.6", "sv"}, {"sv-FI", "sv"},
		{"fi", "fi"}, {"fi-FI,fi;q=0.9,en;q=0.5", "fi"}, {"de,fi;q=0.3", "fi"}, {"hu", ""},
	}
	for _, tt := range tests {
		if got, ok := fromAcceptLanguage(tt.in); got != tt.want || ok != (tt.want != "") {
			t.Errorf("fromAcceptLanguage(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
}

func FuzzFromAcceptLanguage(f *testing.F) {
	for _, s := range []string{"sv-SE,sv;q=0.9,en;q=0.8", "en;q=", ";;,,", "sv;q=1e400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		if got, ok := fromAcceptLanguage(h); ok && !Supported(got) {
			t.Fatalf("fromAcceptLanguage(%q) = %q, not a supported language", h, got)
		}
	})
}

// TestUnknownPlayerSpeaksOfAPlayer: the table page's text for a deal that
// names someone not at the table is said of a player, not of bridge's
// declarer, since a Chicago deal (a hand, a score, the dealer) is refused
// with it too; it said "the declarer is not a player at this table".
func TestUnknownPlayerSpeaksOfAPlayer(t *testing.T) {
	t.Parallel()
	declarer := map[string]string{"en": "declarer", "sv": "spelförare", "nb": "spillefører", "da": "spilfører", "fi": "pelinviej"}
	for lang, word := range declarer {
		if got := Translate(lang, "tbl.e.unknown_player"); strings.Contains(strings.ToLower(got), word) {
			t.Errorf("%s: tbl.e.unknown_player = %q speaks of the declarer", lang, got)
		}
	}
}

// TestNoParenthesisedPlurals: a count is said in its singular or plural
// form (TN with a key's ".one" text), never as "place(s)", "giv(ar)" or
// "jatkopaikka(a)".
func TestNoParenthesisedPlurals(t *testing.T) {
	t.Parallel()
	plural := regexp.MustCompile(`\p{L}\((s|es|er|ar|or|a|aa|ä|ää|e|en|et|na|ne|n|t|r|ja|jä|ta|tä)\)`)
	for _, l := range Languages {
		for k, s := range messages[l] {
			if m := plural.FindString(s); m != "" {
				t.Errorf("%s %q = %q: %q is a plural in parentheses, want a singular and a plural text", l, k, s, m)
			}
		}
	}
}

// TestTNCountNotFirst: a text whose count is not its first word still
// picks its form by the count (TN's n), the table's number said first.
func TestTNCountNotFirst(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang, key string
		n         int
		args      []any
		want      string
	}{
		{langEN, "c.tie", 1, []any{3}, "Table 3: order the tied players (1 place goes on)"},
		{langEN, "c.tie", 2, []any{3}, "Table 3: order the tied players (2 places go on)"},
		{"fi", "c.tie", 1, []any{4}, "Pöytä 4: järjestä tasatilanteen pelaajat (1 jatkopaikka)"},
		{"fi", "c.tie", 2, []any{4}, "Pöytä 4: järjestä tasatilanteen pelaajat (2 jatkopaikkaa)"},
		{langEN, "room.queue", 1, []any{0}, "A phone here holds 1 deal needing a decision and 0 refused"},
		{langEN, "room.queue", 3, []any{1}, "A phone here holds 3 deals needing a decision and 1 refused"},
	}
	for _, tt := range tests {
		p := &Page{Lang: tt.lang}
		if got := p.TN(tt.key, tt.n, tt.args...); got != tt.want {
			t.Errorf("%s TN(%q, %d, %v) = %q, want %q", tt.lang, tt.key, tt.n, tt.args, got, tt.want)
		}
	}
}
