package engine

import (
	"bytes"

	"github.com/revisor-sm/revisor/engine/internal/jsonscan"
	"github.com/revisor-sm/revisor/engine/internal/jsontree"
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
	jsonscan.Scanner
	slab []Card // the card lists of the current record are cut from it

	names jsonscan.Interner // recently interned strings

	xs     []Exchange // scratch for the rounds of a record
	as     []Announcement
	ps     []Play
	bounds []int
	strs   []string

	sawDeals bool // deal gave up at a top-level "deals" member: a game
	sawSheet bool // a game's deal gave up at a "sheet" member: a score-sheet line

	rulesSrc []byte // the last "rules" value decoded, and its rules
	rules    Rules
	hasRules bool
}

// maxKeptScratch bounds the scratch buffers a fastDecoder keeps between
// records (elements or bytes).
const maxKeptScratch = 1 << 12

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

	mDeals
	mEndedBy

	mRequiredInGame = mHands | mExchanges | mAnnouncements | mTricks
	mRequired       = mPlayers | mDealer | mRequiredInGame
	mRequiredGame   = mPlayers | mDealer | mDeals
)

// deal decodes a stand-alone deal record (with rules, players, dealer and
// scores). ok is false when the record needs the tree decoder.
func (f *fastDecoder) deal(data []byte) (rec *DealRecord, ok bool) {
	f.Src, f.Pos = data, 0
	f.slab = make([]Card, 0, len(data)/5+1)
	rec = &DealRecord{}
	f.sawDeals = false
	ok = f.dealMembers(rec, false)
	if ok {
		f.Space()
		ok = f.Pos == len(f.Src)
	}
	f.Src = nil
	return rec, ok
}

// game decodes a game record whose deals are all full deals (no
// score-sheet lines). ok is false when the record needs the tree decoder.
func (f *fastDecoder) game(data []byte) (g *GameRecord, ok bool) {
	f.Src, f.Pos = data, 0
	f.slab = make([]Card, 0, len(data)/5+1)
	g = &GameRecord{}
	ok = f.gameMembers(g)
	if ok {
		f.Space()
		ok = f.Pos == len(f.Src)
	}
	f.Src = nil
	return g, ok
}

// gameDeal decodes one entry of a game's deals, a full deal or a
// score-sheet line (DecodeGameDeal). ok is false when the entry needs the
// tree decoder.
func (f *fastDecoder) gameDeal(data []byte) (gd GameDeal, ok bool) {
	f.Src, f.Pos = data, 0
	f.slab = make([]Card, 0, len(data)/5+1)
	ok = f.gameDealMembers(&gd)
	if ok {
		f.Space()
		ok = f.Pos == len(f.Src)
	}
	f.Src = nil
	return gd, ok
}

// gameDealMembers reads an entry of a game's deals: a full deal, or, when
// the object has a "sheet" member, a score-sheet line, whose other members
// are skipped (as by the tree decoder).
func (f *fastDecoder) gameDealMembers(gd *GameDeal) bool {
	start := f.Pos
	f.sawSheet = false
	rec := &DealRecord{}
	if f.dealMembers(rec, true) {
		gd.Deal = rec
		return true
	}
	if !f.sawSheet {
		return false
	}
	f.Pos = start
	seen, ok := f.members(func(k []byte) (int, bool) {
		if string(k) != "sheet" {
			return 0, true
		}
		var ok bool
		gd.Sheet, ok = f.sheet()
		return 1, ok
	})
	return ok && seen == 1
}

// sheet reads a score-sheet line's object: player → category → points.
func (f *fastDecoder) sheet() (Sheet, bool) {
	return playerMap(f, func() (map[string]int, bool) { return playerMap(f, f.Integer) })
}

// gameMembers reads the game object.
func (f *fastDecoder) gameMembers(g *GameRecord) bool {
	seen, ok := f.members(func(k []byte) (bit int, ok bool) {
		switch string(k) {
		case "rules":
			return mRules, f.Null() || f.rulesValue(&g.Rules)
		case "players":
			g.Players, ok = f.strings()
			return mPlayers, ok
		case "first_dealer":
			g.FirstDealer, ok = f.name()
			return mDealer, ok
		case "ended_by":
			if f.Null() {
				return mEndedBy, true
			}
			g.EndedBy, ok = f.name()
			return mEndedBy, ok
		case "deals":
			g.Deals, ok = f.gameDeals()
			return mDeals, ok
		}
		return 0, true
	})
	return ok && seen&mRequiredGame == mRequiredGame
}

// gameDeals reads the deals of a game; more than MaxGameDeals are left to
// the tree decoder, which refuses them.
func (f *fastDecoder) gameDeals() ([]GameDeal, bool) {
	out := make([]GameDeal, 0, 16)
	more, ok := f.Begin('[', ']')
	for ; more && ok; more, ok = f.After(']') {
		var gd GameDeal
		if len(out) == MaxGameDeals || !f.gameDealMembers(&gd) {
			return nil, false
		}
		out = append(out, gd)
	}
	return out, ok
}

// dealMembers reads the deal object; inGame: an entry of a game's deals,
// whose rules, players, dealer and scores are ignored.
func (f *fastDecoder) dealMembers(rec *DealRecord, inGame bool) bool {
	required := mRequired
	if inGame {
		required = mRequiredInGame
	}
	seen, ok := f.members(func(k []byte) (int, bool) {
		return f.dealMember(rec, k, inGame)
	})
	return ok && seen&required == required
}

// dealMember reads the value of member k into rec and returns k's bit (0
// for a member to skip, see members).
func (f *fastDecoder) dealMember(rec *DealRecord, k []byte, inGame bool) (int, bool) {
	if inGame {
		switch string(k) {
		case "rules", "players", "dealer", "scores":
			return 0, true // ignored, as by the tree decoder
		case "sheet":
			f.sawSheet = true
			return 0, false // a score-sheet line
		}
	}
	switch string(k) {
	case "rules":
		return mRules, f.Null() || f.rulesValue(&rec.Rules)
	case "players":
		var ok bool
		rec.Players, ok = f.strings()
		return mPlayers, ok
	case "dealer":
		var ok bool
		rec.Dealer, ok = f.name()
		return mDealer, ok
	case "scores":
		if f.Null() {
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
		if f.Null() {
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
		f.sawDeals = !inGame
		return 0, false // a game
	}
	return 0, true
}

// members reads an object member by member: member reads the value of
// member k and returns k's bit, or bit 0 and ok for a member that is not
// read, whose value members skips. ok is false at a syntax error, when
// member gives up, or at a member seen twice; seen is the set of the bits
// returned.
func (f *fastDecoder) members(member func(k []byte) (bit int, ok bool)) (seen int, ok bool) {
	more, ok := f.Begin('{', '}')
	for ; more && ok; more, ok = f.After('}') {
		k, ok := f.Key()
		if !ok {
			return seen, false
		}
		bit, ok := member(k)
		if bit == 0 && ok {
			ok = f.Skip(0)
		}
		if !ok || seen&bit != 0 {
			return seen, false
		}
		seen |= bit
	}
	return seen, ok
}

// deck reads the "deck" member; an empty deck is no recorded deck, as in
// the tree decoder.
func (f *fastDecoder) deck(rec *DealRecord) bool {
	if f.Null() {
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
func (f *fastDecoder) rulesValue(dst **Rules) bool {
	f.Space()
	start := f.Pos
	if !f.Skip(0) {
		return false
	}
	span := f.Src[start:f.Pos]
	if !f.hasRules || !bytes.Equal(span, f.rulesSrc) {
		root, t, err := jsontree.Parse(string(span), nil)
		if err != nil {
			return false
		}
		d := decoder{t: t}
		c := ptr{key: "rules", idx: -1}
		r := d.rules(root, &c)
		if len(d.probs) > 0 {
			return false
		}
		f.rules, f.hasRules = r, len(span) <= maxKeptScratch
		if f.hasRules {
			f.rulesSrc = append(f.rulesSrc[:0], span...)
		}
	}
	r := f.rules
	*dst = &r
	return true
}

// fastRounds reads an array of arrays of objects (exchange rounds,
// announcement phases, tricks) into one backing array.
func fastRounds[T any](f *fastDecoder, scratch *[]T, elem func(*fastDecoder, *T) bool) ([][]T, bool) {
	s, bounds := (*scratch)[:0], f.bounds[:0]
	more, ok := f.Begin('[', ']')
	for ; more && ok; more, ok = f.After(']') {
		m, ok := f.Begin('[', ']')
		for ; m && ok; m, ok = f.After(']') {
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
	if !ok {
		*scratch, f.bounds = s, bounds
		return nil, false
	}
	all := make([]T, len(s))
	copy(all, s)
	clear(s)
	if cap(s) > maxKeptScratch || cap(bounds) > maxKeptScratch {
		s, bounds = nil, nil // a huge record: do not keep its buffers
	}
	*scratch, f.bounds = s, bounds
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
	seen, ok := f.members(func(k []byte) (bit int, ok bool) {
		switch string(k) {
		case "player":
			x.Player, ok = f.name()
			return mPlayer, ok
		case "show":
			return mShow, f.optCards(&x.Show)
		case "discard":
			return mDiscard, f.optCards(&x.Discard)
		case "draw":
			return mDraw, f.optCards(&x.Draw)
		case "open":
			return mOpen, f.Null() || f.open(x)
		case "reshuffled":
			return mReshuffled, f.Null() || f.Boolean(&x.Reshuffled)
		}
		return 0, true
	})
	return ok && seen&mPlayer != 0
}

// optCards reads a list of cards or null (which leaves *dst nil).
func (f *fastDecoder) optCards(dst *[]Card) bool {
	if f.Null() {
		return true
	}
	var ok bool
	*dst, ok = f.cards()
	return ok
}

// open reads an open card object.
func (f *fastDecoder) open(x *Exchange) bool {
	o := &OpenCard{}
	seen, ok := f.members(func(k []byte) (bit int, ok bool) {
		switch string(k) {
		case "card":
			o.Card, ok = f.card()
			return mCard, ok
		case "taken":
			return mTaken, f.Boolean(&o.Taken)
		}
		return 0, true
	})
	x.Open = o
	return ok && seen == mCard|mTaken
}

// announcement reads one entry of an announcement phase.
func (f *fastDecoder) announcement(a *Announcement) bool {
	seen, ok := f.members(func(k []byte) (bit int, ok bool) {
		switch string(k) {
		case "player":
			a.Player, ok = f.name()
			return mPlayer, ok
		case "announce":
			if f.Null() {
				return mAnnounce, true
			}
			a.Announce, ok = f.name()
			return mAnnounce, ok
		}
		return 0, true
	})
	return ok && seen&mPlayer != 0
}

// play reads one card played to a trick.
func (f *fastDecoder) play(p *Play) bool {
	seen, ok := f.members(func(k []byte) (bit int, ok bool) {
		switch string(k) {
		case "player":
			p.Player, ok = f.name()
			return mPlayer, ok
		case "card":
			p.Card, ok = f.card()
			return mCard, ok
		}
		return 0, true
	})
	return ok && seen == mPlayer|mCard
}

// strings reads an array of strings.
func (f *fastDecoder) strings() ([]string, bool) {
	s := f.strs[:0]
	more, ok := f.Begin('[', ']')
	for ; more && ok; more, ok = f.After(']') {
		name, ok := f.name()
		if !ok {
			return nil, false
		}
		s = append(s, name)
	}
	if !ok {
		return nil, false
	}
	out := make([]string, len(s))
	copy(out, s)
	if cap(s) > maxKeptScratch {
		s = nil
	}
	f.strs = s
	return out, true
}

// hands reads the object of hands.
func (f *fastDecoder) hands() (map[string][]Card, bool) { return playerMap(f, f.cards) }

// scores reads an object of whole numbers.
func (f *fastDecoder) scores() (map[string]int, bool) { return playerMap(f, f.Integer) }

// playerMap reads an object keyed by player names, each value read by value.
func playerMap[V any](f *fastDecoder, value func() (V, bool)) (map[string]V, bool) {
	if f.Peek() != '{' {
		return nil, false
	}
	out := make(map[string]V, 4)
	more, ok := f.Begin('{', '}')
	for ; more && ok; more, ok = f.After('}') {
		k, ok := f.Key()
		if !ok {
			return nil, false
		}
		name := f.names.Intern(k)
		out[name], ok = value()
		if !ok {
			return nil, false
		}
	}
	return out, ok
}
