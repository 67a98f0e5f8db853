package tournament

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// CheckLine validates a one-line text field such as a name: valid UTF-8, no
// control characters (line breaks, tabs, NUL: PostgreSQL refuses NUL in text,
// and the pages and CSV files show one line), at most max bytes, and not empty
// when required.
func CheckLine(field, s string, max int, required bool) error {
	switch {
	case s == "" && required:
		return InvalidField(field, "%s is required", field)
	case !utf8.ValidString(s):
		return InvalidField(field, "%s is not valid UTF-8", field)
	case strings.IndexFunc(s, unicode.IsControl) >= 0:
		return InvalidField(field, "%s contains a control character (a line break, tab or NUL)", field)
	case len(s) > max:
		return InvalidField(field, "%s is longer than %d bytes", field, max)
	}
	return nil
}

// CheckText validates a required free text such as a reason or a
// description: like checkLine, but line breaks and tabs are allowed.
func CheckText(field, s string) error {
	switch {
	case s == "":
		return InvalidField(field, "%s is required", field)
	case !utf8.ValidString(s):
		return InvalidField(field, "%s is not valid UTF-8", field)
	case strings.IndexFunc(s, isForbiddenInText) >= 0:
		return InvalidField(field, "%s contains a control character other than a line break or tab", field)
	case len(s) > MaxDescription:
		return InvalidField(field, "%s is longer than %d bytes", field, MaxDescription)
	}
	return nil
}

func isForbiddenInText(r rune) bool {
	return unicode.IsControl(r) && r != '\n' && r != '\r' && r != '\t'
}

// MaxDescription bounds a dispute's description and a ruling's reason.
const MaxDescription = 4000

// Storable refuses JSON that PostgreSQL's jsonb cannot hold: a string with
// the NUL character (\u0000).
func Storable(canon []byte) error {
	if bytes.Contains(canon, []byte(`\u0000`)) {
		return InvalidField("record", "record contains a NUL character (\\u0000), which cannot be stored")
	}
	return nil
}

// MaxReason bounds the reason given for a change (a withdrawal, a re-seating,
// a change of the clock, of the register).
const MaxReason = 1000
