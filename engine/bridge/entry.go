package bridge

import (
	"slices"
	"strconv"
	"strings"

	"github.com/revisor-sm/revisor/engine"
)

// Entry is a deal as a table enters it on a score sheet: the contract
// with its double state ("4S", "3NTX", "1HXX"), the declarer and the
// tricks the declarer's side took; or a deal passed out. DecodeEntry reads
// it and EntryDeal turns it into a record's deal.
type Entry struct {
	PassedOut bool
	Contract  Contract
	Declarer  string
	Tricks    int
}

// ParseContract reads a contract: a bid 1C..7NT followed by nothing, X or
// XX (in either case).
func ParseContract(s string) (Contract, error) {
	up := strings.ToUpper(s)
	d := Undoubled
	switch {
	case strings.HasSuffix(up, "XX"):
		d, up = Redoubled, up[:len(up)-2]
	case strings.HasSuffix(up, "X"):
		d, up = Doubled, up[:len(up)-1]
	}
	c, err := ParseCall(up)
	if err != nil || !c.IsBid() {
		return Contract{}, ErrInvalidCall
	}
	return Contract{Level: c.Level(), Strain: c.Strain(), Double: d}, nil
}

// DecodeEntry reads one deal entered at the table: either a record's deal
// ({"auction": [...], "tricks": n, ...}, as Decode reads an entry of
// "deals") or the short form {"contract": "4SX", "declarer": "bo",
// "tricks": 9}, or {"passed_out": true}. The error, if any, is an
// *engine.DecodeError; its paths point into the entry. The short form is
// returned as an Entry (full is false); the record's form as a Deal.
func DecodeEntry(data []byte) (e Entry, d Deal, full bool, err error) {
	v, derr := parseAny(data)
	if derr != nil {
		return Entry{}, Deal{}, false, derr
	}
	var dec decoder
	if m, ok := v.(map[string]any); ok {
		if _, hasAuction := m["auction"]; hasAuction {
			d = dec.deal(v, "")
			if len(dec.probs) > 0 {
				return Entry{}, Deal{}, false, &engine.DecodeError{Problems: dec.probs, WrongTypes: dec.wrong}
			}
			return Entry{}, d, true, nil
		}
	}
	e = dec.entry(v)
	if len(dec.probs) > 0 {
		return Entry{}, Deal{}, false, &engine.DecodeError{Problems: dec.probs, WrongTypes: dec.wrong}
	}
	return e, Deal{}, false, nil
}

func (d *decoder) entry(v any) Entry {
	e := Entry{Tricks: NoTricks}
	m, ok := d.object(v, "", "passed_out", "contract", "declarer", "tricks")
	if !ok {
		return e
	}
	if x, ok := m["passed_out"]; ok {
		if b, isBool := x.(bool); !isBool {
			d.wrongType("/passed_out", "true or false")
		} else {
			e.PassedOut = b
		}
	}
	if e.PassedOut {
		for _, k := range []string{"contract", "declarer", "tricks"} {
			if _, ok := m[k]; ok {
				d.add(CodeInvalidRecord, "/"+k, "a passed-out deal has no "+k)
			}
		}
		return e
	}
	if x, ok := d.member(m, "contract", "", true); ok {
		if s, ok := d.str(x, "/contract"); ok {
			c, err := ParseContract(s)
			if err != nil {
				d.add(CodeInvalidCall, "/contract", strconv.Quote(s)+" is not a contract: a bid 1C to 7NT, then X or XX when doubled or redoubled")
			}
			e.Contract = c
		}
	}
	if x, ok := d.member(m, "declarer", "", true); ok {
		e.Declarer, _ = d.str(x, "/declarer")
	}
	if x, ok := d.member(m, "tricks", "", true); ok {
		if n, ok := d.integer(x, "/tricks"); ok {
			e.Tricks = n
		}
	}
	return e
}

// EntryDeal turns an entry into a record's deal at a table of players
// whose dealer sits at seat dealer: an auction that gives the entry's
// contract and declarer (passes up to the declarer, the bid, the
// opponents' double and the declarer's side's redouble as the contract
// says, then passes), and the tricks. A declarer who is not a player is an
// unknown_player problem; tricks outside 0-13 are invalid_tricks.
func EntryDeal(e Entry, players []string, dealer int) (Deal, []engine.Problem) {
	d := Deal{Dealer: players[dealer], Tricks: NoTricks}
	a := NewAuction(len(players), dealer)
	if e.PassedOut {
		for !a.Done() {
			_ = a.Add(Pass)
			d.Auction = append(d.Auction, Pass)
		}
		return d, nil
	}
	decl := slices.Index(players, e.Declarer)
	var probs []engine.Problem
	if decl < 0 {
		probs = append(probs, engine.Problem{Code: CodeUnknownPlayer, Path: "/declarer", Message: "the declarer is not a player at this table", Player: e.Declarer})
	}
	if e.Tricks < 0 || e.Tricks > 13 {
		probs = append(probs, engine.Problem{Code: CodeInvalidTricks, Path: "/tricks", Message: "the declarer's side took 0 to 13 tricks"})
	}
	if probs != nil {
		return Deal{}, probs
	}
	calls := make([]Call, 0, 12)
	for a.Next() != decl {
		calls = append(calls, Pass)
		_ = a.Add(Pass)
	}
	calls = append(calls, Bid(e.Contract.Level, e.Contract.Strain))
	_ = a.Add(calls[len(calls)-1])
	for range e.Contract.Double {
		c := Double
		if a.double == Doubled {
			c = Redouble
		}
		for a.Add(c) != nil { // the next player of the other side
			calls = append(calls, Pass)
			_ = a.Add(Pass)
		}
		calls = append(calls, c)
	}
	for !a.Done() {
		calls = append(calls, Pass)
		_ = a.Add(Pass)
	}
	d.Auction, d.Tricks = calls, e.Tricks
	return d, nil
}
