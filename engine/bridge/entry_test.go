package bridge_test

import (
	"testing"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/bridge"
)

// TestEntryDeal turns every contract, double state, declarer and dealer
// into an auction and checks that the engine reads back the same contract
// and declarer, at tables of four and two.
func TestEntryDeal(t *testing.T) {
	t.Parallel()
	for _, players := range [][]string{four, {"anna", "bo"}} {
		n := len(players)
		for level := 1; level <= 7; level++ {
			for st := bridge.Clubs; st <= bridge.NoTrump; st++ {
				for dbl := bridge.Undoubled; dbl <= bridge.Redoubled; dbl++ {
					for decl := range n {
						for dealer := range n {
							c := bridge.Contract{Level: level, Strain: st, Double: dbl}
							e := bridge.Entry{Contract: c, Declarer: players[decl], Tricks: 7}
							d, probs := bridge.EntryDeal(e, players, dealer)
							if probs != nil {
								t.Fatalf("EntryDeal(%v by %s) = %v", c, players[decl], probs)
							}
							a := bridge.NewAuction(n, dealer)
							for _, call := range d.Auction {
								if err := a.Add(call); err != nil {
									t.Fatalf("EntryDeal(%v by %s, dealer %d): auction %v refused: %v", c, players[decl], dealer, d.Auction, err)
								}
							}
							got, gotDecl, ok := a.Contract()
							if !ok || got != c || gotDecl != decl || d.Tricks != 7 || d.Dealer != players[dealer] {
								t.Fatalf("EntryDeal(%v by %s, dealer %d): auction %v gives %v by seat %d", c, players[decl], dealer, d.Auction, got, gotDecl)
							}
						}
					}
				}
			}
		}
		d, _ := bridge.EntryDeal(bridge.Entry{PassedOut: true}, players, 1)
		if len(d.Auction) != n || d.Tricks != bridge.NoTricks {
			t.Errorf("passed out at %d players: %v", n, d)
		}
	}
	if _, probs := bridge.EntryDeal(bridge.Entry{Contract: bridge.Contract{Level: 1}, Declarer: "eve", Tricks: 14}, four, 0); len(probs) != 2 ||
		probs[0].Code != bridge.CodeUnknownPlayer || probs[1].Code != bridge.CodeInvalidTricks {
		t.Errorf("a stranger declaring 14 tricks: %v", probs)
	}
}

func TestDecodeEntry(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{"contract":"4SX","declarer":"bo","tricks":9}`:  "4SX bo 9",
		`{"contract":"3nt","declarer":"cia","tricks":0}`: "3NT cia 0",
		`{"passed_out":true}`:                            "passed out",
		`{"auction":["P","P","P","P"]}`:                  "full",
	} {
		e, _, full, err := bridge.DecodeEntry([]byte(in))
		got := "full"
		switch {
		case err != nil:
			got = err.Error()
		case e.PassedOut:
			got = "passed out"
		case !full:
			got = e.Contract.String() + " " + e.Declarer + " " + string(rune('0'+e.Tricks))
		}
		if got != want {
			t.Errorf("DecodeEntry(%s) = %q, want %q", in, got, want)
		}
	}
	for in, code := range map[string]string{
		`{"contract":"4Z","declarer":"bo","tricks":9}`:       "invalid_call:/contract",
		`{"contract":"4S","tricks":9}`:                       "invalid_record:/declarer",
		`{"contract":"4S","declarer":"bo","tricks":"9"}`:     "invalid_record:/tricks",
		`{"passed_out":true,"tricks":9}`:                     "invalid_record:/tricks",
		`{"contract":"4S","declarer":"bo","tricks":9,"x":1}`: "invalid_record:/x",
		`[]`: "invalid_record:",
		`{`:  "invalid_record:",
	} {
		_, _, _, err := bridge.DecodeEntry([]byte(in))
		de, ok := err.(*engine.DecodeError)
		if !ok || len(de.Problems) == 0 || de.Problems[0].Code+":"+de.Problems[0].Path != code {
			t.Errorf("DecodeEntry(%s) = %v, want %s", in, err, code)
		}
	}
}

func FuzzDecodeEntry(f *testing.F) {
	for _, s := range []string{`{"contract":"4SX","declarer":"bo","tricks":9}`, `{"passed_out":true}`, `{"auction":["1C","P","P","P"],"tricks":7}`, `{"contract":"7NTXX"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		e, d, full, err := bridge.DecodeEntry(data)
		if err != nil {
			if de, ok := err.(*engine.DecodeError); !ok || len(de.Problems) == 0 {
				t.Fatalf("DecodeEntry(%q): %v", data, err)
			}
			return
		}
		if full {
			_ = d.AppendJSON(nil)
			return
		}
		if d, probs := bridge.EntryDeal(e, four, 2); probs == nil {
			rec := bridge.Record{Game: bridge.GameChicago, Players: four, FirstDealer: "cia", Deals: []bridge.Deal{d}}
			if res := bridge.Check(&rec); !res.Valid {
				t.Fatalf("DecodeEntry(%q) gives a deal the engine refuses: %v", data, res.Errors)
			}
		}
	})
}
