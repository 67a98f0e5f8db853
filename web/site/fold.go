package site

import (
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// FoldName is a name as "find my table" compares it: lower case, without
// accents, and with the Nordic and other letters that are not an accented
// form of another spelled as a keyboard without them would ("Björn
// Ångström" → "bjorn angstrom", "Søren Ærø" → "soren aero"), so that a
// player typing on a phone without Swedish, Danish or Norwegian letters
// finds themself. The seating script (static/app.js) folds what is typed
// the same way.
func FoldName(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, err := transform.String(t, s)
	if err != nil {
		out = s
	}
	return letterFolds.Replace(strings.ToLower(out))
}

// foldedLetters are the lower-case letters that NFD does not take apart
// into a base letter and a mark, each followed by its spelling without
// them. app.js's letterFolds must list the same (TestFoldNameScriptAgrees).
var foldedLetters = []string{"ø", "o", "æ", "ae", "œ", "oe", "ß", "ss", "ð", "d", "þ", "th",
	"ł", "l", "đ", "d", "ı", "i", "ħ", "h", "ŧ", "t", "ŋ", "n"}

var letterFolds = strings.NewReplacer(foldedLetters...)
