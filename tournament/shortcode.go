package tournament

import (
	"fmt"
	"io"
	"strings"

	"github.com/revisor-sm/revisor/internal/tokens"
)

// ShortCodeAlphabet holds the letters of a tournament's short link
// (/s/{code}): consonants only, so that no code spells a word by chance,
// and without I, L and O, which are read as 1 and 0. Codes are shown in
// capitals and read in either case.
const ShortCodeAlphabet = "BCDFGHJKMNPQRSTVWXZ"

// ShortCodeLen is the length of a short code: 19^6, some 47 million codes,
// so that a server's codes are far apart and guessing one is slow.
const ShortCodeLen = 6

// NewShortCode returns a random short code read from r.
func NewShortCode(r io.Reader) (string, error) {
	b, err := tokens.NewSecret(r, ShortCodeLen)
	if err != nil {
		return "", err
	}
	code := make([]byte, ShortCodeLen)
	for i, v := range b {
		// 256 mod 19 leaves the first nine letters a little more likely
		// (14 against 13 in 256): harmless for a link, not a secret.
		code[i] = ShortCodeAlphabet[int(v)%len(ShortCodeAlphabet)]
	}
	return string(code), nil
}

// ParseShortCode returns the short code s names, in capitals: letters of
// ShortCodeAlphabet in either case, with any spaces or hyphens (as someone
// copies "KXP-RTM" from a poster) left out. Anything else is a not_found,
// since no tournament has it.
func ParseShortCode(s string) (string, error) {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == ' ' || r == '-':
			continue
		case r >= 'a' && r <= 'z':
			r -= 'a' - 'A'
		}
		if !strings.ContainsRune(ShortCodeAlphabet, r) || b.Len() == ShortCodeLen {
			return "", shortCodeNotFound(s)
		}
		b.WriteRune(r)
	}
	if b.Len() != ShortCodeLen {
		return "", shortCodeNotFound(s)
	}
	return b.String(), nil
}

func shortCodeNotFound(s string) *Error {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return Errorf(KindNotFound, CodeShortCodeNotFound, "no tournament has the short link %s", fmt.Sprintf("%q", s))
}
