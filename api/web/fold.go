package web

import (
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// foldName is a name as "find my table" compares it: lower case, without
// accents ("Björn Ångström" → "bjorn angstrom"), so that a player typing on
// a phone without Swedish letters finds themself. Letters that are not
// an accented form of another (ø, æ, ß) stay as they are. The seating
// script folds what is typed the same way (NFD, marks removed).
func foldName(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, err := transform.String(t, s)
	if err != nil {
		out = s
	}
	return strings.ToLower(out)
}
