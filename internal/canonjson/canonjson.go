// Package canonjson writes JSON values in one canonical form: object keys
// sorted, no insignificant space, numbers as written. Two records that mean
// the same compare equal byte for byte, which is how the tournament tells a
// repeated deal from a conflicting one.
package canonjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// Canonical re-encodes a JSON value with object keys sorted and no
// insignificant space, numbers kept as written, so that the same record
// sent twice compares equal byte for byte.
//
// Records and deals are almost always plain JSON: ASCII strings without
// escapes, each member once, nothing after the value. Those are written
// in one pass over the bytes (canonicalFast, a few µs for a deal); anything
// else (an escape, a character outside ASCII, a member twice, a syntax
// error, deep nesting) goes through encoding/json's decoder and encoder
// (canonicalSlow), which decides and words every error. The fast path
// decides nothing on its own: what it writes is what canonicalSlow writes
// (FuzzCanonicalJSON).
func Canonical(data []byte) ([]byte, error) {
	if out, ok := canonicalFast(data); ok {
		return out, nil
	}
	return canonicalSlow(data)
}

// canonicalSlow is Canonical through a tree of Go values.
func canonicalSlow(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, &SyntaxError{Err: err}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("canonical JSON: %w", err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// maxCanonicalDepth is the nesting the fast path follows; deeper values
// take the slow path.
const maxCanonicalDepth = 32

// canonicalFast writes the canonical form of data when data is plain
// JSON (see Canonical); ok is false when canonicalSlow must decide.
func canonicalFast(data []byte) (out []byte, ok bool) {
	c := canonWriter{src: data, out: make([]byte, 0, len(data))}
	if !c.value(0) {
		return nil, false
	}
	c.space()
	return c.out, c.pos == len(c.src)
}

// canonWriter is the state of canonicalFast.
type canonWriter struct {
	src     []byte
	pos     int
	out     []byte
	members []canonMember // the members of the objects being written, innermost last
	tmp     []byte        // an object's members while they are put in order
}

// canonMember is an object member written to out, relative to the start
// of its object's members: "key":value spans [start, end), the key's
// characters [start+1, keyEnd).
type canonMember struct{ start, keyEnd, end int }

func (c *canonWriter) space() {
	for c.pos < len(c.src) {
		switch c.src[c.pos] {
		case ' ', '\t', '\n', '\r':
			c.pos++
		default:
			return
		}
	}
}

func (c *canonWriter) value(depth int) bool {
	c.space()
	if c.pos >= len(c.src) || depth > maxCanonicalDepth {
		return false
	}
	switch b := c.src[c.pos]; {
	case b == '{':
		return c.object(depth)
	case b == '[':
		return c.array(depth)
	case b == '"':
		return c.string()
	case b == 't':
		return c.literal("true")
	case b == 'f':
		return c.literal("false")
	case b == 'n':
		return c.literal("null")
	case b == '-' || b >= '0' && b <= '9':
		return c.number()
	}
	return false
}

func (c *canonWriter) literal(lit string) bool {
	if !bytes.HasPrefix(c.src[c.pos:], []byte(lit)) {
		return false
	}
	c.out = append(c.out, lit...)
	c.pos += len(lit)
	return true
}

// string copies a string of printable ASCII without escapes.
func (c *canonWriter) string() bool {
	for i := c.pos + 1; i < len(c.src); i++ {
		switch b := c.src[i]; {
		case b == '"':
			c.out = append(c.out, c.src[c.pos:i+1]...)
			c.pos = i + 1
			return true
		case b < ' ' || b > '~' || b == '\\':
			return false
		}
	}
	return false
}

// number copies a number as written, once it follows JSON's grammar.
func (c *canonWriter) number() bool {
	s, i := c.src, c.pos
	if s[i] == '-' {
		i++
	}
	digits := func() bool {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i > start
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case !digits():
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	c.out = append(c.out, s[c.pos:i]...)
	c.pos = i
	return true
}

// take skips space and then b, when b comes next.
func (c *canonWriter) take(b byte) bool {
	c.space()
	if c.pos < len(c.src) && c.src[c.pos] == b {
		c.pos++
		return true
	}
	return false
}

func (c *canonWriter) array(depth int) bool {
	c.pos++
	c.out = append(c.out, '[')
	if c.take(']') {
		c.out = append(c.out, ']')
		return true
	}
	for {
		if !c.value(depth + 1) {
			return false
		}
		switch {
		case c.take(','):
			c.out = append(c.out, ',')
		case c.take(']'):
			c.out = append(c.out, ']')
			return true
		default:
			return false
		}
	}
}

// object writes the members one after another without commas, then puts
// them in the order of their keys with commas between them.
func (c *canonWriter) object(depth int) bool {
	c.pos++
	c.out = append(c.out, '{')
	base, first := len(c.out), len(c.members)
	defer func() { c.members = c.members[:first] }()
	if c.take('}') {
		c.out = append(c.out, '}')
		return true
	}
	for {
		c.space()
		start := len(c.out)
		if c.pos >= len(c.src) || c.src[c.pos] != '"' || !c.string() {
			return false
		}
		keyEnd := len(c.out) - 1
		if !c.take(':') {
			return false
		}
		c.out = append(c.out, ':')
		if !c.value(depth + 1) {
			return false
		}
		c.members = append(c.members, canonMember{start - base, keyEnd - base, len(c.out) - base})
		switch {
		case c.take(','):
		case c.take('}'):
			return c.order(base, c.members[first:])
		default:
			return false
		}
	}
}

// order rewrites the members written from base in the order of their
// keys, with commas, and closes the object; false when a key repeats.
func (c *canonWriter) order(base int, ms []canonMember) bool {
	c.tmp = append(c.tmp[:0], c.out[base:]...)
	key := func(m canonMember) []byte { return c.tmp[m.start+1 : m.keyEnd] }
	slices.SortFunc(ms, func(a, b canonMember) int { return bytes.Compare(key(a), key(b)) })
	c.out = c.out[:base]
	for i, m := range ms {
		if i > 0 {
			if bytes.Equal(key(ms[i-1]), key(m)) {
				return false
			}
			c.out = append(c.out, ',')
		}
		c.out = append(c.out, c.tmp[m.start:m.end]...)
	}
	c.out = append(c.out, '}')
	return true
}

// SyntaxError is what Canonical answers for data that is not one JSON
// value: the decoder's words.
type SyntaxError struct{ Err error }

func (e *SyntaxError) Error() string { return "the body is not JSON: " + e.Err.Error() }

func (e *SyntaxError) Unwrap() error { return e.Err }
