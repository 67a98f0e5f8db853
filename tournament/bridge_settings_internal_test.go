package tournament

import (
	"slices"
	"testing"
)

// A bridge_chicago tournament's settings and rules (rules.go): the
// defaults, and what the format refuses.

func TestBridgeSettings(t *testing.T) {
	t.Parallel()
	set, err := NewTournament{Name: "b", Format: FormatBridge, Rounds: ptr(4)}.Settings()
	if err != nil || set.GamesPerRound != 1 || !slices.Equal(set.Tiebreaks, bridgeTiebreaks) {
		t.Fatalf("defaults: %+v, %v", set, err)
	}
	for name, n := range map[string]NewTournament{
		"no rounds":      {Name: "b", Format: FormatBridge},
		"two chicagos":   {Name: "b", Format: FormatBridge, Rounds: ptr(4), GamesPerRound: ptr(2)},
		"by standings":   {Name: "b", Format: FormatBridge, Rounds: ptr(4), Seating: SeatingByStandings},
		"unknown format": {Name: "b", Format: "bridge", Rounds: ptr(4)},
	} {
		if _, err := n.Settings(); ErrorKind(err) != KindInvalid {
			t.Errorf("%s: %v, want invalid", name, err)
		}
	}
	for raw, ok := range map[string]bool{`{"vulnerability":"non_dealer"}`: true, `{}`: true, `{"vulnerability":"all"}`: false, `{"preset":"sm"}`: false, `[]`: false} {
		if err := CheckRules(FormatBridge, []byte(raw)); (err == nil) != ok {
			t.Errorf("CheckRules(bridge, %s) = %v", raw, err)
		}
	}
}
