package bridge

import (
	"sort"
	"strconv"

	"github.com/revisor-sm/revisor/engine/internal/jsonw"
)

// MarshalJSON writes the record in the format Decode reads.
func (r *Record) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }

// AppendJSON appends the record's JSON to b.
func (r *Record) AppendJSON(b []byte) []byte {
	b = append(b, `{"game":`...)
	b = jsonw.String(b, r.Game)
	b = append(b, `,"players":`...)
	b = jsonw.Strings(b, r.Players)
	b = append(b, `,"first_dealer":`...)
	b = jsonw.String(b, r.FirstDealer)
	if r.Rules.Vulnerability != "" {
		b = append(b, `,"rules":{"vulnerability":`...)
		b = jsonw.String(b, r.Rules.Vulnerability)
		b = append(b, '}')
	}
	if r.EndedByTime {
		b = append(b, `,"ended_by":"time"`...)
	}
	b = append(b, `,"deals":[`...)
	for i := range r.Deals {
		if i > 0 {
			b = append(b, ',')
		}
		b = r.Deals[i].AppendJSON(b)
	}
	return append(b, "]}"...)
}

// AppendJSON appends one deal's JSON (an entry of a record's "deals") to b.
func (d *Deal) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	if d.Dealer != "" {
		b = append(b, `"dealer":`...)
		b = jsonw.String(b, d.Dealer)
		b = append(b, ',')
	}
	b = append(b, `"auction":`...)
	b = appendList(b, d.Auction)
	if d.Tricks != NoTricks {
		b = append(b, `,"tricks":`...)
		b = strconv.AppendInt(b, int64(d.Tricks), 10)
	}
	if d.Hands != nil {
		b = append(b, `,"hands":{`...)
		names := make([]string, 0, len(d.Hands))
		for k := range d.Hands {
			names = append(names, k)
		}
		sort.Strings(names)
		for i, name := range names {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonw.String(b, name)
			b = append(b, ':')
			b = appendList(b, d.Hands[name])
		}
		b = append(b, '}')
	}
	if d.Play != nil {
		b = append(b, `,"play":[`...)
		for t, trick := range d.Play {
			if t > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			for k, p := range trick {
				if k > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"player":`...)
				b = jsonw.String(b, p.Player)
				b = append(b, `,"card":"`...)
				b = append(b, p.Card.String()...)
				b = append(b, `"}`...)
			}
			b = append(b, ']')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendList appends a list of calls or cards, each as its String.
func appendList[T interface{ String() string }](b []byte, list []T) []byte {
	b = append(b, '[')
	for i, x := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, x.String()...)
		b = append(b, '"')
	}
	return append(b, ']')
}
