package engine

import (
	"encoding/binary"
	"math/bits"
)

// The JSON primitives of the fast path (decode_fast.go): cards, strings
// and their interning, containers, literals, numbers.

// intern returns b as a string, reusing the string of an earlier call:
// records repeat a few player names and categories many times. Strings of
// up to 7 bytes are compared as one number.
func (f *fastDecoder) intern(b []byte) string {
	if len(b) > 7 {
		for _, n := range f.names {
			if n.key == longName && string(b) == n.s {
				return n.s
			}
		}
		return f.remember(longName, string(b))
	}
	return f.internShort(packName(b), b)
}

// internShort is intern for a string of up to 7 bytes and its packName.
func (f *fastDecoder) internShort(key uint64, b []byte) string {
	for _, n := range f.names {
		if n.key == key {
			return n.s
		}
	}
	return f.remember(key, string(b))
}

// remember adds a string to the interned ones, replacing the oldest when
// there are maxNames.
func (f *fastDecoder) remember(key uint64, s string) string {
	if len(f.names) < maxNames {
		f.names = append(f.names, internedName{key, s})
	} else {
		f.names[f.nextName] = internedName{key, s}
		f.nextName = (f.nextName + 1) % maxNames
	}
	return s
}

// longName is the key of interned strings longer than 7 bytes.
const longName = ^uint64(0)

// packName packs a string of up to 7 bytes into a number that no other
// such string has: the bytes and the length.
func packName(b []byte) uint64 {
	var k uint64
	for i, c := range b {
		k |= uint64(c) << (8 * i)
	}
	return k | uint64(len(b))<<56
}

// cards reads a list of cards, cut from the slab.
func (f *fastDecoder) cards() ([]Card, bool) {
	if list, ok := f.compactCards(); ok {
		return list, true
	}
	base := len(f.slab)
	more, ok := f.begin('[', ']')
	for ; more && ok; more, ok = f.after(']') {
		c, ok := f.card()
		if !ok {
			return nil, false
		}
		f.slab = append(f.slab, c) // a new slab, if any, takes this list along
	}
	return f.slab[base:len(f.slab):len(f.slab)], ok
}

// compactCards reads a list of two-character cards without white space,
// as json.Marshal writes it. It returns false, having read nothing, for
// any other list.
func (f *fastDecoder) compactCards() ([]Card, bool) {
	src, pos, slab := f.src, f.pos, f.slab
	if pos+1 >= len(src) || src[pos] != '[' {
		return nil, false
	}
	base := len(slab)
	if src[pos+1] == ']' {
		f.pos = pos + 2
		return slab[base:base:base], true
	}
	for pos++; pos+5 <= len(src); pos += 5 {
		w := src[pos : pos+5]
		c, ok := twoCharCard(w[1], w[2])
		if !ok || w[0] != '"' || w[3] != '"' {
			return nil, false
		}
		slab = append(slab, c) // a new slab, if any, takes this list along
		if w[4] == ']' {
			f.pos, f.slab = pos+5, slab
			return slab[base:len(slab):len(slab)], true
		} else if w[4] != ',' {
			return nil, false
		}
	}
	return nil, false
}

// card reads a card string.
func (f *fastDecoder) card() (Card, bool) {
	if p := f.pos; p+4 <= len(f.src) {
		w := f.src[p : p+4]
		if c, ok := twoCharCard(w[1], w[2]); ok && w[0] == '"' && w[3] == '"' {
			f.pos = p + 4
			return c, true
		}
	}
	return f.spelledCard()
}

// spelledCard reads a card string in any spelling.
func (f *fastDecoder) spelledCard() (Card, bool) {
	b, ok := f.str()
	if !ok {
		return 0, false
	}
	c, err := ParseCard(string(b))
	return c, err == nil
}

// twoCharCard returns the card of rank byte r and suit byte s, as
// ParseCard reads them.
func twoCharCard(r, s byte) (Card, bool) {
	ri, si := rankTable[r], suitTable[s]
	return Card(si)*13 + Card(ri), ri|si < 0x80
}

// The JSON reading below accepts a subset of JSON; false means "not
// handled here" (possibly valid JSON that the tree decoder reads).

// space skips white space.
func (f *fastDecoder) space() {
	for f.pos < len(f.src) {
		switch f.src[f.pos] {
		case ' ', '\t', '\n', '\r':
			f.pos++
		default:
			return
		}
	}
}

// peek skips white space and returns the next byte, or 0 at the end.
func (f *fastDecoder) peek() byte {
	if f.pos < len(f.src) && f.src[f.pos] > ' ' {
		return f.src[f.pos]
	}
	f.space()
	if f.pos < len(f.src) {
		return f.src[f.pos]
	}
	return 0
}

// begin reads the opening bracket of a container: more is false for an
// empty one, ok is false when the bracket is not there.
func (f *fastDecoder) begin(open, close byte) (more, ok bool) {
	if p := f.pos; p+1 < len(f.src) && f.src[p] == open && f.src[p+1] > ' ' && f.src[p+1] != close {
		f.pos = p + 1
		return true, true
	}
	return f.beginOther(open, close)
}

// beginOther is begin for an empty container, or with white space.
func (f *fastDecoder) beginOther(open, close byte) (more, ok bool) {
	if f.peek() != open {
		return false, false
	}
	f.pos++
	if f.peek() == close {
		f.pos++
		return false, true
	}
	return true, true
}

// after reads what follows an element: a comma (more) or the closing
// bracket.
func (f *fastDecoder) after(close byte) (more, ok bool) {
	if f.pos < len(f.src) && f.src[f.pos] == ',' {
		f.pos++
		return true, true
	}
	return f.afterOther(close)
}

// afterOther is after when no comma follows at once.
func (f *fastDecoder) afterOther(close byte) (more, ok bool) {
	switch f.peek() {
	case ',':
		f.pos++
		return true, true
	case close:
		f.pos++
		return false, true
	}
	return false, false
}

// key reads an object key and its colon.
func (f *fastDecoder) key() ([]byte, bool) {
	if p := f.pos; p < len(f.src) && f.src[p] == '"' {
		if _, n := shortString(f.src, p); n >= 0 && p+n+2 < len(f.src) && f.src[p+n+2] == ':' {
			f.pos = p + n + 3
			return f.src[p+1 : p+1+n], true
		}
	}
	k, ok := f.str()
	if !ok || f.peek() != ':' {
		return nil, false
	}
	f.pos++
	return k, true
}

// name reads a string and interns it.
func (f *fastDecoder) name() (string, bool) {
	if p := f.pos; p < len(f.src) && f.src[p] == '"' {
		if w, n := shortString(f.src, p); n >= 0 {
			f.pos = p + n + 2
			return f.internShort(w|uint64(n)<<56, f.src[p+1:p+1+n]), true
		}
	}
	b, ok := f.str()
	if !ok {
		return "", false
	}
	return f.intern(b), true
}

// shortString looks at the eight bytes after the quote at src[p]: when a
// plain string of at most 7 bytes ends among them, it returns the string's
// bytes as a number (as packName packs them, without the length) and its
// length n; otherwise n is -1.
func shortString(src []byte, p int) (w uint64, n int) {
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

// str reads a string without escapes or control characters.
func (f *fastDecoder) str() ([]byte, bool) {
	if f.peek() != '"' {
		return nil, false
	}
	start := f.pos + 1
	end := plainEnd(f.src, start)
	if end < 0 {
		return nil, false
	}
	f.pos = end + 1
	return f.src[start:end], true
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

// literal reads the literal text.
func (f *fastDecoder) literal(text string) bool {
	if f.peek() == text[0] && len(f.src)-f.pos >= len(text) && string(f.src[f.pos:f.pos+len(text)]) == text {
		f.pos += len(text)
		return true
	}
	return false
}

// null reads null.
func (f *fastDecoder) null() bool { return f.literal("null") }

// boolean reads true or false into *dst.
func (f *fastDecoder) boolean(dst *bool) bool {
	switch {
	case f.literal("true"):
		*dst = true
	case f.literal("false"):
		*dst = false
	default:
		return false
	}
	return true
}

// integer reads a whole number of at most 15 digits without fraction or
// exponent.
func (f *fastDecoder) integer() (int, bool) {
	f.space()
	i, neg := f.pos, false
	if i < len(f.src) && f.src[i] == '-' {
		i, neg = i+1, true
	}
	start, n := i, 0
	for ; i < len(f.src) && f.src[i] >= '0' && f.src[i] <= '9'; i++ {
		n = n*10 + int(f.src[i]-'0')
	}
	if digits := i - start; digits == 0 || digits > 15 || digits > 1 && f.src[start] == '0' {
		return 0, false
	}
	if i < len(f.src) && (f.src[i] == '.' || f.src[i] == 'e' || f.src[i] == 'E') {
		return 0, false
	}
	f.pos = i
	if neg {
		n = -n
	}
	return n, true
}

// skip reads over any value that the fast path can check.
func (f *fastDecoder) skip(depth int) bool {
	if depth > maxSkipDepth {
		return false
	}
	switch c := f.peek(); {
	case c == '{':
		more, ok := f.begin('{', '}')
		for ; more && ok; more, ok = f.after('}') {
			if _, ok := f.key(); !ok || !f.skip(depth+1) {
				return false
			}
		}
		return ok
	case c == '[':
		more, ok := f.begin('[', ']')
		for ; more && ok; more, ok = f.after(']') {
			if !f.skip(depth + 1) {
				return false
			}
		}
		return ok
	case c == '"':
		_, ok := f.str()
		return ok
	case c == '-' || c >= '0' && c <= '9':
		return f.number()
	}
	var b bool
	return f.null() || f.boolean(&b)
}

// number reads a number of any JSON form.
func (f *fastDecoder) number() bool {
	i := f.pos
	if f.src[i] == '-' {
		i++
	}
	digits := func() int {
		start := i
		for i < len(f.src) && f.src[i] >= '0' && f.src[i] <= '9' {
			i++
		}
		return i - start
	}
	if n := digits(); n == 0 || n > 1 && f.src[i-n] == '0' {
		return false
	}
	if i < len(f.src) && f.src[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(f.src) && (f.src[i] == 'e' || f.src[i] == 'E') {
		i++
		if i < len(f.src) && (f.src[i] == '+' || f.src[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	f.pos = i
	return true
}

// rankTable and suitTable map a byte to the rank or suit it spells in a
// two-character card (as ParseCard reads it), or to 0xff.
const (
	rankTable = "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
		"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x00\x01\x02\x03\x04\x05\x06\x07\xff\xff\xff\xff\xff\xff" +
		"\xff\x0c\xff\xff\xff\xff\xff\xff\xff\xff\x09\x0b\xff\xff\xff\xff\xff\x0a\xff\xff\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
		"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
		"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
		"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
		"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
		"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
	suitTable = "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
		"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
		"\xff\xff\xff\x00\x01\xff\xff\xff\x02\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x03\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
		"\xff\xff\xff\x00\x01\xff\xff\xff\x02\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x03\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
		"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
		"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
		"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
		"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
)
