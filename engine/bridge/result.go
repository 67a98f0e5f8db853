package bridge

import (
	"strconv"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/internal/jsonw"
)

// Result is the answer to a match record. Per-side figures are indexed by
// side: 0 is ns (Chicago) or the first player (draw bridge), 1 is ew or the
// second player; Sides names them.
type Result struct {
	Game   string
	Valid  bool
	Errors []engine.Problem
	// Deals holds one result per deal of the record, passed-out deals
	// included; empty when the record is not valid.
	Deals  []DealResult
	Sides  [2]string
	Totals [2]int
	// Complete is true after the fourth counted deal of a Chicago, or when
	// a rubber has been won.
	Complete bool
	// Winner is the side (Chicago) or player (draw bridge) that won, empty
	// while the match goes on and on a draw.
	Winner string
	// Drawn is true when a finished match ended with equal totals.
	Drawn bool
	// Games counts the games each player won (draw bridge).
	Games [2]int
	// UnfinishedBonus is paid for a rubber cut short by the clock (draw
	// bridge): 300 for a game, 100 for a partscore in the unfinished game.
	UnfinishedBonus [2]int
	// NextDealer is the player who deals next while the match goes on.
	NextDealer string
}

// DealResult is one deal of a match.
type DealResult struct {
	// Number counts the deals that count: 1-4 in a Chicago; 0 for a
	// passed-out (thrown-in) deal.
	Number    int
	PassedOut bool
	Contract  Contract
	Declarer  string
	// Side is the declaring side (0 or 1).
	Side int
	// Vulnerable tells, per side, whether it was vulnerable.
	Vulnerable [2]bool
	Tricks     int
	// Score is the contract's value from the Laws' table.
	Score Score
	// Points is what each side scored on the deal, bonuses included.
	Points         [2]int
	GameBonus      int // Chicago: 300 or 500 for a game made
	PartscoreBonus int // Chicago: 100 for a partscore on the fourth deal
	RubberBonus    int // draw bridge: 700 or 500 for the rubber
	Totals         [2]int
	sides          [2]string
	draw           bool
}

// MarshalJSON writes the result of docs/bridge.md: per-side objects keyed by the
// side ("ns", "ew") or, for draw bridge, the player.
func (r *Result) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }

// AppendJSON appends the JSON of r to b.
func (r *Result) AppendJSON(b []byte) []byte {
	b = append(b, `{"game":`...)
	b = jsonw.String(b, r.Game)
	b = append(b, `,"valid":`...)
	b = strconv.AppendBool(b, r.Valid)
	b = append(b, `,"errors":[`...)
	for i, p := range r.Errors {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendProblem(b, p)
	}
	b = append(b, `],"deals":[`...)
	for i := range r.Deals {
		if i > 0 {
			b = append(b, ',')
		}
		b = r.Deals[i].appendJSON(b)
	}
	b = append(b, `],"totals":`...)
	if !r.Valid {
		return append(b, `{},"complete":false,"winner":null,"draw":false}`...)
	}
	b = appendSides(b, r.Sides, r.Totals)
	b = append(b, `,"complete":`...)
	b = strconv.AppendBool(b, r.Complete)
	b = append(b, `,"winner":`...)
	b = appendNullString(b, r.Winner)
	b = append(b, `,"draw":`...)
	b = strconv.AppendBool(b, r.Drawn)
	if r.NextDealer != "" {
		b = append(b, `,"next_dealer":`...)
		b = jsonw.String(b, r.NextDealer)
	}
	if r.Game == GameDraw {
		b = append(b, `,"games":`...)
		b = appendSides(b, r.Sides, r.Games)
		b = append(b, `,"unfinished_bonus":`...)
		b = appendSides(b, r.Sides, r.UnfinishedBonus)
	}
	return append(b, '}')
}

// MarshalJSON writes one deal of the result.
func (d *DealResult) MarshalJSON() ([]byte, error) { return d.appendJSON(nil), nil }

func (d *DealResult) appendJSON(b []byte) []byte {
	if d.PassedOut {
		return append(b, `{"number":null,"passed_out":true}`...)
	}
	b = append(b, `{"number":`...)
	b = strconv.AppendInt(b, int64(d.Number), 10)
	b = append(b, `,"contract":"`...)
	b = append(b, d.Contract.String()...)
	b = append(b, `","declarer":`...)
	b = jsonw.String(b, d.Declarer)
	if !d.draw {
		b = append(b, `,"side":"`...)
		b = append(b, d.sides[d.Side]...)
		b = append(b, `","vulnerable":[`...)
		switch d.Vulnerable {
		case [2]bool{true, false}:
			b = append(b, `"ns"`...)
		case [2]bool{false, true}:
			b = append(b, `"ew"`...)
		case [2]bool{true, true}:
			b = append(b, `"ew","ns"`...)
		}
		b = append(b, ']')
	} else {
		b = append(b, `,"vulnerable":`...)
		b = strconv.AppendBool(b, d.Vulnerable[d.Side])
	}
	b = append(b, `,"tricks":`...)
	b = strconv.AppendInt(b, int64(d.Tricks), 10)
	b = append(b, `,"points":`...)
	b = appendSides(b, d.sides, d.Points)
	if d.draw {
		b = append(b, `,"rubber_bonus":`...)
		b = strconv.AppendInt(b, int64(d.RubberBonus), 10)
	} else {
		b = append(b, `,"game_bonus":`...)
		b = strconv.AppendInt(b, int64(d.GameBonus), 10)
		b = append(b, `,"partscore_bonus":`...)
		b = strconv.AppendInt(b, int64(d.PartscoreBonus), 10)
	}
	b = append(b, `,"totals":`...)
	b = appendSides(b, d.sides, d.Totals)
	return append(b, '}')
}

func appendSides(b []byte, names [2]string, v [2]int) []byte {
	b = append(b, '{')
	b = jsonw.String(b, names[0])
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(v[0]), 10)
	b = append(b, ',')
	b = jsonw.String(b, names[1])
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(v[1]), 10)
	return append(b, '}')
}

func appendNullString(b []byte, s string) []byte {
	if s == "" {
		return append(b, "null"...)
	}
	return jsonw.String(b, s)
}

func appendProblem(b []byte, p engine.Problem) []byte {
	b = append(b, `{"code":`...)
	b = jsonw.String(b, p.Code)
	b = append(b, `,"path":`...)
	b = jsonw.String(b, p.Path)
	b = append(b, `,"message":`...)
	b = jsonw.String(b, p.Message)
	if p.Player != "" {
		b = append(b, `,"player":`...)
		b = jsonw.String(b, p.Player)
	}
	return append(b, '}')
}
