package site

import (
	"encoding/json"
	"reflect"
	"strconv"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/tournament"
)

// ruleProfile is a named set of house rules the create form offers: the
// Chicago-SM's, and profiles common at clubs (docs/game-rules.md, "House
// rules in the form", names each one's sources).
type ruleProfile struct {
	ID    string
	rules func() engine.Rules
}

// ruleProfiles are the named profiles in the form's order; "own" (the
// form's switches) follows them.
var ruleProfiles = []ruleProfile{
	{"sm", engine.SM},
	{"club42", func() engine.Rules {
		r := engine.SM()
		r.ExchangeStop = engine.NullInt{Value: 42}
		r.RoyalInstantWin = true
		return r
	}},
	{"fi_home", func() engine.Rules {
		r := engine.SM()
		r.ExchangeStop = engine.NullInt{Value: 42}
		r.QuadsResetOpponents = true
		r.RoyalInstantWin = true
		return r
	}},
}

// HouseRuleFields are the create form's fields of the house rules.
var HouseRuleFields = []string{"rule_profile", "rule_exchange_stop", "rule_quads_reset", "rule_royal_win",
	"rule_negative", "rule_win_chicago", "rule_chicago_leads", "rule_suit_order"}

// ProfileIDs are the profiles the form offers, "own" last.
func ProfileIDs() []string {
	out := make([]string, 0, len(ruleProfiles)+1)
	for _, p := range ruleProfiles {
		out = append(out, p.ID)
	}
	return append(out, profileOwn)
}

// profileOwn is the form's choice "own rules": the switches as set.
const profileOwn = "own"

// ExchangeStops are the exchange stops the form offers ("" is no stop).
var ExchangeStops = []string{"46", "47", "42", ""}

// HouseRulesFromForm reads the create form's house rules: a named profile,
// or the switches under "own rules". The Chicago-SM's rules are nil (the
// tournament's default preset), others the engine's rules object.
func HouseRulesFromForm(values map[string]string) (json.RawMessage, error) {
	r, err := formRules(values)
	if err != nil {
		return nil, err
	}
	if reflect.DeepEqual(r, engine.SM()) {
		return nil, nil
	}
	return json.Marshal(r)
}

func formRules(values map[string]string) (engine.Rules, error) {
	id := values["rule_profile"]
	for _, p := range ruleProfiles {
		if p.ID == id {
			return p.rules(), nil
		}
	}
	if id != profileOwn && id != "" {
		return engine.Rules{}, tournament.InvalidField("rules", "unknown rule profile %q", id)
	}
	r := engine.SM()
	switch s := values["rule_exchange_stop"]; s {
	case "":
		r.ExchangeStop = engine.NullInt{Null: true}
	default:
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > 200 {
			return engine.Rules{}, tournament.InvalidField("rules", "the exchange stop %q is not a score", s)
		}
		r.ExchangeStop = engine.NullInt{Value: n}
	}
	on := func(k string) bool { return values[k] != "" }
	r.QuadsResetOpponents = on("rule_quads_reset")
	r.RoyalInstantWin = on("rule_royal_win")
	r.NegativeScores = on("rule_negative")
	r.WinRequiresChicago = on("rule_win_chicago")
	if on("rule_chicago_leads") {
		r.FirstLead = engine.LeadChicagoDeclarer
	}
	if on("rule_suit_order") {
		r.SuitOrder = "shdc"
	}
	return r, nil
}

// HouseRuleDefaults are the create form's switches as the Chicago-SM sets
// them.
func HouseRuleDefaults(v map[string]string) {
	v["rule_profile"], v["rule_exchange_stop"] = "sm", "46"
}

// TournamentRules returns the rules a tournament plays, as the engine
// reads them (the Chicago-SM's when it names none).
func TournamentRules(t *tournament.Tournament) engine.Rules {
	if t.Settings.Rules == nil {
		return engine.SM()
	}
	r, err := engine.ParseRules(t.Settings.Rules)
	if err != nil {
		return engine.SM()
	}
	return r
}

// profileOf names the profile r is, or "own".
func profileOf(r engine.Rules) string {
	for _, p := range ruleProfiles {
		if reflect.DeepEqual(p.rules(), r) {
			return p.ID
		}
	}
	return profileOwn
}

// RulesSummary names the tournament's rules in a few words: its profile's
// name, or the club's own rules, which the rules sheet spells out.
func RulesSummary(p *Page, r engine.Rules) string {
	if id := profileOf(r); id != profileOwn {
		return p.T("hr.profile." + id)
	}
	return p.T("hr.own_rules")
}

// RulesLines are the tournament's rules in words, one switch a line, for
// the rules sheet.
func RulesLines(p *Page, r engine.Rules) []string {
	onOff := func(on bool, key string) string {
		if on {
			return p.T(key + ".on")
		}
		return p.T(key + ".off")
	}
	stop := p.T("rs.stop.none")
	if !r.ExchangeStop.Null {
		stop = p.T("rs.stop", r.ExchangeStop.Value)
	}
	lead := p.T("rs.lead.left")
	if r.FirstLead == engine.LeadChicagoDeclarer {
		lead = p.T("rs.lead.chicago")
	}
	hp := r.HandPoints
	return []string{
		p.T("rs.target", r.Target),
		stop,
		p.T("rs.hands", hp[1], hp[2], hp[3], hp[4], hp[5], hp[6], hp[7], hp[8], hp[9]),
		p.T("rs.last", r.LastTrickPoints),
		p.T("rs.chicago", r.ChicagoPoints),
		lead,
		onOff(r.QuadsResetOpponents, "rs.quads"),
		onOff(r.RoyalInstantWin, "rs.royal"),
		onOff(r.NegativeScores, "rs.negative"),
		onOff(r.WinRequiresChicago, "rs.win_chicago"),
		onOff(r.SuitOrder != engine.SuitOrderNone, "rs.suits"),
	}
}

// RulesData is the rules sheet's data.
type RulesData struct {
	Profile string
	Lines   []string
	Bridge  bool
}

// rulesURL is the address of a tournament's rules sheet.
func rulesURL(tid string) string { return "/t/" + PathEscape(tid) + "/rules" }

// RulesLine is the rules of the page's tournament in one line, for the
// tournament and table pages ("Rules: Chicago-SM (…)"), "" on a page of
// no tournament.
func (p *Page) RulesLine() string {
	if p.Tournament == nil {
		return ""
	}
	if p.Tournament.Format == tournament.FormatBridge {
		return p.T("rs.line", p.T("bsheet.chicago"))
	}
	return p.T("rs.line", RulesSummary(p, TournamentRules(p.Tournament)))
}

// RulesURL is the address of the page's tournament's rules sheet.
func (p *Page) RulesURL() string {
	if p.Tournament == nil {
		return ""
	}
	return rulesURL(p.Tournament.ID)
}
