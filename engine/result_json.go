package engine

import (
	"slices"
	"strconv"
	"unicode/utf8"
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
		b = appendKV(b, `{"player":`, a.Player)
		b = appendKV(b, `,"source":`, a.Source)
		b = append(b, `,"points":`...)
		b = strconv.AppendInt(b, int64(a.Points), 10)
		if a.Category != "" {
			b = appendKV(b, `,"category":`, a.Category)
		}
		b = append(b, '}')
	}
	b = append(b, `],"points":`...)
	b = appendScores(b, r.Points)
	b = append(b, `,"scores":`...)
	b = appendScores(b, r.Scores)
	if r.Ended != "" {
		b = appendKV(b, `,"ended":`, r.Ended)
	}
	b = append(b, `,"game_over":`...)
	b = strconv.AppendBool(b, r.GameOver)
	b = append(b, `,"winners":`...)
	b = appendStrings(b, r.Winners)
	return append(b, '}')
}

// AppendJSON appends the JSON of r to b, as json.Marshal writes it.
func (r *GameResult) AppendJSON(b []byte) []byte {
	b = append(b, `{"valid":`...)
	b = strconv.AppendBool(b, r.Valid)
	b = append(b, `,"errors":`...)
	b = appendProblems(b, r.Errors)
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
	b = appendScores(b, r.Scores)
	b = append(b, `,"game_over":`...)
	b = strconv.AppendBool(b, r.GameOver)
	b = append(b, `,"winners":`...)
	b = appendStrings(b, r.Winners)
	b = append(b, `,"placements":[`...)
	for i, p := range r.Placements {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendKV(b, `{"player":`, p.Player)
		b = append(b, `,"place":`...)
		b = strconv.AppendInt(b, int64(p.Place), 10)
		b = append(b, `,"score":`...)
		b = strconv.AppendInt(b, int64(p.Score), 10)
		b = append(b, '}')
	}
	b = append(b, `],"forfeits":`...)
	b = appendStrings(b, r.Forfeits)
	return append(b, '}')
}

func appendProblems(b []byte, ps []Problem) []byte {
	b = append(b, '[')
	for i, p := range ps {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendKV(b, `{"code":`, p.Code)
		b = appendKV(b, `,"path":`, p.Path)
		b = appendKV(b, `,"message":`, p.Message)
		if p.Player != "" {
			b = appendKV(b, `,"player":`, p.Player)
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
		b = appendKV(b, `{"code":`, v.Code)
		b = appendKV(b, `,"path":`, v.Path)
		b = appendKV(b, `,"player":`, v.Player)
		b = appendKV(b, `,"consequence":`, v.Consequence)
		b = appendKV(b, `,"message":`, v.Message)
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendScores appends a player → points map with its keys sorted.
func appendScores(b []byte, m map[string]int) []byte {
	var small [4]string
	keys := small[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(m[k]), 10)
	}
	return append(b, '}')
}

func appendStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

// appendKV appends a literal key prefix and a string value.
func appendKV(b []byte, key, value string) []byte {
	return appendString(append(b, key...), value)
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string escaped as encoding/json does:
// control characters, <, > and & as \u00XX (\n, \r, \t, \b, \f short),
// U+2028 and U+2029 escaped, invalid UTF-8 as \ufffd.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
