// Package jsonscan reads the subset of JSON that the engine's fast
// decoder handles (engine/decode_fast.go): strings without escapes, whole
// numbers, nesting to a bound. Every method answers false for "not handled
// here", which may still be valid JSON; the engine then decodes the record
// with its tree decoder, which owns every error message. The engine owns
// the record format; this package only tokenizes.
package jsonscan

import (
	"encoding/binary"
	"math/bits"
)

// Scanner reads Src from Pos.
type Scanner struct {
	Src []byte
	Pos int
}

// MaxSkipDepth bounds the nesting of values Skip reads over.
const MaxSkipDepth = 64

// Space skips white space.
func (f *Scanner) Space() {
	for f.Pos < len(f.Src) {
		switch f.Src[f.Pos] {
		case ' ', '\t', '\n', '\r':
			f.Pos++
		default:
			return
		}
	}
}

// Peek skips white space and returns the next byte, or 0 at the end.
func (f *Scanner) Peek() byte {
	if f.Pos < len(f.Src) && f.Src[f.Pos] > ' ' {
		return f.Src[f.Pos]
	}
	f.Space()
	if f.Pos < len(f.Src) {
		return f.Src[f.Pos]
	}
	return 0
}

// Begin reads the opening bracket of a container: more is false for an
// empty one, ok is false when the bracket is not there.
func (f *Scanner) Begin(open, close byte) (more, ok bool) {
	if p := f.Pos; p+1 < len(f.Src) && f.Src[p] == open && f.Src[p+1] > ' ' && f.Src[p+1] != close {
		f.Pos = p + 1
		return true, true
	}
	return f.beginOther(open, close)
}

// beginOther is begin for an empty container, or with white space.
func (f *Scanner) beginOther(open, close byte) (more, ok bool) {
	if f.Peek() != open {
		return false, false
	}
	f.Pos++
	if f.Peek() == close {
		f.Pos++
		return false, true
	}
	return true, true
}

// After reads what follows an element: a comma (more) or the closing
// bracket.
func (f *Scanner) After(close byte) (more, ok bool) {
	if f.Pos < len(f.Src) && f.Src[f.Pos] == ',' {
		f.Pos++
		return true, true
	}
	return f.afterOther(close)
}

// afterOther is after when no comma follows at once.
func (f *Scanner) afterOther(close byte) (more, ok bool) {
	switch f.Peek() {
	case ',':
		f.Pos++
		return true, true
	case close:
		f.Pos++
		return false, true
	}
	return false, false
}

// Key reads an object key and its colon.
func (f *Scanner) Key() ([]byte, bool) {
	if p := f.Pos; p < len(f.Src) && f.Src[p] == '"' {
		if _, n := ShortString(f.Src, p); n >= 0 && p+n+2 < len(f.Src) && f.Src[p+n+2] == ':' {
			f.Pos = p + n + 3
			return f.Src[p+1 : p+1+n], true
		}
	}
	k, ok := f.Str()
	if !ok || f.Peek() != ':' {
		return nil, false
	}
	f.Pos++
	return k, true
}

// ShortString looks at the eight bytes after the quote at src[p]: when a
// plain string of at most 7 bytes ends among them, it returns the string's
// bytes as a number (as packName packs them, without the length) and its
// length n; otherwise n is -1.
func ShortString(src []byte, p int) (w uint64, n int) {
	if p+9 > len(src) {
		return 0, -1
	}
	w = binary.LittleEndian.Uint64(src[p+1 : p+9])
	m := stringEnd(w)
	if m == 0 {
		return 0, -1
	}
	n = bits.TrailingZeros64(m) / 8
	if byte(w>>(8*n)) != '"' {
		return 0, -1
	}
	return w & (1<<(8*n) - 1), n
}

// Str reads a string without escapes or control characters.
func (f *Scanner) Str() ([]byte, bool) {
	if f.Peek() != '"' {
		return nil, false
	}
	start := f.Pos + 1
	end := plainEnd(f.Src, start)
	if end < 0 {
		return nil, false
	}
	f.Pos = end + 1
	return f.Src[start:end], true
}

// plainEnd returns the index of the quote that ends the string starting
// at src[start], or -1 when an escape or a control character comes first
// or the string does not end. It looks at eight bytes at a time.
func plainEnd(src []byte, start int) int {
	i := start
	for ; i+8 <= len(src); i += 8 {
		if m := stringEnd(binary.LittleEndian.Uint64(src[i:])); m != 0 {
			i += bits.TrailingZeros64(m) / 8
			if src[i] != '"' {
				return -1
			}
			return i
		}
	}
	for ; i < len(src); i++ {
		if c := src[i]; c == '"' {
			return i
		} else if c == '\\' || c < 0x20 {
			return -1
		}
	}
	return -1
}

// stringEnd marks (with its high bit) each byte of the eight in x that
// ends or interrupts a plain string: a quote, a backslash or a control
// character. Marks above the lowest one may be false, so only the lowest
// counts.
func stringEnd(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote, backslash := x^(ones*'"'), x^(ones*'\\')
	zero := func(v uint64) uint64 { return (v - ones) & ^v & highs }
	return zero(quote) | zero(backslash) | (x-ones*0x20)&^x&highs
}

// Literal reads the literal text.
func (f *Scanner) Literal(text string) bool {
	if f.Peek() == text[0] && len(f.Src)-f.Pos >= len(text) && string(f.Src[f.Pos:f.Pos+len(text)]) == text {
		f.Pos += len(text)
		return true
	}
	return false
}

// Null reads null.
func (f *Scanner) Null() bool { return f.Literal("null") }

// Boolean reads true or false into *dst.
func (f *Scanner) Boolean(dst *bool) bool {
	switch {
	case f.Literal("true"):
		*dst = true
	case f.Literal("false"):
		*dst = false
	default:
		return false
	}
	return true
}

// Integer reads a whole number of at most 15 digits without fraction or
// exponent.
func (f *Scanner) Integer() (int, bool) {
	f.Space()
	i, neg := f.Pos, false
	if i < len(f.Src) && f.Src[i] == '-' {
		i, neg = i+1, true
	}
	start, n := i, 0
	for ; i < len(f.Src) && f.Src[i] >= '0' && f.Src[i] <= '9'; i++ {
		n = n*10 + int(f.Src[i]-'0')
	}
	if digits := i - start; digits == 0 || digits > 15 || digits > 1 && f.Src[start] == '0' {
		return 0, false
	}
	if i < len(f.Src) && (f.Src[i] == '.' || f.Src[i] == 'e' || f.Src[i] == 'E') {
		return 0, false
	}
	f.Pos = i
	if neg {
		n = -n
	}
	return n, true
}

// Skip reads over any value that the fast path can check.
func (f *Scanner) Skip(depth int) bool {
	if depth > MaxSkipDepth {
		return false
	}
	switch c := f.Peek(); {
	case c == '{':
		more, ok := f.Begin('{', '}')
		for ; more && ok; more, ok = f.After('}') {
			if _, ok := f.Key(); !ok || !f.Skip(depth+1) {
				return false
			}
		}
		return ok
	case c == '[':
		more, ok := f.Begin('[', ']')
		for ; more && ok; more, ok = f.After(']') {
			if !f.Skip(depth + 1) {
				return false
			}
		}
		return ok
	case c == '"':
		_, ok := f.Str()
		return ok
	case c == '-' || c >= '0' && c <= '9':
		return f.Number()
	}
	var b bool
	return f.Null() || f.Boolean(&b)
}

// Number reads a number of any JSON form.
func (f *Scanner) Number() bool {
	i := f.Pos
	if f.Src[i] == '-' {
		i++
	}
	digits := func() int {
		start := i
		for i < len(f.Src) && f.Src[i] >= '0' && f.Src[i] <= '9' {
			i++
		}
		return i - start
	}
	if n := digits(); n == 0 || n > 1 && f.Src[i-n] == '0' {
		return false
	}
	if i < len(f.Src) && f.Src[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(f.Src) && (f.Src[i] == 'e' || f.Src[i] == 'E') {
		i++
		if i < len(f.Src) && (f.Src[i] == '+' || f.Src[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	f.Pos = i
	return true
}
