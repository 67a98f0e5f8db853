package site

import (
	"os"
	"strings"
	"testing"
)

func TestFoldName(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"Björn Ångström", "bjorn angstrom"},
		{"bjorn", "bjorn"},
		{"ÉLISE Nüñez", "elise nunez"},
		{"Søren Ærø", "soren aero"},
		{"SØREN", "soren"},
		{"Bjørn Dæhlie", "bjorn daehlie"},
		{"Åsa Älvdal Öberg", "asa alvdal oberg"},
		{"Müller Groß", "muller gross"},
		{"Zoë Renée", "zoe renee"},
		{"Œrsted", "oersted"},
		{"Þórður Guðmundsson", "thordur gudmundsson"},
		{"Łukasz", "lukasz"},
		{"Anders", "anders"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := FoldName(tt.in); got != tt.want {
			t.Errorf("foldName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestFoldNameFinds checks the point of folding: what a player types on
// a keyboard without the letters finds their name.
func TestFoldNameFinds(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ typed, name string }{
		{"bjorn", "Björn Ek"}, {"soren", "Søren Holm"}, {"aero", "Lars Ærø"}, {"ostergard", "Åse Østergård"},
		{"BJÖRN", "Bjørn Ek"}, {"bjørn", "Björn Ek"},
	} {
		if !strings.Contains(FoldName(tt.name), FoldName(tt.typed)) {
			t.Errorf("foldName(%q) = %q does not contain foldName(%q) = %q", tt.name, FoldName(tt.name), tt.typed, FoldName(tt.typed))
		}
	}
}

// TestFoldNameScriptAgrees checks that the seating script spells the same
// letters as the server: a live filter that folds differently would hide
// the table the server found.
func TestFoldNameScriptAgrees(t *testing.T) {
	t.Parallel()
	js, err := os.ReadFile("../static/app.js")
	if err != nil {
		t.Fatal(err)
	}
	class := "["
	for i := 0; i < len(foldedLetters); i += 2 {
		class += foldedLetters[i]
	}
	if class += "]"; !strings.Contains(string(js), class) {
		t.Errorf("static/app.js does not replace the letters %s", class)
	}
	for i := 0; i < len(foldedLetters); i += 2 {
		entry := `"` + foldedLetters[i] + `": "` + foldedLetters[i+1] + `"`
		if !strings.Contains(string(js), entry) {
			t.Errorf("static/app.js has no %s in its letterFolds", entry)
		}
	}
}
