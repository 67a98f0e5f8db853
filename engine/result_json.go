package engine

import (
	"strconv"

	"github.com/revisor-sm/revisor/engine/internal/jsonw"
)

// AppendJSON and its helpers write results as JSON, byte for byte what
// json.Marshal writes for them (MarshalJSON in result.go: empty lists as
// [], maps with sorted keys, HTML-safe escaping), without reflection:
// writing results with encoding/json took about a fifth of revisor validate
// --lines' time. TestResultJSONMatchesMarshal keeps the two equal, and
// fails when a field is added to a result.

// AppendJSON appends the JSON of r to b, as json.Marshal writes it.
func (r *DealResult) AppendJSON(b []byte) []byte {
	b = append(b, `{"valid":`...)
	b = strconv.AppendBool(b, r.Valid)
	b = append(b, `,"errors":`...)
	b = appendProblems(b, r.Errors)
	b = append(b, `,"violations":`...)
	b = appendViolations(b, r.Violations)
	b = append(b, `,"awards":[`...)
	for i, a := range r.Awards {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonw.KV(b, `{"player":`, a.Player)
		b = jsonw.KV(b, `,"source":`, a.Source)
		b = append(b, `,"points":`...)
		b = strconv.AppendInt(b, int64(a.Points), 10)
		if a.Category != "" {
			b = jsonw.KV(b, `,"category":`, a.Category)
		}
		b = append(b, '}')
	}
	b = append(b, `],"points":`...)
	b = jsonw.IntMap(b, r.Points)
	b = append(b, `,"scores":`...)
	b = jsonw.IntMap(b, r.Scores)
	if r.Ended != "" {
		b = jsonw.KV(b, `,"ended":`, r.Ended)
	}
	b = append(b, `,"game_over":`...)
	b = strconv.AppendBool(b, r.GameOver)
	b = append(b, `,"winners":`...)
	b = jsonw.Strings(b, r.Winners)
	return append(b, '}')
}

// AppendJSON appends the JSON of r to b, as json.Marshal writes it.
func (r *GameResult) AppendJSON(b []byte) []byte {
	b = append(b, `{"valid":`...)
	b = strconv.AppendBool(b, r.Valid)
	b = append(b, `,"errors":`...)
	b = appendProblems(b, r.Errors)
	if r.ErrorsOmitted != 0 {
		b = append(b, `,"errors_omitted":`...)
		b = strconv.AppendInt(b, int64(r.ErrorsOmitted), 10)
	}
	b = append(b, `,"violations":`...)
	b = appendViolations(b, r.Violations)
	b = append(b, `,"deals":[`...)
	for i := range r.Deals {
		if i > 0 {
			b = append(b, ',')
		}
		b = r.Deals[i].AppendJSON(b)
	}
	b = append(b, `],"scores":`...)
	b = jsonw.IntMap(b, r.Scores)
	b = append(b, `,"game_over":`...)
	b = strconv.AppendBool(b, r.GameOver)
	b = append(b, `,"winners":`...)
	b = jsonw.Strings(b, r.Winners)
	b = append(b, `,"placements":[`...)
	for i, p := range r.Placements {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonw.KV(b, `{"player":`, p.Player)
		b = append(b, `,"place":`...)
		b = strconv.AppendInt(b, int64(p.Place), 10)
		b = append(b, `,"score":`...)
		b = strconv.AppendInt(b, int64(p.Score), 10)
		b = append(b, '}')
	}
	b = append(b, `],"forfeits":`...)
	b = jsonw.Strings(b, r.Forfeits)
	return append(b, '}')
}

func appendProblems(b []byte, ps []Problem) []byte {
	b = append(b, '[')
	for i, p := range ps {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonw.KV(b, `{"code":`, p.Code)
		b = jsonw.KV(b, `,"path":`, p.Path)
		b = jsonw.KV(b, `,"message":`, p.Message)
		if p.Player != "" {
			b = jsonw.KV(b, `,"player":`, p.Player)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

func appendViolations(b []byte, vs []Violation) []byte {
	b = append(b, '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonw.KV(b, `{"code":`, v.Code)
		b = jsonw.KV(b, `,"path":`, v.Path)
		b = jsonw.KV(b, `,"player":`, v.Player)
		b = jsonw.KV(b, `,"consequence":`, v.Consequence)
		b = jsonw.KV(b, `,"message":`, v.Message)
		b = append(b, '}')
	}
	return append(b, ']')
}
