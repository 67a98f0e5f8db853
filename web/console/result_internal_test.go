package console

import (
	"testing"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/web/sheet"
	"github.com/revisor-sm/revisor/web/site"
)

// TestPlaceErrors checks that the engine's problems land in the row of the
// deal they concern, skipping the empty rows the record left out, and mark
// the field of the player and source they name.
func TestPlaceErrors(t *testing.T) {
	t.Parallel()
	ids := []string{"a/b", "c~d", "e"}
	d := &resultData{ids: ids, Rows: make([]formRow, 4)}
	for k := range d.Rows {
		for range ids {
			d.Rows[k].Cells = append(d.Rows[k].Cells, formCell{Fields: make([]sheet.FormField, len(sheet.Sources))})
		}
	}
	sheet := func(deal int, player, src string) engine.Location {
		return engine.Location{Deal: deal, Part: engine.PartSheet, Player: player, Member: src}
	}
	ps := []engine.Problem{
		engine.NewProblem("invalid_points", sheet(1, "a/b", engine.SourceHand2), "deal one"),
		engine.NewProblem("source_scored_twice", sheet(2, "c~d", engine.SourceChicago), "deal two"),
		engine.NewProblem("missing_last_trick", engine.Location{Deal: 2, Part: engine.PartSheet}, "deal two, no field"),
		engine.NewProblem("game_not_finished", engine.Location{Part: engine.PartDeals}, "the game"),
		engine.NewProblem("invalid_record", engine.Location{Deal: 3}, "no such row"),
	}
	err := tournament.Errorf(tournament.KindRejected, tournament.CodeInvalidRecord, "rejected").WithProblems(ps)
	tb := tournament.Table{Players: ids}
	names := map[string]tournament.Player{"a/b": {Name: "Anna"}, "c~d": {Name: "Cecilia"}, "e": {Name: "Eva"}}
	p := &site.Page{Lang: "en"}
	placeErrors(p, d, err, []int{0, 2}, tb, names) // rows 1 and 3 were empty

	bad := func(row, seat, col int) bool { return d.Rows[row].Cells[seat].Fields[col].Bad }
	if !bad(0, 0, 1) || !bad(2, 1, 2) {
		t.Errorf("fields marked: row 1 a/b hand2 %v, row 3 c~d last/chicago %v; want both", bad(0, 0, 1), bad(2, 1, 2))
	}
	for row, want := range [][]string{{"Anna, Phase 2: this number of points is not possible there."}, nil,
		{"Cecilia, Last trick / Chicago: another player already has these points in this deal.",
			"Nobody has the last trick and there was no Chicago."}, nil} {
		if got := d.Rows[row].Errors; len(got) != len(want) || (len(want) > 0 && (got[0] != want[0] || got[len(got)-1] != want[len(want)-1])) {
			t.Errorf("row %d errors = %q, want %q", row+1, got, want)
		}
	}
	if got := d.Errors; len(got) != 2 || got[0] != "The game is not over: nobody has reached the target yet. Add the missing deals, or tick that time was called." || got[1] != "The deal record cannot be read." {
		t.Errorf("errors above the form = %q, want the game's and the unplaced deal's", got)
	}
	marked := 0
	for _, r := range d.Rows {
		for _, c := range r.Cells {
			for _, f := range c.Fields {
				if f.Bad {
					marked++
				}
			}
		}
	}
	if marked != 2 {
		t.Errorf("%d fields marked, want 2", marked)
	}
}
