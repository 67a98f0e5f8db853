package site

import (
	"reflect"
	"testing"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/tournament"
)

func TestHouseRulesFromForm(t *testing.T) {
	if raw, err := HouseRulesFromForm(map[string]string{"rule_profile": "sm", "rule_quads_reset": "on"}); err != nil || raw != nil {
		t.Errorf("the sm profile = %s, %v; want no rules object (the preset), the switches ignored", raw, err)
	}
	own := map[string]string{"rule_profile": "own", "rule_exchange_stop": "", "rule_quads_reset": "on", "rule_chicago_leads": "on", "rule_suit_order": "on"}
	raw, err := HouseRulesFromForm(own)
	if err != nil {
		t.Fatal(err)
	}
	r, err := engine.ParseRules(raw)
	if err != nil {
		t.Fatalf("the engine does not read %s: %v", raw, err)
	}
	if !r.ExchangeStop.Null || !r.QuadsResetOpponents || r.FirstLead != engine.LeadChicagoDeclarer || r.SuitOrder != "shdc" || r.RoyalInstantWin || r.NegativeScores {
		t.Errorf("own rules %s read as %+v", raw, r)
	}
	for _, p := range ruleProfiles[1:] {
		raw, err := HouseRulesFromForm(map[string]string{"rule_profile": p.ID})
		if err != nil {
			t.Fatal(err)
		}
		r, err := engine.ParseRules(raw)
		if err != nil || !reflect.DeepEqual(r, p.rules()) || profileOf(r) != p.ID {
			t.Errorf("profile %s: %s read as %+v, %v (profile %s)", p.ID, raw, r, err, profileOf(r))
		}
	}
	for _, bad := range []map[string]string{{"rule_profile": "poker"}, {"rule_profile": "own", "rule_exchange_stop": "x"}, {"rule_profile": "own", "rule_exchange_stop": "-1"}} {
		if _, err := HouseRulesFromForm(bad); tournament.ErrorCode(err) != "invalid_rules" {
			t.Errorf("houseRulesFromForm(%v) = %v, want invalid_rules", bad, err)
		}
	}
}

func TestRulesLines(t *testing.T) {
	p := &Page{Lang: "en"}
	r := engine.SM()
	lines := RulesLines(p, r)
	if lines[1] != "A player with 46 points or more exchanges no more cards." || lines[6] != "A four of a kind scores its points; the others keep theirs." {
		t.Errorf("the sm rules in words: %q", lines)
	}
	r.ExchangeStop, r.QuadsResetOpponents = engine.NullInt{Null: true}, true
	lines = RulesLines(p, r)
	if lines[1] != "Every player may exchange at any score." || lines[6] != "A four of a kind that scores sets every other player's score to 0." {
		t.Errorf("changed rules in words: %q", lines)
	}
	if got := RulesSummary(p, r); got != "the club's own house rules (see the sheet)" {
		t.Errorf("rulesSummary = %q", got)
	}
}
