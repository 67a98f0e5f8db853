package engine

import "github.com/revisor-sm/revisor/engine/internal/jsontree"

// Outcome is the answer of Validate to one record.
type Outcome struct {
	// Game is true for a game record (a record with a "deals" member).
	Game bool
	// Syntax is true when the input is not JSON at all.
	Syntax bool
	// Valid is the result's valid flag.
	Valid bool
	// DealResult or GameResult holds the result; decoding problems become
	// an invalid result with those problems as errors.
	DealResult *DealResult
	GameResult *GameResult
}

// Result returns the result to write: *DealResult or *GameResult.
func (o Outcome) Result() any {
	if o.Game {
		return o.GameResult
	}
	return o.DealResult
}

// Validate reads one record, deal or game (a record with a "deals" member is
// a game), and checks it: what `revisor validate` does for each record. The
// input is parsed once. To check many records, use a Validator.
func Validate(data []byte, opt GameOptions) Outcome {
	var v Validator
	return v.Validate(data, opt)
}

// Validator checks records one after another, as Validate does, and keeps
// its buffers from one record to the next: checking a stream of records
// with one Validator allocates less and is faster. The zero value is ready
// to use. A Validator must not be used by two goroutines at once; give each
// worker its own. The outcomes it returns share no memory with it or with
// the input.
type Validator struct {
	fast fastDecoder
	bufs jsontree.Buffers
}

// Validate reads and checks one record; see the function Validate.
func (val *Validator) Validate(data []byte, opt GameOptions) Outcome {
	if rec, ok := val.fast.deal(data); ok {
		res := CheckDeal(rec)
		return Outcome{Valid: res.Valid, DealResult: res}
	}
	if val.fast.sawDeals {
		if g, ok := val.fast.game(data); ok {
			res := CheckGame(g, opt)
			return Outcome{Game: true, Valid: res.Valid, GameResult: res}
		}
	}
	v, d, derr := parseJSONWith(data, &val.bufs)
	if derr != nil {
		return Outcome{Syntax: true, DealResult: derr.DealResult()}
	}
	if _, ok := d.get(v, "deals"); ok && v.Kind() == jsontree.Obj {
		g := d.game(v)
		if len(d.probs) > 0 {
			return Outcome{Game: true, GameResult: (&DecodeError{Problems: d.probs}).GameResult()}
		}
		res := CheckGame(g, opt)
		return Outcome{Game: true, Valid: res.Valid, GameResult: res}
	}
	rec := d.deal(v, nil, true)
	if len(d.probs) > 0 {
		return Outcome{DealResult: (&DecodeError{Problems: d.probs}).DealResult()}
	}
	res := CheckDeal(rec)
	return Outcome{Valid: res.Valid, DealResult: res}
}
