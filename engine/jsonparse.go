package engine

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// A small JSON parser for records. It builds a tree of nodes in one arena
// (children of a container are contiguous), keeps strings as substrings of
// the input and never uses reflection, so decoding a deal costs a handful of
// allocations. Object members keep document order; with duplicate keys the
// last one wins, as in encoding/json.

type kind uint8

const (
	kNull kind = iota
	kBool
	kNum
	kStr
	kArr
	kObj
)

// node is a JSON value. For numbers s holds the literal. The children of
// an object are key (a string node) and value, alternating.
type node struct {
	kind  kind
	b     bool
	s     string
	lo, n int32 // children: arena[lo : lo+n]
}

const maxDepth = 256

type parser struct {
	src   string
	pos   int
	arena []node
	stack []node
	depth int
}

// parseTree parses one JSON document into an arena. It returns the root
// and the arena, or a syntax error.
func parseTree(src string) (node, []node, error) {
	p := parser{src: src, arena: make([]node, 0, len(src)/5+16), stack: make([]node, 0, 64)}
	p.space()
	v, err := p.value()
	if err != nil {
		return node{}, nil, err
	}
	p.space()
	if p.pos != len(p.src) {
		return node{}, nil, p.errorf("data after the JSON value")
	}
	return v, p.arena, nil
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

func (p *parser) value() (node, error) {
	if p.pos >= len(p.src) {
		return node{}, p.errorf("unexpected end of input")
	}
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.container(kObj, '}')
	case c == '[':
		return p.container(kArr, ']')
	case c == '"':
		s, err := p.str()
		return node{kind: kStr, s: s}, err
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	for _, lit := range [...]struct {
		text string
		n    node
	}{{"true", node{kind: kBool, b: true}}, {"false", node{kind: kBool}}, {"null", node{kind: kNull}}} {
		if len(p.src)-p.pos >= len(lit.text) && p.src[p.pos:p.pos+len(lit.text)] == lit.text {
			p.pos += len(lit.text)
			return lit.n, nil
		}
	}
	return node{}, p.errorf("invalid character %q", p.src[p.pos])
}

// container parses an array or object; its children go to the arena
// contiguously once the container is complete.
func (p *parser) container(k kind, end byte) (node, error) {
	if p.depth++; p.depth > maxDepth {
		return node{}, p.errorf("nesting deeper than %d", maxDepth)
	}
	defer func() { p.depth-- }()
	p.pos++
	start := len(p.stack)
	p.space()
	if p.pos < len(p.src) && p.src[p.pos] == end {
		p.pos++
		return node{kind: k}, nil
	}
	for {
		p.space()
		if k == kObj {
			if p.pos >= len(p.src) || p.src[p.pos] != '"' {
				return node{}, p.errorf("want an object key")
			}
			key, err := p.str()
			if err != nil {
				return node{}, err
			}
			p.stack = append(p.stack, node{kind: kStr, s: key})
			p.space()
			if p.pos >= len(p.src) || p.src[p.pos] != ':' {
				return node{}, p.errorf("want ':' after an object key")
			}
			p.pos++
			p.space()
		}
		v, err := p.value()
		if err != nil {
			return node{}, err
		}
		p.stack = append(p.stack, v)
		p.space()
		if p.pos >= len(p.src) {
			return node{}, p.errorf("unexpected end of input")
		}
		if c := p.src[p.pos]; c == ',' {
			p.pos++
			continue
		} else if c == end {
			p.pos++
			break
		}
		return node{}, p.errorf("invalid character %q in a list", p.src[p.pos])
	}
	lo := len(p.arena)
	p.arena = append(p.arena, p.stack[start:]...)
	p.stack = p.stack[:start]
	return node{kind: k, lo: int32(lo), n: int32(len(p.arena) - lo)}, nil
}

// str parses a string at p.pos (an opening quote).
func (p *parser) str() (string, error) {
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
				return "", p.errorf("control character in a string")
			}
			return p.escaped(start)
		}
	}
	p.pos = start + end
	if p.pos >= len(p.src) {
		return "", p.errorf("unterminated string")
	}
	p.pos++
	return p.src[start : start+end], nil
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
func (p *parser) number() (node, error) {
	start := p.pos
	if p.src[p.pos] == '-' {
		p.pos++
	}
	switch {
	case p.pos < len(p.src) && p.src[p.pos] == '0':
		p.pos++
	case p.digits() == 0:
		return node{}, p.errorf("invalid number")
	}
	if p.pos < len(p.src) && p.src[p.pos] == '.' {
		p.pos++
		if p.digits() == 0 {
			return node{}, p.errorf("invalid number")
		}
	}
	if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		if p.digits() == 0 {
			return node{}, p.errorf("invalid number")
		}
	}
	return node{kind: kNum, s: p.src[start:p.pos]}, nil
}

func (p *parser) digits() int {
	n := 0
	for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
		p.pos++
		n++
	}
	return n
}
