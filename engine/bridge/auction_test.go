package bridge_test

import (
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/engine/bridge"
)

func calls(t testing.TB, s string) []bridge.Call {
	t.Helper()
	var out []bridge.Call
	for _, f := range strings.Fields(s) {
		c, err := bridge.ParseCall(f)
		if err != nil {
			t.Fatalf("ParseCall(%q) = %v", f, err)
		}
		out = append(out, c)
	}
	return out
}

func TestParseCall(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"P", "X", "XX", "1C", "1D", "1H", "1S", "1NT", "7NT", "3nt", "p", "xx", "4s"} {
		c, err := bridge.ParseCall(s)
		if err != nil || c.String() != strings.ToUpper(s) {
			t.Errorf("ParseCall(%q) = %v, %v, want %q", s, c, err, strings.ToUpper(s))
		}
	}
	for _, s := range []string{"", "0C", "8C", "1N", "1", "NT", "pass", "XXX", "1CX", "11C", "1SS"} {
		if c, err := bridge.ParseCall(s); err == nil {
			t.Errorf("ParseCall(%q) = %v, want an error", s, c)
		}
	}
	prev := bridge.Pass
	for level := 1; level <= 7; level++ {
		for st := bridge.Clubs; st <= bridge.NoTrump; st++ {
			b := bridge.Bid(level, st)
			if !b.IsBid() || b <= prev || b.Level() != level || b.Strain() != st {
				t.Errorf("Bid(%d, %v) = %v: not the next bid up", level, st, b)
			}
			prev = b
		}
	}
}

// TestAuction follows auctions call by call at a table of four (dealer
// seat 0) and of two.
func TestAuction(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		players  int
		calls    string
		code     string // of the first call refused
		at       int
		done     bool
		contract string // "" passed out or not done
		declarer int
	}{
		{4, "1NT P 3NT P P P", "", 0, true, "3NT", 0},
		{4, "P P P P", "", 0, true, "", 0},
		{4, "P P P", "", 0, false, "", 0},
		{4, "1S X XX P P P", "", 0, true, "1SXX", 0},
		{4, "1S P 4S X P P P", "", 0, true, "4SX", 0},
		{4, "P 1H P 2H P 2S P 4H P P P", "", 0, true, "4H", 1},
		{4, "1C 1H 1S 2H P 3H P P P", "", 0, true, "3H", 1},
		{4, "1C X P P XX P P P", "", 0, true, "1CXX", 0},
		{4, "1C X 1D P P P", "", 0, true, "1D", 2},
		{4, "2S 2H P P P", bridge.CodeInsufficientBid, 1, false, "", 0},
		{4, "1NT 1NT", bridge.CodeInsufficientBid, 1, false, "", 0},
		{4, "X", bridge.CodeInvalidDouble, 0, false, "", 0},
		{4, "1C P X", bridge.CodeInvalidDouble, 2, false, "", 0},
		{4, "1C X X", bridge.CodeInvalidDouble, 2, false, "", 0},
		{4, "1C X XX X", bridge.CodeInvalidDouble, 3, false, "", 0},
		{4, "1C XX", bridge.CodeInvalidRedouble, 1, false, "", 0},
		{4, "1C X P XX", bridge.CodeInvalidRedouble, 3, false, "", 0},
		{4, "1C X XX XX", bridge.CodeInvalidRedouble, 3, false, "", 0},
		{4, "1C X P P XX", "", 0, false, "", 0},
		{4, "1C P P P P", bridge.CodeCallAfterEnd, 4, false, "", 0},
		{4, "P P P P 1C", bridge.CodeCallAfterEnd, 4, false, "", 0},
		{4, "7NT X XX P P P", "", 0, true, "7NTXX", 0},
		{2, "4S P", "", 0, true, "4S", 0},
		{2, "P P", "", 0, true, "", 0},
		{2, "P 1C P", "", 0, true, "1C", 1},
		{2, "1C X P", "", 0, true, "1CX", 0},
		{2, "1C X XX P", "", 0, true, "1CXX", 0},
		{2, "1C 2C 2NT P", "", 0, true, "2NT", 0},
		{2, "1S P P", bridge.CodeCallAfterEnd, 2, false, "", 0},
		{2, "1S X X", bridge.CodeInvalidDouble, 2, false, "", 0},
	} {
		a := bridge.NewAuction(tc.players, 0)
		code, at := "", 0
		for i, c := range calls(t, tc.calls) {
			if err := a.Add(c); err != nil {
				code, at = err.(*bridge.CallError).Code, i
				break
			}
		}
		if code != tc.code || at != tc.at {
			t.Errorf("auction %q (%d players): refused %q at %d, want %q at %d", tc.calls, tc.players, code, at, tc.code, tc.at)
			continue
		}
		if tc.code != "" {
			continue
		}
		c, decl, ok := a.Contract()
		got := ""
		if ok {
			got = c.String()
		}
		if a.Done() != tc.done || got != tc.contract || decl != tc.declarer {
			t.Errorf("auction %q: done %v contract %q declarer %d, want %v %q %d", tc.calls, a.Done(), got, decl, tc.done, tc.contract, tc.declarer)
		}
	}
}

// TestAuctionRefusalChangesNothing checks that a refused call leaves the
// auction as it was.
func TestAuctionRefusalChangesNothing(t *testing.T) {
	t.Parallel()
	a := bridge.NewAuction(4, 1)
	for _, c := range calls(t, "1H P") {
		if err := a.Add(c); err != nil {
			t.Fatal(err)
		}
	}
	before := a
	if err := a.Add(bridge.Redouble); err == nil {
		t.Fatal("XX without a double was taken")
	}
	if a != before || a.Next() != 3 || a.Calls() != 2 {
		t.Fatalf("a refused call changed the auction: %+v, want %+v", a, before)
	}
}
