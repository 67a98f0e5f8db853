package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// DecodeError is the error of DecodeDeal, DecodeGame and ParseRules.
type DecodeError struct {
	// Syntax is true when the input is not JSON at all.
	Syntax bool
	// Problems lists what is wrong, each with a code (invalid_record,
	// invalid_card, unknown_rule, unknown_category ...) and a path.
	Problems []Problem
}

// Error summarises the problems.
func (e *DecodeError) Error() string {
	if len(e.Problems) == 0 {
		return "invalid record"
	}
	msg := e.Problems[0].Code + " at " + strconv.Quote(e.Problems[0].Path) + ": " + e.Problems[0].Message
	if n := len(e.Problems) - 1; n > 0 {
		msg += fmt.Sprintf(" (and %d more)", n)
	}
	return msg
}

// DealResult returns the result for a deal record that could not be decoded:
// invalid, with the decode problems as errors.
func (e *DecodeError) DealResult() *DealResult {
	return &DealResult{Errors: e.Problems, Violations: []Violation{}, Awards: []Award{},
		Points: map[string]int{}, Scores: map[string]int{}, Winners: []string{}}
}

// GameResult returns the result for a game record that could not be decoded:
// invalid, with the decode problems as errors.
func (e *DecodeError) GameResult() *GameResult {
	return &GameResult{Errors: e.Problems, Violations: []Violation{}, Deals: []DealResult{},
		Scores: map[string]int{}, Winners: []string{}, Placements: []Placement{}, Forfeits: []string{}}
}

// DecodeDeal reads a deal record (records.md). The error, if any, is a
// *DecodeError listing every problem of shape, card spelling and rules.
func DecodeDeal(data []byte) (*DealRecord, error) {
	v, derr := parseJSON(data)
	if derr != nil {
		return nil, derr
	}
	var d decoder
	rec := d.deal(v, nil, true)
	if len(d.probs) > 0 {
		return nil, &DecodeError{Problems: d.probs}
	}
	return rec, nil
}

// DecodeGame reads a game record (records.md). The error, if any, is a
// *DecodeError listing every problem of shape, card spelling and rules.
func DecodeGame(data []byte) (*GameRecord, error) {
	v, derr := parseJSON(data)
	if derr != nil {
		return nil, derr
	}
	var d decoder
	g := d.game(v)
	if len(d.probs) > 0 {
		return nil, &DecodeError{Problems: d.probs}
	}
	return g, nil
}

// parseJSON decodes one JSON value with numbers kept exact.
func parseJSON(data []byte) (any, *DecodeError) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	if err == nil {
		if _, err2 := dec.Token(); !errors.Is(err2, io.EOF) {
			err = errors.New("data after the JSON value")
		}
	}
	if err != nil {
		return nil, &DecodeError{Syntax: true, Problems: []Problem{{Code: "invalid_record", Path: "",
			Message: "not JSON: " + err.Error()}}}
	}
	return v, nil
}

// ptr is a JSON Pointer under construction; it becomes a string only when a
// problem is reported. A nil *ptr is the root.
type ptr struct {
	up  *ptr
	key string
	idx int // >= 0: an array index; -1: key
}

func (p *ptr) field(k string) ptr { return ptr{up: p, key: k, idx: -1} }
func (p *ptr) index(i int) ptr    { return ptr{up: p, idx: i} }

// String returns the RFC 6901 form.
func (p *ptr) String() string {
	if p == nil {
		return ""
	}
	if p.idx >= 0 {
		return p.up.String() + "/" + strconv.Itoa(p.idx)
	}
	return p.up.String() + "/" + escapeKey(p.key)
}

func escapeKey(k string) string {
	if !strings.ContainsAny(k, "~/") {
		return k
	}
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

// decoder walks a decoded JSON value and collects problems.
type decoder struct {
	probs []Problem
}

func (d *decoder) add(code string, p *ptr, format string, args ...any) {
	d.probs = append(d.probs, Problem{Code: code, Path: p.String(), Message: fmt.Sprintf(format, args...)})
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number, float64, int:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func (d *decoder) object(v any, p *ptr) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		d.add("invalid_record", p, "want an object, got %s", typeName(v))
	}
	return m, ok
}

func (d *decoder) array(v any, p *ptr) ([]any, bool) {
	a, ok := v.([]any)
	if !ok {
		d.add("invalid_record", p, "want an array, got %s", typeName(v))
	}
	return a, ok
}

func (d *decoder) str(v any, p *ptr) (string, bool) {
	s, ok := v.(string)
	if !ok {
		d.add("invalid_record", p, "want a string, got %s", typeName(v))
	}
	return s, ok
}

func (d *decoder) integer(v any, p *ptr) (int, bool) {
	var f float64
	switch n := v.(type) {
	case int:
		return n, true
	case json.Number:
		if i, err := strconv.Atoi(string(n)); err == nil && i > -1<<53 && i < 1<<53 {
			return i, true
		}
		g, err := n.Float64()
		if err != nil {
			d.add("invalid_record", p, "number %s out of range", n)
			return 0, false
		}
		f = g
	case float64:
		f = n
	default:
		d.add("invalid_record", p, "want a whole number, got %s", typeName(v))
		return 0, false
	}
	if !isIntegral(f) {
		d.add("invalid_record", p, "want a whole number, got %v", f)
		return 0, false
	}
	return int(f), true
}

func (d *decoder) card(v any, p *ptr) (Card, bool) {
	s, ok := d.str(v, p)
	if !ok {
		return 0, false
	}
	c, err := ParseCard(s)
	if err != nil {
		d.add("invalid_card", p, "%q is not a card", s)
		return 0, false
	}
	return c, true
}

// cards decodes a list of cards; invalid entries are reported and left out.
func (d *decoder) cards(v any, p *ptr) []Card {
	a, ok := d.array(v, p)
	if !ok {
		return nil
	}
	out := make([]Card, 0, len(a))
	for i, e := range a {
		c := p.index(i)
		if card, ok := d.card(e, &c); ok {
			out = append(out, card)
		}
	}
	return out
}

// field returns obj[k]; a missing required field is reported.
func (d *decoder) field(obj map[string]any, k string, p *ptr, required bool) (any, bool) {
	v, ok := obj[k]
	if !ok && required {
		d.add("invalid_record", p, "missing %q", k)
	}
	return v, ok
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
