package app

import (
	"bytes"
	"unicode/utf8"

	"github.com/revisor-sm/revisor/tournament"
)

// CheckJSONText refuses JSON text that Go would change silently when
// decoding it: bytes that are not UTF-8 and escaped lone surrogates (both
// become U+FFFD), and escaped NUL characters, which PostgreSQL cannot
// store. RFC 8259 requires UTF-8; a name must arrive as it was typed. The
// API checks every JSON body with it; the commands check the deals they
// are given, whoever built them.
func CheckJSONText(body []byte) error {
	if !utf8.Valid(body) {
		at := 0
		for at < len(body) {
			r, n := utf8.DecodeRune(body[at:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			at += n
		}
		return invalidText("the body is not valid UTF-8: byte %d is not part of a character", at)
	}
	for i := bytes.IndexByte(body, '\\'); i >= 0 && i+1 < len(body); {
		next := i + 2 // after a simple escape such as \" or \\
		if body[i+1] == 'u' {
			r, ok := hex4(body[i+2:])
			switch {
			case !ok: // a syntax error, which the decoder reports
			case r == 0:
				return invalidText("the text holds a NUL character (\\u0000 at byte %d)", i)
			case r >= 0xD800 && r < 0xDC00:
				low, ok := rune(0), len(body) > i+7 && body[i+6] == '\\' && body[i+7] == 'u'
				if ok {
					low, ok = hex4(body[i+8:])
				}
				if !ok || low < 0xDC00 || low >= 0xE000 {
					return invalidText("the escape at byte %d is half of a surrogate pair, not a character", i)
				}
				next = i + 12
			case r >= 0xDC00 && r < 0xE000:
				return invalidText("the escape at byte %d is half of a surrogate pair, not a character", i)
			default:
				next = i + 6
			}
		}
		if next >= len(body) {
			break
		}
		j := bytes.IndexByte(body[next:], '\\')
		if j < 0 {
			break
		}
		i = next + j
	}
	return nil
}

// hex4 reads the four hexadecimal digits of a \u escape.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

func invalidText(format string, args ...any) error {
	return tournament.Errorf(tournament.KindInvalid, tournament.CodeInvalidText, format, args...)
}
