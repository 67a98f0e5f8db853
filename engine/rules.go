package engine

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/revisor-sm/revisor/engine/cards"
	"github.com/revisor-sm/revisor/engine/internal/jsontree"
)

// Values of the enumerated switches of docs/game-rules.md.
const (
	LeadLeftOfDealer    = "left_of_dealer"
	LeadChicagoDeclarer = "chicago_declarer"
	OpenCardOnRequest   = "on_request"
	OpenCardOff         = "off"
	StockReshuffle      = "reshuffle"
	StockForbid         = "forbid"
	ForfeitGame         = "forfeit_game"
	Penalty             = "penalty"
	SuitOrderNone       = "none"
)

// NullInt is a number switch that may be null (no limit).
type NullInt struct {
	Value int
	Null  bool
}

// Rules is a complete rule set: a preset with its overrides applied. The
// fields are the switches of docs/game-rules.md. Rules is a plain value; copy it
// freely.
type Rules struct {
	Preset                 string
	MinPlayers, MaxPlayers int
	FirstLead              string
	NegativeScores         bool
	ChicagoMinScore        NullInt
	ChicagoPoints          int
	ChicagoStacksLastTrick bool
	LastTrickPoints        int
	ExchangeStop           NullInt
	OpenCard               string
	StockExhaustion        string
	QuadsResetOpponents    bool
	WinRequiresChicago     bool
	// SuitOrder is "none" or the four suit letters from highest to lowest,
	// such as "shdc".
	SuitOrder         string
	RoyalInstantWin   bool
	HandPoints        [NumCategories]int // indexed by Category; HighCard is always 0
	Target            int
	FalseAnnouncement string
	// ShowOnBreak is the rule show_on_break (docs/game-rules.md names it; sm: true).
	ShowOnBreak bool
}

// SM returns the preset "sm", the rules of the Swedish championship.
func SM() Rules {
	return Rules{
		Preset: "sm", MinPlayers: 3, MaxPlayers: 4, FirstLead: LeadLeftOfDealer,
		ChicagoMinScore: NullInt{Value: 15}, ChicagoPoints: 15, LastTrickPoints: 5,
		ExchangeStop: NullInt{Value: 46}, OpenCard: OpenCardOnRequest,
		StockExhaustion: StockReshuffle, SuitOrder: SuitOrderNone,
		HandPoints: [NumCategories]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 52},
		Target:     52, FalseAnnouncement: ForfeitGame, ShowOnBreak: true,
	}
}

// Preset returns the named preset. The only preset is "sm".
func Preset(name string) (Rules, error) {
	if name != "sm" {
		return Rules{}, &DecodeError{Problems: []Problem{{Code: "unknown_rule", Path: "/preset",
			Message: fmt.Sprintf("unknown preset %q (known: sm)", name), At: Location{Part: PartRules, Member: "preset"}}}}
	}
	return SM(), nil
}

// ParseRules reads the JSON of a "rules" object: {"preset": "sm",
// "overrides": {...}}. Errors are *DecodeError with paths inside the object;
// each problem's At locates it as the rules of a record would.
func ParseRules(data []byte) (Rules, error) {
	v, d, derr := parseJSON(data)
	if derr != nil {
		return Rules{}, derr
	}
	d.root = PartRules
	r := d.rules(v, nil)
	if err := d.failed(); err != nil {
		return Rules{}, err
	}
	return r, nil
}

// Override returns r with one switch set. value is any Go value that
// encoding/json writes as the switch's JSON (a bool, a number, a string, nil
// or a map for hand_points). An unknown switch or value is an
// "unknown_rule" *DecodeError.
func (r Rules) Override(name string, value any) (Rules, error) {
	data, err := json.Marshal(value)
	if err != nil {
		return r, err
	}
	v, d, derr := parseJSON(data)
	if derr != nil {
		return r, derr
	}
	p := ptr{key: name, idx: -1}
	d.root = PartOverrides
	d.override(&r, name, v, &p)
	if err := d.failed(); err != nil {
		return r, err
	}
	return r, nil
}

// Points returns the points of category c under r.
func (r *Rules) Points(c Category) int {
	if int(c) >= NumCategories {
		return 0
	}
	return r.HandPoints[c]
}

// suitRank returns the tie-break strength of suit s (higher is stronger),
// or -1 without a suit order.
func (r *Rules) suitRank(s int) int {
	if len(r.SuitOrder) != 4 {
		return -1
	}
	i := strings.IndexByte(r.SuitOrder, cards.SuitChars[s])
	return 3 - i
}

// rules decodes a "rules" object.
func (d *decoder) rules(v jsontree.Node, p *ptr) Rules {
	obj, ok := d.object(v, p)
	if !ok {
		return SM()
	}
	r := SM()
	for kvKey := range d.members(obj) {
		if kvKey != "preset" && kvKey != "overrides" {
			c := p.field(kvKey)
			d.add("unknown_rule", &c, "unknown key %q in rules (want preset, overrides)", kvKey)
		}
	}
	if pv, ok := d.get(obj, "preset"); ok {
		c := p.field("preset")
		if name, ok := d.str(pv, &c); ok && name != "sm" {
			d.add("unknown_rule", &c, "unknown preset %q (known: sm)", name)
		}
	}
	ov, ok := d.get(obj, "overrides")
	if !ok {
		return r
	}
	c := p.field("overrides")
	o, ok := d.object(ov, &c)
	if !ok {
		return r
	}
	for kvKey, kv := range d.members(o) {
		kp := c.field(kvKey)
		d.override(&r, kvKey, kv, &kp)
	}
	return r
}

// override sets one switch, reporting problems at p.
func (d *decoder) override(r *Rules, name string, v jsontree.Node, p *ptr) {
	switch name {
	case "players":
		d.players(r, v, p)
	case "first_lead":
		r.FirstLead = d.enum(v, p, r.FirstLead, LeadLeftOfDealer, LeadChicagoDeclarer)
	case "negative_scores":
		r.NegativeScores = d.boolean(v, p, r.NegativeScores)
	case "chicago_min_score":
		r.ChicagoMinScore = d.nullInt(v, p, r.ChicagoMinScore)
	case "chicago_points":
		r.ChicagoPoints = d.number(v, p, r.ChicagoPoints)
	case "chicago_stacks_last_trick":
		r.ChicagoStacksLastTrick = d.boolean(v, p, r.ChicagoStacksLastTrick)
	case "last_trick_points":
		r.LastTrickPoints = d.number(v, p, r.LastTrickPoints)
	case "exchange_stop":
		r.ExchangeStop = d.nullInt(v, p, r.ExchangeStop)
	case "open_card":
		r.OpenCard = d.enum(v, p, r.OpenCard, OpenCardOnRequest, OpenCardOff)
	case "stock_exhaustion":
		r.StockExhaustion = d.enum(v, p, r.StockExhaustion, StockReshuffle, StockForbid)
	case "quads_reset_opponents":
		r.QuadsResetOpponents = d.boolean(v, p, r.QuadsResetOpponents)
	case "win_requires_chicago":
		r.WinRequiresChicago = d.boolean(v, p, r.WinRequiresChicago)
	case "suit_order":
		d.suitOrder(r, v, p)
	case "royal_instant_win":
		r.RoyalInstantWin = d.boolean(v, p, r.RoyalInstantWin)
	case "hand_points":
		d.handPoints(r, v, p)
	case "target":
		r.Target = d.number(v, p, r.Target)
	case "false_announcement":
		r.FalseAnnouncement = d.enum(v, p, r.FalseAnnouncement, ForfeitGame, Penalty)
	case "show_on_break":
		r.ShowOnBreak = d.boolean(v, p, r.ShowOnBreak)
	case "binding", "wheel":
		if b := d.boolean(v, p, true); !b {
			d.add("unknown_rule", p, "%s: only true is supported (the rules give no alternative)", name)
		}
	default:
		d.add("unknown_rule", p, "unknown switch %q", name)
	}
}

func (d *decoder) players(r *Rules, v jsontree.Node, p *ptr) {
	if v.Kind() == jsontree.Str {
		s := d.t.Text(v)
		lo, hi, found := strings.Cut(s, "-")
		if !found {
			hi = lo
		}
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if err1 == nil && err2 == nil && 2 <= a && a <= b && b <= 4 {
			r.MinPlayers, r.MaxPlayers = a, b
			return
		}
		d.add("unknown_rule", p, "players %q: want a range such as \"3-4\" within 2-4", s)
		return
	}
	n := d.number(v, p, -1)
	if n == -1 {
		return
	}
	if n < 2 || n > 4 {
		d.add("unknown_rule", p, "players %d: want 2 to 4", n)
		return
	}
	r.MinPlayers, r.MaxPlayers = n, n
}

func (d *decoder) suitOrder(r *Rules, v jsontree.Node, p *ptr) {
	s, ok := d.str(v, p)
	if !ok {
		return
	}
	s = strings.ToLower(s)
	if s == SuitOrderNone {
		r.SuitOrder = s
		return
	}
	if len(s) == 4 && strings.Contains(s, "c") && strings.Contains(s, "d") &&
		strings.Contains(s, "h") && strings.Contains(s, "s") {
		r.SuitOrder = s
		return
	}
	d.add("unknown_rule", p, "suit_order %q: want none or the four suits highest first, such as shdc", s)
}

func (d *decoder) handPoints(r *Rules, v jsontree.Node, p *ptr) {
	obj, ok := d.object(v, p)
	if !ok {
		return
	}
	for kvKey, kv := range d.members(obj) {
		c := p.field(kvKey)
		cat, ok := ParseCategory(kvKey)
		if !ok {
			d.add("unknown_rule", &c, "hand_points: unknown category %q", kvKey)
			continue
		}
		r.HandPoints[cat] = d.number(kv, &c, r.HandPoints[cat])
	}
}

func (d *decoder) enum(v jsontree.Node, p *ptr, old string, allowed ...string) string {
	s, ok := d.str(v, p)
	if !ok {
		return old
	}
	for _, a := range allowed {
		if s == a {
			return s
		}
	}
	d.add("unknown_rule", p, "unknown value %q (want one of %s)", s, strings.Join(allowed, ", "))
	return old
}

func (d *decoder) boolean(v jsontree.Node, p *ptr, old bool) bool {
	if v.Kind() != jsontree.Bool {
		d.wrongType(p, "true or false", typeName(v))
		return old
	}
	return v.True()
}

func (d *decoder) nullInt(v jsontree.Node, p *ptr, old NullInt) NullInt {
	if v.Kind() == jsontree.Null {
		return NullInt{Null: true}
	}
	n, ok := d.integer(v, p)
	if !ok {
		return old
	}
	return NullInt{Value: n}
}

func (d *decoder) number(v jsontree.Node, p *ptr, old int) int {
	n, ok := d.integer(v, p)
	if !ok {
		return old
	}
	return n
}

// MarshalJSON writes r as {"preset": "sm", "overrides": {...}} with the
// switches that differ from the preset.
func (r Rules) MarshalJSON() ([]byte, error) {
	base := SM()
	ov := map[string]any{}
	if r.MinPlayers != base.MinPlayers || r.MaxPlayers != base.MaxPlayers {
		ov["players"] = fmt.Sprintf("%d-%d", r.MinPlayers, r.MaxPlayers)
	}
	diff := func(name string, a, b, v any) {
		if a != b {
			ov[name] = v
		}
	}
	diff("first_lead", r.FirstLead, base.FirstLead, r.FirstLead)
	diff("negative_scores", r.NegativeScores, base.NegativeScores, r.NegativeScores)
	diff("chicago_min_score", r.ChicagoMinScore, base.ChicagoMinScore, r.ChicagoMinScore.json())
	diff("chicago_points", r.ChicagoPoints, base.ChicagoPoints, r.ChicagoPoints)
	diff("chicago_stacks_last_trick", r.ChicagoStacksLastTrick, base.ChicagoStacksLastTrick, r.ChicagoStacksLastTrick)
	diff("last_trick_points", r.LastTrickPoints, base.LastTrickPoints, r.LastTrickPoints)
	diff("exchange_stop", r.ExchangeStop, base.ExchangeStop, r.ExchangeStop.json())
	diff("open_card", r.OpenCard, base.OpenCard, r.OpenCard)
	diff("stock_exhaustion", r.StockExhaustion, base.StockExhaustion, r.StockExhaustion)
	diff("quads_reset_opponents", r.QuadsResetOpponents, base.QuadsResetOpponents, r.QuadsResetOpponents)
	diff("win_requires_chicago", r.WinRequiresChicago, base.WinRequiresChicago, r.WinRequiresChicago)
	diff("suit_order", r.SuitOrder, base.SuitOrder, r.SuitOrder)
	diff("royal_instant_win", r.RoyalInstantWin, base.RoyalInstantWin, r.RoyalInstantWin)
	if r.HandPoints != base.HandPoints {
		hp := map[string]int{}
		for c := Pair; c <= RoyalStraightFlush; c++ {
			hp[c.String()] = r.HandPoints[c]
		}
		ov["hand_points"] = hp
	}
	diff("target", r.Target, base.Target, r.Target)
	diff("false_announcement", r.FalseAnnouncement, base.FalseAnnouncement, r.FalseAnnouncement)
	diff("show_on_break", r.ShowOnBreak, base.ShowOnBreak, r.ShowOnBreak)
	out := map[string]any{"preset": "sm"}
	if len(ov) > 0 {
		out["overrides"] = ov
	}
	return json.Marshal(out)
}

func (n NullInt) json() any {
	if n.Null {
		return nil
	}
	return n.Value
}

// UnmarshalJSON reads a "rules" object (see ParseRules).
func (r *Rules) UnmarshalJSON(b []byte) error {
	v, err := ParseRules(b)
	if err != nil {
		return err
	}
	*r = v
	return nil
}

// isIntegral reports whether f is a whole number that fits an int.
func isIntegral(f float64) bool {
	return f == math.Trunc(f) && math.Abs(f) < 1<<53
}
