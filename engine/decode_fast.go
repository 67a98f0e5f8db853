package engine

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// The fast path for deal records. fastDecoder reads the common shape of a
// deal record in one pass over the bytes, straight into a DealRecord,
// without a tree: compact or indented JSON, strings without escapes, whole
// numbers, every member of the expected type and no member twice. At the
// first thing it does not handle (an escape, a wrong type, a missing or
// repeated member, an invalid card, a "deals" member, deep nesting, any
// syntax error) it gives up, and the caller decodes the record with the
// tree decoder (decode.go), which reports every problem with its path. So
// the fast path decides nothing on its own: what it accepts is valid JSON
// and decodes to exactly what the tree decoder returns
// (TestFastDecodeMatchesTree, FuzzFastDecode).

// fastDecoder keeps its buffers between records; one per goroutine.
type fastDecoder struct {
	src  []byte
	pos  int
	slab []Card // the card lists of the current record are cut from it

	names    []internedName // recently interned strings
	nextName int            // the slot of names to reuse next once full

	xs     []Exchange // scratch for the rounds of a record
	as     []Announcement
	ps     []Play
	bounds []int
	strs   []string

	rulesSrc []byte // the last "rules" value decoded, and its rules
	rules    Rules
	hasRules bool
}

// internedName is an interned string and its packName, or longName.
type internedName struct {
	key uint64
	s   string
}

// maxNames bounds the strings interned by a fastDecoder.
const maxNames = 32

// maxSkipDepth bounds the nesting of unknown members the fast path skips.
const maxSkipDepth = 64

// Members of a deal record, as bits.
const (
	mRules = 1 << iota
	mPlayers
	mDealer
	mScores
	mDeck
	mHands
	mExchanges
	mAnnouncements
	mChicago
	mTricks

	mRequired = mPlayers | mDealer | mHands | mExchanges | mAnnouncements | mTricks
)

// deal decodes a stand-alone deal record (with rules, players, dealer and
// scores). ok is false when the record needs the tree decoder.
func (f *fastDecoder) deal(data []byte) (rec *DealRecord, ok bool) {
	f.src, f.pos = data, 0
	f.slab = make([]Card, 0, len(data)/5+1)
	rec = &DealRecord{}
	ok = f.dealMembers(rec)
	if ok {
		f.space()
		ok = f.pos == len(f.src)
	}
	f.src = nil
	return rec, ok
}

// dealMembers reads the deal object.
func (f *fastDecoder) dealMembers(rec *DealRecord) bool {
	seen := 0
	more, ok := f.begin('{', '}')
	for ; more && ok; more, ok = f.after('}') {
		k, ok := f.key()
		if !ok {
			return false
		}
		bit, ok := f.dealMember(rec, k)
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
	}
	return ok && seen&mRequired == mRequired
}

// dealMember reads the value of member k into rec and returns k's bit.
func (f *fastDecoder) dealMember(rec *DealRecord, k []byte) (int, bool) {
	switch string(k) {
	case "rules":
		return mRules, f.null() || f.rulesValue(rec)
	case "players":
		var ok bool
		rec.Players, ok = f.strings()
		return mPlayers, ok
	case "dealer":
		var ok bool
		rec.Dealer, ok = f.name()
		return mDealer, ok
	case "scores":
		if f.null() {
			return mScores, true
		}
		var ok bool
		rec.Scores, ok = f.scores()
		return mScores, ok
	case "deck":
		return mDeck, f.deck(rec)
	case "hands":
		var ok bool
		rec.Hands, ok = f.hands()
		return mHands, ok
	case "exchanges":
		var ok bool
		rec.Exchanges, ok = fastRounds(f, &f.xs, (*fastDecoder).exchange)
		return mExchanges, ok
	case "announcements":
		var ok bool
		rec.Announcements, ok = fastRounds(f, &f.as, (*fastDecoder).announcement)
		return mAnnouncements, ok
	case "chicago":
		if f.null() {
			return mChicago, true
		}
		var ok bool
		rec.Chicago, ok = f.name()
		return mChicago, ok
	case "tricks":
		var ok bool
		rec.Tricks, ok = fastRounds(f, &f.ps, (*fastDecoder).play)
		return mTricks, ok
	case "deals":
		return 0, false // a game
	}
	return 0, f.skip(0)
}

// deck reads the "deck" member; an empty deck is no recorded deck, as in
// the tree decoder.
func (f *fastDecoder) deck(rec *DealRecord) bool {
	if f.null() {
		return true
	}
	deck, ok := f.cards()
	if len(deck) > 0 {
		rec.Deck = deck
	}
	return ok
}

// rulesValue decodes a "rules" value with the tree decoder's rules reader,
// reusing the last result when the text is the same.
func (f *fastDecoder) rulesValue(rec *DealRecord) bool {
	f.space()
	start := f.pos
	if !f.skip(0) {
		return false
	}
	span := f.src[start:f.pos]
	if !f.hasRules || !bytes.Equal(span, f.rulesSrc) {
		root, t, err := parseTree(string(span), nil)
		if err != nil {
			return false
		}
		d := decoder{t: t}
		c := ptr{key: "rules", idx: -1}
		r := d.rules(root, &c)
		if len(d.probs) > 0 {
			return false
		}
		f.rules, f.hasRules = r, true
		f.rulesSrc = append(f.rulesSrc[:0], span...)
	}
	r := f.rules
	rec.Rules = &r
	return true
}

// fastRounds reads an array of arrays of objects (exchange rounds,
// announcement phases, tricks) into one backing array.
func fastRounds[T any](f *fastDecoder, scratch *[]T, elem func(*fastDecoder, *T) bool) ([][]T, bool) {
	s, bounds := (*scratch)[:0], f.bounds[:0]
	more, ok := f.begin('[', ']')
	for ; more && ok; more, ok = f.after(']') {
		m, ok := f.begin('[', ']')
		for ; m && ok; m, ok = f.after(']') {
			var zero T
			s = append(s, zero)
			if !elem(f, &s[len(s)-1]) {
				return nil, false
			}
		}
		if !ok {
			return nil, false
		}
		bounds = append(bounds, len(s))
	}
	*scratch, f.bounds = s, bounds
	if !ok {
		return nil, false
	}
	all := make([]T, len(s))
	copy(all, s)
	clear(s)
	out := make([][]T, len(bounds))
	lo := 0
	for i, hi := range bounds {
		out[i] = all[lo:hi:hi]
		lo = hi
	}
	return out, true
}

// Members of entries, as bits.
const (
	mPlayer = 1 << iota
	mShow
	mDiscard
	mDraw
	mOpen
	mReshuffled
	mAnnounce
	mCard
	mTaken
)

// exchange reads one exchange object.
func (f *fastDecoder) exchange(x *Exchange) bool {
	seen := 0
	more, ok := f.begin('{', '}')
	for ; more && ok; more, ok = f.after('}') {
		k, ok := f.key()
		if !ok {
			return false
		}
		bit := 0
		switch string(k) {
		case "player":
			bit = mPlayer
			x.Player, ok = f.name()
		case "show":
			bit = mShow
			ok = f.optCards(&x.Show)
		case "discard":
			bit = mDiscard
			ok = f.optCards(&x.Discard)
		case "draw":
			bit = mDraw
			ok = f.optCards(&x.Draw)
		case "open":
			bit = mOpen
			ok = f.null() || f.open(x)
		case "reshuffled":
			bit = mReshuffled
			ok = f.null() || f.boolean(&x.Reshuffled)
		default:
			ok = f.skip(0)
		}
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
	}
	return ok && seen&mPlayer != 0
}

// optCards reads a list of cards or null (which leaves *dst nil).
func (f *fastDecoder) optCards(dst *[]Card) bool {
	if f.null() {
		return true
	}
	var ok bool
	*dst, ok = f.cards()
	return ok
}

// open reads an open card object.
func (f *fastDecoder) open(x *Exchange) bool {
	o := &OpenCard{}
	seen := 0
	more, ok := f.begin('{', '}')
	for ; more && ok; more, ok = f.after('}') {
		k, ok := f.key()
		if !ok {
			return false
		}
		bit := 0
		switch string(k) {
		case "card":
			bit = mCard
			o.Card, ok = f.card()
		case "taken":
			bit = mTaken
			ok = f.boolean(&o.Taken)
		default:
			ok = f.skip(0)
		}
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
	}
	x.Open = o
	return ok && seen == mCard|mTaken
}

// announcement reads one entry of an announcement phase.
func (f *fastDecoder) announcement(a *Announcement) bool {
	seen := 0
	more, ok := f.begin('{', '}')
	for ; more && ok; more, ok = f.after('}') {
		k, ok := f.key()
		if !ok {
			return false
		}
		bit := 0
		switch string(k) {
		case "player":
			bit = mPlayer
			a.Player, ok = f.name()
		case "announce":
			bit = mAnnounce
			if !f.null() {
				a.Announce, ok = f.name()
			}
		default:
			ok = f.skip(0)
		}
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
	}
	return ok && seen&mPlayer != 0
}

// play reads one card played to a trick.
func (f *fastDecoder) play(p *Play) bool {
	seen := 0
	more, ok := f.begin('{', '}')
	for ; more && ok; more, ok = f.after('}') {
		k, ok := f.key()
		if !ok {
			return false
		}
		bit := 0
		switch string(k) {
		case "player":
			bit = mPlayer
			p.Player, ok = f.name()
		case "card":
			bit = mCard
			p.Card, ok = f.card()
		default:
			ok = f.skip(0)
		}
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
	}
	return ok && seen == mPlayer|mCard
}

// strings reads an array of strings.
func (f *fastDecoder) strings() ([]string, bool) {
	s := f.strs[:0]
	more, ok := f.begin('[', ']')
	for ; more && ok; more, ok = f.after(']') {
		name, ok := f.name()
		if !ok {
			return nil, false
		}
		s = append(s, name)
	}
	f.strs = s
	if !ok {
		return nil, false
	}
	out := make([]string, len(s))
	copy(out, s)
	return out, true
}

// hands reads the object of hands.
func (f *fastDecoder) hands() (map[string][]Card, bool) {
	if f.peek() != '{' {
		return nil, false
	}
	out := make(map[string][]Card, 4)
	more, ok := f.begin('{', '}')
	for ; more && ok; more, ok = f.after('}') {
		k, ok := f.key()
		if !ok {
			return nil, false
		}
		name := f.intern(k)
		out[name], ok = f.cards()
		if !ok {
			return nil, false
		}
	}
	return out, ok
}

// scores reads an object of whole numbers.
func (f *fastDecoder) scores() (map[string]int, bool) {
	if f.peek() != '{' {
		return nil, false
	}
	out := make(map[string]int, 4)
	more, ok := f.begin('{', '}')
	for ; more && ok; more, ok = f.after('}') {
		k, ok := f.key()
		if !ok {
			return nil, false
		}
		name := f.intern(k)
		out[name], ok = f.integer()
		if !ok {
			return nil, false
		}
	}
	return out, ok
}

// cards reads a list of cards, cut from the slab.
func (f *fastDecoder) cards() ([]Card, bool) {
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

// card reads a card string.
func (f *fastDecoder) card() (Card, bool) {
	// The common case: two characters, rank and suit, at the current
	// position.
	if p := f.pos; p+4 <= len(f.src) && f.src[p] == '"' && f.src[p+3] == '"' {
		if r, s := rankIndex(f.src[p+1]), suitByte(f.src[p+2]); r >= 0 && s >= 0 {
			f.pos = p + 4
			return NewCard(r, s), true
		}
	}
	b, ok := f.str()
	if !ok {
		return 0, false
	}
	c, err := ParseCard(string(b))
	return c, err == nil
}

// name reads a string and interns it.
func (f *fastDecoder) name() (string, bool) {
	b, ok := f.str()
	if !ok {
		return "", false
	}
	return f.intern(b), true
}

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
	key := packName(b)
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
	k, ok := f.str()
	if !ok || f.peek() != ':' {
		return nil, false
	}
	f.pos++
	return k, true
}

// str reads a string without escapes or control characters. It looks at
// eight bytes at a time (see stringEnd).
func (f *fastDecoder) str() ([]byte, bool) {
	if f.peek() != '"' {
		return nil, false
	}
	start := f.pos + 1
	for i := start; i+8 <= len(f.src); i += 8 {
		if m := stringEnd(binary.LittleEndian.Uint64(f.src[i:])); m != 0 {
			i += bits.TrailingZeros64(m) / 8
			if f.src[i] != '"' {
				return nil, false
			}
			f.pos = i + 1
			return f.src[start:i], true
		}
	}
	for i, c := range f.src[start:] {
		if c == '"' {
			f.pos = start + i + 1
			return f.src[start : start+i], true
		}
		if c == '\\' || c < 0x20 {
			return nil, false
		}
	}
	return nil, false
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
