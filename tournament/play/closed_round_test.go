package play_test

import (
	"testing"

	"github.com/revisor-sm/revisor/tournament"
)

// TestClosedRoundRefusesTheTable: once a round is closed, its table's code
// may not confirm its games (issue 25: it was accepted); the organizer
// still may. Disputes on a closed round are the correction window's.
func TestClosedRoundRefusesTheTable(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 4, 1)
	f.submitAll(t, 1)
	if _, err := f.plays.CloseRound(f.ctx, org, f.tid, 1); err != nil {
		t.Fatal(err)
	}
	table := tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: 1}
	player := f.round.Tables[0].Players[0]
	if _, err := f.plays.ConfirmGame(f.ctx, table, f.key(1, 1), player); tournament.ErrorCode(err) != tournament.CodeRoundClosed {
		t.Errorf("the table confirms a game of its closed round: %v, want round_closed", err)
	}
	if _, err := f.plays.ConfirmGame(f.ctx, org, f.key(1, 1), player); err != nil {
		t.Errorf("the organizer confirms a game of a closed round: %v", err)
	}
}
