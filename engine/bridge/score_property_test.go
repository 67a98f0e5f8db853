package bridge_test

import (
	"fmt"
	"testing"

	"github.com/revisor-sm/revisor/engine/bridge"
)

// lawsScore is the score of a contract written from the Laws' scoring
// table a second time, trick by trick and from literal tables, so that it
// shares no formula with ScoreContract. It returns the declaring side's
// points below and above the line and the defenders' points.
func lawsScore(level int, strain bridge.Strain, dbl bridge.Doubling, tricks int, vul bool) (below, above, defenders int) {
	v := 0
	if vul {
		v = 1
	}
	if short := 6 + level - tricks; short > 0 {
		// Per undertrick, first to thirteenth: [vulnerable][doubling].
		each := [2][3][13]int{
			{
				{50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50},
				{100, 200, 200, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300},
				{200, 400, 400, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600},
			},
			{
				{100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100},
				{200, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300},
				{400, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600},
			},
		}
		for k := range short {
			defenders += each[v][dbl][k]
		}
		return 0, 0, defenders
	}
	factor := map[bridge.Doubling]int{bridge.Undoubled: 1, bridge.Doubled: 2, bridge.Redoubled: 4}[dbl]
	for k := 1; k <= level; k++ {
		switch {
		case strain == bridge.Clubs || strain == bridge.Diamonds:
			below += 20 * factor
		case strain == bridge.Hearts || strain == bridge.Spades:
			below += 30 * factor
		case k == 1:
			below += 40 * factor
		default:
			below += 30 * factor
		}
	}
	overEach := map[bridge.Doubling][2]int{bridge.Doubled: {100, 200}, bridge.Redoubled: {200, 400}}
	for range tricks - 6 - level {
		if dbl == bridge.Undoubled {
			above += map[bridge.Strain]int{bridge.Clubs: 20, bridge.Diamonds: 20}[strain] +
				map[bridge.Strain]int{bridge.Hearts: 30, bridge.Spades: 30, bridge.NoTrump: 30}[strain]
		} else {
			above += overEach[dbl][v]
		}
	}
	above += map[bridge.Doubling]int{bridge.Doubled: 50, bridge.Redoubled: 100}[dbl]
	slams := map[int][2]int{6: {500, 750}, 7: {1000, 1500}}
	above += slams[level][v]
	return below, above, defenders
}

// TestScoreContractAgainstLaws checks every contract, result, vulnerability
// and double state against the second formulation.
func TestScoreContractAgainstLaws(t *testing.T) {
	t.Parallel()
	n := 0
	for level := 1; level <= 7; level++ {
		for strain := bridge.Clubs; strain <= bridge.NoTrump; strain++ {
			for dbl := bridge.Undoubled; dbl <= bridge.Redoubled; dbl++ {
				for _, vul := range []bool{false, true} {
					for tricks := 0; tricks <= 13; tricks++ {
						c := bridge.Contract{Level: level, Strain: strain, Double: dbl}
						got := bridge.ScoreContract(c, tricks, vul)
						below, above, def := lawsScore(level, strain, dbl, tricks, vul)
						if got.Below != below || got.Above() != above || got.Undertricks != def {
							t.Errorf("ScoreContract(%v, %d, vul %v) = below %d above %d defenders %d, want %d %d %d",
								c, tricks, vul, got.Below, got.Above(), got.Undertricks, below, above, def)
						}
						n++
					}
				}
			}
		}
	}
	if n != 7*5*3*2*14 {
		t.Fatalf("checked %d cases", n)
	}
}

// TestScoreContractKnown checks figures known from printed scoring tables.
func TestScoreContractKnown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		contract string
		tricks   int
		vul      bool
		below    int
		above    int
		def      int
	}{
		{"1NT", 7, false, 40, 0, 0},
		{"3NT", 10, false, 100, 30, 0},
		{"4S", 10, true, 120, 0, 0},
		{"2C", 8, false, 40, 0, 0},
		{"5D", 12, false, 100, 20, 0},
		{"1SXX", 7, true, 120, 100, 0},
		{"2HX", 9, true, 120, 250, 0},
		{"1CX", 9, false, 40, 250, 0},
		{"1CXX", 9, true, 80, 900, 0},
		{"6S", 12, false, 180, 500, 0},
		{"6NT", 13, true, 190, 780, 0},
		{"7NT", 13, false, 220, 1000, 0},
		{"7NTXX", 13, true, 880, 1600, 0},
		{"4SX", 7, true, 0, 0, 800},
		{"4SX", 7, false, 0, 0, 500},
		{"4S", 7, false, 0, 0, 150},
		{"3NTX", 5, false, 0, 0, 800},
		{"3NTXX", 5, true, 0, 0, 2200},
		{"7NTX", 0, false, 0, 0, 3500},
		{"7NTX", 0, true, 0, 0, 3800},
		{"7NTXX", 0, true, 0, 0, 7600},
	} {
		c := mustContract(t, tc.contract)
		got := bridge.ScoreContract(c, tc.tricks, tc.vul)
		if got.Below != tc.below || got.Above() != tc.above || got.Undertricks != tc.def {
			t.Errorf("ScoreContract(%s, %d, vul %v) = %+v, want below %d above %d defenders %d",
				tc.contract, tc.tricks, tc.vul, got, tc.below, tc.above, tc.def)
		}
	}
}

// mustContract reads "4SX" and the like.
func mustContract(t testing.TB, s string) bridge.Contract {
	t.Helper()
	d := bridge.Undoubled
	for len(s) > 2 && s[len(s)-1] == 'X' {
		d++
		s = s[:len(s)-1]
	}
	call, err := bridge.ParseCall(s)
	if err != nil || !call.IsBid() {
		t.Fatalf("not a contract: %q", s)
	}
	c := bridge.Contract{Level: call.Level(), Strain: call.Strain(), Double: d}
	if got := fmt.Sprint(c); got != s+map[bridge.Doubling]string{1: "X", 2: "XX"}[d] {
		t.Fatalf("Contract.String() = %q", got)
	}
	return c
}
