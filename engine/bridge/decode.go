package bridge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/revisor-sm/revisor/engine"
)

// invalidResult is the answer for a record that could not be decoded: not
// valid, with the problems as errors.
func invalidResult(e *engine.DecodeError, game string) *Result {
	return &Result{Game: game, Errors: e.Problems}
}

// Validate decodes and checks a match record. The result is never nil; the
// *engine.DecodeError (the card game's, whose shape fits both games) is
// non-nil when the record could not be decoded: its problems are then the
// result's errors.
func Validate(data []byte) (*Result, *engine.DecodeError) {
	rec, game, derr := decode(data)
	if derr != nil {
		return invalidResult(derr, game), derr
	}
	return Check(rec), nil
}

// Decode reads a match record (docs/bridge.md). The error, if any, is an
// *engine.DecodeError listing every problem of shape and spelling.
func Decode(data []byte) (*Record, error) {
	rec, _, derr := decode(data)
	if derr != nil {
		return nil, derr
	}
	return rec, nil
}

// decode reads a record; on failure it returns the game it names, if any.
func decode(data []byte) (*Record, string, *engine.DecodeError) {
	v, derr := parseAny(data)
	if derr != nil {
		return nil, "", derr
	}
	var d decoder
	rec := d.record(v)
	if len(d.probs) > 0 {
		return nil, rec.Game, &engine.DecodeError{Problems: d.probs, WrongTypes: d.wrong}
	}
	return rec, rec.Game, nil
}

// decoder collects the problems of one Decode.
type decoder struct {
	probs []engine.Problem
	wrong int
}

func (d *decoder) add(code, path, msg string) {
	d.probs = append(d.probs, engine.Problem{Code: code, Path: path, Message: msg})
}

func (d *decoder) wrongType(path, want string) {
	d.wrong++
	d.add(CodeInvalidRecord, path, "want "+want)
}

// object reads an object whose members are known (any members when known
// is empty).
func (d *decoder) object(v any, path string, known ...string) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		d.wrongType(path, "an object")
		return nil, false
	}
	if len(known) == 0 {
		return m, true
	}
	var unknown []string
	for k := range m {
		if !contains(known, k) {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	for _, k := range unknown {
		d.add(CodeInvalidRecord, path+"/"+pointerKey(k), "unknown member "+strconv.Quote(k))
	}
	return m, true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// member returns m[k]; a missing required member is a problem.
func (d *decoder) member(m map[string]any, k, path string, required bool) (any, bool) {
	v, ok := m[k]
	if !ok && required {
		d.add(CodeInvalidRecord, path+"/"+k, "missing")
	}
	return v, ok
}

func (d *decoder) array(v any, path string) ([]any, bool) {
	a, ok := v.([]any)
	if !ok {
		d.wrongType(path, "a list")
	}
	return a, ok
}

func (d *decoder) str(v any, path string) (string, bool) {
	s, ok := v.(string)
	if !ok {
		d.wrongType(path, "a string")
	}
	return s, ok
}

// integer reads a whole number; one too large to matter reads as 1<<30.
func (d *decoder) integer(v any, path string) (int, bool) {
	n, ok := v.(json.Number)
	if !ok || strings.ContainsAny(string(n), ".eE") {
		d.wrongType(path, "a whole number")
		return 0, false
	}
	i, err := strconv.Atoi(string(n))
	if err != nil {
		return 1 << 30, true
	}
	return i, true
}

func (d *decoder) record(v any) *Record {
	rec := &Record{}
	m, ok := d.object(v, "", "game", "players", "first_dealer", "rules", "deals", "ended_by")
	if !ok {
		return rec
	}
	if g, ok := d.member(m, "game", "", true); ok {
		rec.Game, _ = d.str(g, "/game")
	}
	if p, ok := d.member(m, "players", "", true); ok {
		rec.Players = d.strings(p, "/players")
	}
	if f, ok := d.member(m, "first_dealer", "", true); ok {
		rec.FirstDealer, _ = d.str(f, "/first_dealer")
	}
	if r, ok := d.member(m, "rules", "", false); ok {
		if rm, ok := d.object(r, "/rules", "vulnerability"); ok {
			if vul, ok := rm["vulnerability"]; ok {
				rec.Rules.Vulnerability, _ = d.str(vul, "/rules/vulnerability")
			}
		}
	}
	if e, ok := d.member(m, "ended_by", "", false); ok {
		if s, ok := d.str(e, "/ended_by"); ok && s != "time" {
			d.add(CodeInvalidRecord, "/ended_by", `a match ends early only by "time"`)
		}
		rec.EndedByTime = true
	}
	if ds, ok := d.member(m, "deals", "", true); ok {
		if list, ok := d.array(ds, "/deals"); ok {
			rec.Deals = make([]Deal, len(list))
			for i, dv := range list {
				rec.Deals[i] = d.deal(dv, "/deals/"+strconv.Itoa(i))
			}
		}
	}
	return rec
}

func (d *decoder) strings(v any, path string) []string {
	list, ok := d.array(v, path)
	if !ok {
		return nil
	}
	out := make([]string, len(list))
	for i, x := range list {
		out[i], _ = d.str(x, path+"/"+strconv.Itoa(i))
	}
	return out
}

// deal reads one entry of "deals".
func (d *decoder) deal(v any, path string) Deal {
	deal := Deal{Tricks: NoTricks}
	m, ok := d.object(v, path, "dealer", "auction", "tricks", "hands", "play")
	if !ok {
		return deal
	}
	if x, ok := d.member(m, "dealer", path, false); ok {
		deal.Dealer, _ = d.str(x, path+"/dealer")
	}
	if x, ok := d.member(m, "auction", path, true); ok {
		deal.Auction = d.auction(x, path+"/auction")
	}
	if x, ok := d.member(m, "tricks", path, false); ok {
		if n, ok := d.integer(x, path+"/tricks"); ok {
			deal.Tricks = n
			if n < 0 { // NoTricks must keep meaning "absent"
				deal.Tricks = -2
			}
		}
	}
	if x, ok := d.member(m, "hands", path, false); ok {
		deal.Hands = d.hands(x, path+"/hands")
	}
	if x, ok := d.member(m, "play", path, false); ok {
		deal.Play = d.play(x, path+"/play")
	}
	return deal
}

func (d *decoder) auction(v any, path string) []Call {
	list, ok := d.array(v, path)
	if !ok {
		return nil
	}
	calls := make([]Call, 0, len(list))
	for j, x := range list {
		cp := path + "/" + strconv.Itoa(j)
		s, ok := d.str(x, cp)
		if !ok {
			continue
		}
		c, err := ParseCall(s)
		if err != nil {
			d.add(CodeInvalidCall, cp, strconv.Quote(s)+" is "+err.Error())
			continue
		}
		calls = append(calls, c)
	}
	return calls
}

func (d *decoder) card(v any, path, code string) engine.Card {
	s, ok := d.str(v, path)
	if !ok {
		return 0
	}
	c, err := engine.ParseCard(s)
	if err != nil {
		d.add(code, path, strconv.Quote(s)+" is "+err.Error())
	}
	return c
}

func (d *decoder) hands(v any, path string) map[string][]engine.Card {
	m, ok := d.object(v, path)
	if !ok {
		return nil
	}
	hands := make(map[string][]engine.Card, len(m))
	for _, name := range sortedKeys(m) {
		hp := path + "/" + pointerKey(name)
		list, ok := d.array(m[name], hp)
		if !ok {
			continue
		}
		cards := make([]engine.Card, len(list))
		for i, cv := range list {
			cards[i] = d.card(cv, hp+"/"+strconv.Itoa(i), CodeInvalidHands)
		}
		hands[name] = cards
	}
	return hands
}

func (d *decoder) play(v any, path string) [][]Play {
	tricks, ok := d.array(v, path)
	if !ok {
		return nil
	}
	out := make([][]Play, len(tricks))
	for t, tv := range tricks {
		tp := path + "/" + strconv.Itoa(t)
		plays, ok := d.array(tv, tp)
		if !ok {
			continue
		}
		out[t] = make([]Play, len(plays))
		for k, pv := range plays {
			pp := tp + "/" + strconv.Itoa(k)
			pm, ok := d.object(pv, pp, "player", "card")
			if !ok {
				continue
			}
			if x, ok := d.member(pm, "player", pp, true); ok {
				out[t][k].Player, _ = d.str(x, pp+"/player")
			}
			if x, ok := d.member(pm, "card", pp, true); ok {
				out[t][k].Card = d.card(x, pp+"/card", CodeInvalidRecord)
			}
		}
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// parseAny reads one JSON value, numbers as json.Number.
func parseAny(data []byte) (any, *engine.DecodeError) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	if err == nil {
		if _, terr := dec.Token(); terr != io.EOF {
			err = fmt.Errorf("data after the value")
		}
	}
	if err != nil {
		return nil, &engine.DecodeError{Syntax: true, Problems: []engine.Problem{{Code: CodeInvalidRecord, Path: "", Message: "not JSON: " + err.Error()}}}
	}
	return v, nil
}
