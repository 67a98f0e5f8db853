// Package jsontree is the engine's small JSON parser, for the records the
// fast path of package engine does not read. It builds a Tree of nodes in
// one arena (children of a container are contiguous), keeps strings as
// substrings of the input and never uses reflection, so decoding a deal
// costs a handful of allocations. Object members keep document order;
// package engine looks members up (with duplicate keys the last one wins,
// as in encoding/json) and reports problems with their paths.
package jsontree

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Kind is the type of a JSON value.
type Kind uint8

const (
	Null Kind = iota
	Bool
	Num
	Str
	Arr
	Obj
)

// Node is a JSON value. It holds no pointers, so the arena is never
// scanned by the garbage collector. Strings and number literals are
// src[off:off+ln]; a string with escapes is decoded into strs[-ln-1].
// The children of an object are key (a string Node) and value, alternating.
type Node struct {
	kind    Kind
	b       bool
	off, ln int32
	lo, n   int32 // children: arena[lo : lo+n]
}

// Kind returns the type of n.
func (n Node) Kind() Kind { return n.kind }

// True reports whether n is the literal true.
func (n Node) True() bool { return n.b }

// Len returns the number of children of an array or object node (an
// object's keys and values both count).
func (n Node) Len() int { return int(n.n) }

const maxDepth = 256

type parser struct {
	src   string
	pos   int
	arena []Node
	stack []Node
	strs  []string // decoded strings that had escapes
	depth int
}

// Tree is a parsed document.
type Tree struct {
	src   string
	arena []Node
	strs  []string
}

// Text returns the string of a string or number node.
func (t *Tree) Text(n Node) string {
	if n.ln < 0 {
		return t.strs[-n.ln-1]
	}
	return t.src[n.off : n.off+n.ln]
}

// Kids returns the children of an array or object node: an object's are
// its keys and values, alternating.
func (t *Tree) Kids(n Node) []Node { return t.arena[n.lo : n.lo+n.n] }

// Buffers are the arena and stack of a parse, kept for the next one
// by a Validator. The Tree of a parse is valid until the next parse with
// the same buffers.
type Buffers struct {
	arena, stack []Node
}

// maxKeptNodes bounds the buffers kept between parses.
const maxKeptNodes = 1 << 16

// Parse parses one JSON document. It returns the root and the Tree,
// or a syntax error. With bufs nil it allocates its own buffers.
func Parse(src string, bufs *Buffers) (Node, Tree, error) {
	if len(src) > 1<<30 {
		return Node{}, Tree{}, fmt.Errorf("document too large")
	}
	p := parser{src: src}
	if bufs != nil {
		p.arena, p.stack = bufs.arena[:0], bufs.stack[:0]
	}
	if cap(p.arena) < len(src)/5+16 {
		p.arena = make([]Node, 0, len(src)/5+16)
	}
	if cap(p.stack) < 64 {
		p.stack = make([]Node, 0, 64)
	}
	p.space()
	v, err := p.value()
	if bufs != nil && cap(p.arena) <= maxKeptNodes && cap(p.stack) <= maxKeptNodes {
		bufs.arena, bufs.stack = p.arena[:0], p.stack[:0] // kept unless a huge record grew them
	}
	if err != nil {
		return Node{}, Tree{}, err
	}
	p.space()
	if p.pos != len(p.src) {
		return Node{}, Tree{}, p.errorf("data after the JSON value")
	}
	return v, Tree{src: src, arena: p.arena, strs: p.strs}, nil
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("offset %d: %s", p.pos, fmt.Sprintf(format, args...))
}

func (p *parser) space() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value() (Node, error) {
	if p.pos >= len(p.src) {
		return Node{}, p.errorf("unexpected end of input")
	}
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.container(Obj, '}')
	case c == '[':
		return p.container(Arr, ']')
	case c == '"':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	switch {
	case p.literal("true"):
		return Node{kind: Bool, b: true}, nil
	case p.literal("false"):
		return Node{kind: Bool}, nil
	case p.literal("null"):
		return Node{kind: Null}, nil
	}
	return Node{}, p.errorf("invalid character %q", p.src[p.pos])
}

// literal consumes text if the input continues with it.
func (p *parser) literal(text string) bool {
	if strings.HasPrefix(p.src[p.pos:], text) {
		p.pos += len(text)
		return true
	}
	return false
}

// container parses an array or object; its children go to the arena
// contiguously once the container is complete.
func (p *parser) container(k Kind, end byte) (Node, error) {
	if p.depth++; p.depth > maxDepth {
		return Node{}, p.errorf("nesting deeper than %d", maxDepth)
	}
	v, err := p.items(k, end)
	p.depth--
	return v, err
}

// items parses the elements or members of a container after its depth is
// counted.
func (p *parser) items(k Kind, end byte) (Node, error) {
	p.pos++
	start := len(p.stack)
	p.space()
	if p.pos < len(p.src) && p.src[p.pos] == end {
		p.pos++
		return Node{kind: k}, nil
	}
	for {
		p.space()
		if k == Obj {
			if p.pos >= len(p.src) || p.src[p.pos] != '"' {
				return Node{}, p.errorf("want an object key")
			}
			key, err := p.str()
			if err != nil {
				return Node{}, err
			}
			p.stack = append(p.stack, key)
			p.space()
			if p.pos >= len(p.src) || p.src[p.pos] != ':' {
				return Node{}, p.errorf("want ':' after an object key")
			}
			p.pos++
			p.space()
		}
		v, err := p.value()
		if err != nil {
			return Node{}, err
		}
		p.stack = append(p.stack, v)
		p.space()
		if p.pos >= len(p.src) {
			return Node{}, p.errorf("unexpected end of input")
		}
		if c := p.src[p.pos]; c == ',' {
			p.pos++
			continue
		} else if c == end {
			p.pos++
			break
		}
		return Node{}, p.errorf("invalid character %q in a list", p.src[p.pos])
	}
	lo := len(p.arena)
	p.arena = append(p.arena, p.stack[start:]...)
	p.stack = p.stack[:start]
	return Node{kind: k, lo: int32(lo), n: int32(len(p.arena) - lo)}, nil
}

// str parses a string at p.pos (an opening quote).
func (p *parser) str() (Node, error) {
	p.pos++
	start := p.pos
	end := strings.IndexByte(p.src[start:], '"')
	if end < 0 {
		end = len(p.src) - start
	}
	for i := start; i < start+end; i++ {
		if c := p.src[i]; c == '\\' || c < 0x20 {
			p.pos = i
			if c < 0x20 {
				return Node{}, p.errorf("control character in a string")
			}
			s, err := p.escaped(start)
			p.strs = append(p.strs, s)
			return Node{kind: Str, ln: int32(-len(p.strs))}, err
		}
	}
	p.pos = start + end
	if p.pos >= len(p.src) {
		return Node{}, p.errorf("unterminated string")
	}
	p.pos++
	return Node{kind: Str, off: int32(start), ln: int32(end)}, nil
}

// escaped finishes a string that contains escapes.
func (p *parser) escaped(start int) (string, error) {
	buf := []byte(p.src[start:p.pos])
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == '"':
			p.pos++
			return string(buf), nil
		case c < 0x20:
			return "", p.errorf("control character in a string")
		case c != '\\':
			buf = append(buf, c)
			p.pos++
			continue
		}
		if p.pos+1 >= len(p.src) {
			break
		}
		e := p.src[p.pos+1]
		p.pos += 2
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, err := p.unicode()
			if err != nil {
				return "", err
			}
			buf = utf8.AppendRune(buf, r)
		default:
			return "", p.errorf("invalid escape \\%c", e)
		}
	}
	return "", p.errorf("unterminated string")
}

// unicode reads the hex digits of a \u escape (and a following low
// surrogate when needed).
func (p *parser) unicode() (rune, error) {
	r, ok := p.hex4()
	if !ok {
		return 0, p.errorf("invalid \\u escape")
	}
	if utf16.IsSurrogate(r) {
		if p.pos+1 < len(p.src) && p.src[p.pos] == '\\' && p.src[p.pos+1] == 'u' {
			save := p.pos
			p.pos += 2
			if r2, ok := p.hex4(); ok {
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					return d, nil
				}
			}
			p.pos = save
		}
		return utf8.RuneError, nil
	}
	return r, nil
}

func (p *parser) hex4() (rune, bool) {
	if p.pos+4 > len(p.src) {
		return 0, false
	}
	v, err := strconv.ParseUint(p.src[p.pos:p.pos+4], 16, 32)
	if err != nil {
		return 0, false
	}
	p.pos += 4
	return rune(v), true
}

// number checks the JSON number grammar and keeps the literal.
func (p *parser) number() (Node, error) {
	start := p.pos
	if p.src[p.pos] == '-' {
		p.pos++
	}
	switch {
	case p.pos < len(p.src) && p.src[p.pos] == '0':
		p.pos++
	case p.digits() == 0:
		return Node{}, p.errorf("invalid number")
	}
	if p.pos < len(p.src) && p.src[p.pos] == '.' {
		p.pos++
		if p.digits() == 0 {
			return Node{}, p.errorf("invalid number")
		}
	}
	if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		if p.digits() == 0 {
			return Node{}, p.errorf("invalid number")
		}
	}
	return Node{kind: Num, off: int32(start), ln: int32(p.pos - start)}, nil
}

func (p *parser) digits() int {
	n := 0
	for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
		p.pos++
		n++
	}
	return n
}
