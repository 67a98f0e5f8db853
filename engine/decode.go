package engine

import (
	"fmt"
	"iter"
	"sort"
	"strconv"
	"strings"

	"github.com/revisor-sm/revisor/engine/internal/jsontree"
)

// DecodeError is the error of DecodeDeal, DecodeGame and ParseRules.
type DecodeError struct {
	// Syntax is true when the input is not JSON at all.
	Syntax bool
	// Problems lists what is wrong, each with a code (invalid_record,
	// invalid_card, unknown_rule, unknown_category ...) and a path.
	Problems []Problem
	// WrongTypes counts the problems that are a value of the wrong JSON
	// type (a string where a list belongs, a fraction where a whole number
	// does). The API answers those with 400 rather than an invalid result.
	WrongTypes int
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
	res := &GameResult{Errors: e.Problems, Violations: []Violation{}, Deals: []DealResult{},
		Scores: map[string]int{}, Winners: []string{}, Placements: []Placement{}, Forfeits: []string{}}
	res.boundErrors()
	return res
}

// DecodeDeal reads a deal record (docs/records.md). The error, if any, is a
// *DecodeError listing every problem of shape, card spelling and rules.
func DecodeDeal(data []byte) (*DealRecord, error) {
	var f fastDecoder
	if rec, ok := f.deal(data); ok {
		return rec, nil
	}
	return decodeDealTree(data)
}

// decodeDealTree is DecodeDeal without the fast path.
func decodeDealTree(data []byte) (*DealRecord, error) {
	v, d, derr := parseJSON(data)
	if derr != nil {
		return nil, derr
	}
	rec := d.deal(v, nil, true)
	if err := d.failed(); err != nil {
		return nil, err
	}
	return rec, nil
}

// DecodeGame reads a game record (docs/records.md). The error, if any, is a
// *DecodeError listing every problem of shape, card spelling and rules.
func DecodeGame(data []byte) (*GameRecord, error) {
	var f fastDecoder
	if g, ok := f.game(data); ok {
		return g, nil
	}
	return decodeGameTree(data)
}

// decodeGameTree is DecodeGame without the fast path.
func decodeGameTree(data []byte) (*GameRecord, error) {
	v, d, derr := parseJSON(data)
	if derr != nil {
		return nil, derr
	}
	g := d.game(v)
	if err := d.failed(); err != nil {
		return nil, err
	}
	return g, nil
}

// DecodeGameDeal reads one entry of a game's "deals": a score-sheet line
// ({"sheet": {...}}) or a full deal without rules, players, dealer and
// scores. The tournament appends such entries one by one to a game in
// progress (GameRecord.Deals). The error, if any, is a *DecodeError.
func DecodeGameDeal(data []byte) (GameDeal, error) {
	var f fastDecoder
	if gd, ok := f.gameDeal(data); ok {
		return gd, nil
	}
	return decodeGameDealTree(data)
}

// decodeGameDealTree is DecodeGameDeal without the fast path.
func decodeGameDealTree(data []byte) (GameDeal, error) {
	v, d, derr := parseJSON(data)
	if derr != nil {
		return GameDeal{}, derr
	}
	var gd GameDeal
	if obj, ok := d.object(v, nil); ok {
		if sv, ok := d.get(obj, "sheet"); ok {
			c := ptr{key: "sheet", idx: -1}
			gd.Sheet = d.sheet(sv, &c)
		} else {
			gd.Deal = d.deal(obj, nil, false)
		}
	}
	if err := d.failed(); err != nil {
		return GameDeal{}, err
	}
	return gd, nil
}

// parseJSON parses a whole document for a decoder.
func parseJSON(data []byte) (jsontree.Node, *decoder, *DecodeError) { return parseJSONWith(data, nil) }

// parseJSONWith is parseJSON with buffers to reuse (bufs may be nil).
func parseJSONWith(data []byte, bufs *jsontree.Buffers) (jsontree.Node, *decoder, *DecodeError) {
	root, t, err := jsontree.Parse(string(data), bufs)
	if err != nil {
		return jsontree.Node{}, nil, &DecodeError{Syntax: true, Problems: []Problem{{Code: "invalid_record", Path: "",
			Message: "not JSON: " + err.Error()}}}
	}
	return root, &decoder{t: t}, nil
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

// decoder walks a parsed JSON tree and collects problems.
type decoder struct {
	t          jsontree.Tree
	probs      []Problem
	wrongTypes int
	slab       []Card // the card lists are cut from it
	// root is what the decoded document is: a record (PartWhole), a rules
	// object (PartRules) or an overrides object (PartOverrides).
	root Part
}

func (d *decoder) add(code string, p *ptr, format string, args ...any) {
	d.probs = append(d.probs, Problem{Code: code, Path: p.String(), Message: fmt.Sprintf(format, args...),
		At: p.locate(d.root)})
}

// wrongType reports a value of the wrong JSON type at p.
func (d *decoder) wrongType(p *ptr, want, got string) {
	d.wrongTypes++
	d.add("invalid_record", p, "want %s, got %s", want, got)
}

// failed returns the decoding error for the problems found, if any.
func (d *decoder) failed() *DecodeError {
	if len(d.probs) == 0 {
		return nil
	}
	return &DecodeError{Problems: d.probs, WrongTypes: d.wrongTypes}
}

// kids returns the elements of an array, or the keys and values of an
// object, alternating.
func (d *decoder) kids(v jsontree.Node) []jsontree.Node { return d.t.Kids(v) }

// members iterates over the keys and values of an object in document order.
func (d *decoder) members(obj jsontree.Node) iter.Seq2[string, jsontree.Node] {
	return func(yield func(string, jsontree.Node) bool) {
		kids := d.kids(obj)
		for i := 0; i+1 < len(kids); i += 2 {
			if !yield(d.t.Text(kids[i]), kids[i+1]) {
				return
			}
		}
	}
}

// get returns the member key of an object (the last one when repeated).
func (d *decoder) get(obj jsontree.Node, key string) (jsontree.Node, bool) {
	kids := d.kids(obj)
	for i := len(kids) - 2; i >= 0; i -= 2 {
		if d.t.Text(kids[i]) == key {
			return kids[i+1], true
		}
	}
	return jsontree.Node{}, false
}

// opt returns a member that is present and not null.
func (d *decoder) opt(obj jsontree.Node, key string) (jsontree.Node, bool) {
	v, ok := d.get(obj, key)
	return v, ok && v.Kind() != jsontree.Null
}

func typeName(v jsontree.Node) string {
	return [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}[v.Kind()]
}

func (d *decoder) object(v jsontree.Node, p *ptr) (jsontree.Node, bool) {
	if v.Kind() != jsontree.Obj {
		d.wrongType(p, "an object", typeName(v))
		return v, false
	}
	return v, true
}

func (d *decoder) array(v jsontree.Node, p *ptr) ([]jsontree.Node, bool) {
	if v.Kind() != jsontree.Arr {
		d.wrongType(p, "an array", typeName(v))
		return nil, false
	}
	return d.kids(v), true
}

func (d *decoder) str(v jsontree.Node, p *ptr) (string, bool) {
	if v.Kind() != jsontree.Str {
		d.wrongType(p, "a string", typeName(v))
		return "", false
	}
	return d.t.Text(v), true
}

func (d *decoder) integer(v jsontree.Node, p *ptr) (int, bool) {
	if v.Kind() != jsontree.Num {
		d.wrongType(p, "a whole number", typeName(v))
		return 0, false
	}
	s := d.t.Text(v)
	if i, err := strconv.Atoi(s); err == nil && i > -1<<53 && i < 1<<53 {
		return i, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !isIntegral(f) {
		d.wrongType(p, "a whole number", s)
		return 0, false
	}
	return int(f), true
}

func (d *decoder) card(v jsontree.Node, p *ptr) (Card, bool) {
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
// The lists are cut from one slab to save allocations.
func (d *decoder) cards(v jsontree.Node, p *ptr) []Card {
	a, ok := d.array(v, p)
	if !ok {
		return nil
	}
	if len(a) == 0 {
		return []Card{} // never nil: nil is an absent list
	}
	if cap(d.slab)-len(d.slab) < len(a) {
		d.slab = make([]Card, 0, max(256, len(a)))
	}
	base := len(d.slab)
	for i, e := range a {
		c := p.index(i)
		if card, ok := d.card(e, &c); ok {
			d.slab = append(d.slab, card)
		}
	}
	return d.slab[base:len(d.slab):len(d.slab)]
}

// field returns a member; a missing required member is reported.
func (d *decoder) field(obj jsontree.Node, k string, p *ptr, required bool) (jsontree.Node, bool) {
	v, ok := d.get(obj, k)
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
