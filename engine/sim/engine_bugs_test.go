package sim_test

import (
	"os"
	"testing"

	"github.com/revisor-sm/revisor/engine"
)

// TestRefusedOpenCardBackAfterReshuffle is a deal the simulator played in
// which the stock held only the open card: p1 refused it (docs/game-rules.md: "the
// refused card goes to the discard pile and they take the next card
// unseen"), the stock was empty, the discard pile less p1's own discards
// (8h) was shuffled into a new stock, and the refused 7s came back on top.
// docs/rules.md says that after a reshuffle "the refused card may come back"; the
// engine once reported open_card_mismatch ("refused the open card but drew
// it") here, and this test keeps it from doing so again.
func TestRefusedOpenCardBackAfterReshuffle(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/refused_open_card_reshuffle.json")
	if err != nil {
		t.Fatal(err)
	}
	d, err := engine.DecodeDeal(data)
	if err != nil {
		t.Fatalf("DecodeDeal: %v", err)
	}
	x := d.Exchanges[2][3]
	if x.Open == nil || x.Open.Taken || !x.Reshuffled || x.Draw[0] != x.Open.Card {
		t.Fatalf("the record is not the case it documents: %+v", x)
	}
	if res := engine.CheckDeal(d); !res.Valid {
		t.Errorf("CheckDeal(refused open card drawn back after a reshuffle) = invalid %+v, want valid", res.Errors)
	}
}
