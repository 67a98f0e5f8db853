// Interning of the short strings a record repeats (player names,
// categories), for the fast decoders built on Scanner.

package jsonscan

// Interner hands out one string for equal byte strings it was given
// lately. Its zero value is ready; one per goroutine.
type Interner struct {
	names []interned // recently interned strings
	next  int        // the slot of names to reuse next once full
}

// interned is an interned string and its PackName, or longName.
type interned struct {
	key uint64
	s   string
}

// maxNames bounds the strings an Interner keeps.
const maxNames = 32

// Intern returns b as a string, reusing the string of an earlier call:
// records repeat a few player names and categories many times. Strings of
// up to 7 bytes are compared as one number.
func (f *Interner) Intern(b []byte) string {
	if len(b) > 7 {
		for _, n := range f.names {
			if n.key == longName && string(b) == n.s {
				return n.s
			}
		}
		return f.remember(longName, string(b))
	}
	return f.InternShort(PackName(b), b)
}

// InternShort is Intern for a string of up to 7 bytes and its PackName.
func (f *Interner) InternShort(key uint64, b []byte) string {
	for _, n := range f.names {
		if n.key == key {
			return n.s
		}
	}
	return f.remember(key, string(b))
}

// remember adds a string to the interned ones, replacing the oldest when
// there are maxNames.
func (f *Interner) remember(key uint64, s string) string {
	if len(f.names) < maxNames {
		f.names = append(f.names, interned{key, s})
	} else {
		f.names[f.next] = interned{key, s}
		f.next = (f.next + 1) % maxNames
	}
	return s
}

// longName is the key of interned strings longer than 7 bytes.
const longName = ^uint64(0)

// PackName packs a string of up to 7 bytes into a number that no other
// such string has: the bytes and the length.
func PackName(b []byte) uint64 {
	var k uint64
	for i, c := range b {
		k |= uint64(c) << (8 * i)
	}
	return k | uint64(len(b))<<56
}
