package engine

import "github.com/revisor-sm/revisor/engine/internal/jsonscan"

// The record-specific reading of the fast path (decode_fast.go): cards and
// interned names; the JSON tokens themselves are jsonscan's.

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
	more, ok := f.Begin('[', ']')
	for ; more && ok; more, ok = f.After(']') {
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
	src, pos, slab := f.Src, f.Pos, f.slab
	if pos+1 >= len(src) || src[pos] != '[' {
		return nil, false
	}
	base := len(slab)
	if src[pos+1] == ']' {
		f.Pos = pos + 2
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
			f.Pos, f.slab = pos+5, slab
			return slab[base:len(slab):len(slab)], true
		} else if w[4] != ',' {
			return nil, false
		}
	}
	return nil, false
}

// card reads a card string.
func (f *fastDecoder) card() (Card, bool) {
	if p := f.Pos; p+4 <= len(f.Src) {
		w := f.Src[p : p+4]
		if c, ok := twoCharCard(w[1], w[2]); ok && w[0] == '"' && w[3] == '"' {
			f.Pos = p + 4
			return c, true
		}
	}
	return f.spelledCard()
}

// spelledCard reads a card string in any spelling.
func (f *fastDecoder) spelledCard() (Card, bool) {
	b, ok := f.Str()
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

// name reads a string and interns it.
func (f *fastDecoder) name() (string, bool) {
	if p := f.Pos; p < len(f.Src) && f.Src[p] == '"' {
		if w, n := jsonscan.ShortString(f.Src, p); n >= 0 {
			f.Pos = p + n + 2
			return f.internShort(w|uint64(n)<<56, f.Src[p+1:p+1+n]), true
		}
	}
	b, ok := f.Str()
	if !ok {
		return "", false
	}
	return f.intern(b), true
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
