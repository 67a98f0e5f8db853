package postgres_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/internal/racecheck"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/transfer"
)

// TestRoundKeepsSeats: a drawn round is read back with every player's
// seat, so a table of 3 keeps which seat was empty; the database refuses
// seats that cannot be.
func TestRoundKeepsSeats(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "T", Format: tournament.FormatSM}, 13)
	tid := c.Tournament.ID
	drawn := e.mustDraw(t, tid, 77)
	got, err := e.plays.Round(e.ctx, tid, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Round.Tables, drawn.Tables) {
		t.Errorf("Round(1) tables = %+v, want the drawn %+v", got.Round.Tables, drawn.Tables)
	}
	threes := 0
	for _, tb := range got.Round.Tables {
		if !tournament.ValidSeats(tb.Seats, len(tb.Players)) {
			t.Errorf("table %d: seats %v for players %v", tb.Number, tb.Seats, tb.Players)
		}
		if len(tb.Players) == 3 {
			threes++
		}
	}
	if threes != 3 {
		t.Errorf("13 players drew %d tables of 3, want 3", threes)
	}
	for _, tt := range []struct {
		seats string
		ok    bool
	}{{"{1,2,5}", false}, {"{0,1,2}", false}, {"{1,2}", false}, {"{2,3,4}", true}} {
		err := setSeats(e, tid, 2, tt.seats)
		if (err == nil) != tt.ok {
			t.Errorf("storing seats %s at a table of 3 = %v, want ok %v", tt.seats, err, tt.ok)
		}
	}
}

// setSeats changes the seats of table n of round 1 directly in the database.
func setSeats(e *env, tid string, n int, seats string) error {
	tx, err := e.pool.Begin(e.ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(e.ctx)
	if _, err := tx.Exec(e.ctx, `SELECT set_config('revisor.actor_role', 'admin', true)`); err != nil {
		return err
	}
	if _, err := tx.Exec(e.ctx, `UPDATE round_tables SET seats = $3 WHERE tournament_id = $1 AND round = 1 AND number = $2`,
		tid, n, seats); err != nil {
		return err
	}
	return tx.Commit(e.ctx)
}

// TestImportChecksSeats: an export carries every table's seats; an import
// refuses seats that do not fit the table, at their place in the file.
func TestImportChecksSeats(t *testing.T) {
	t.Parallel()
	racecheck.OutOfRace(t) // the draw's search
	src := newEnv(t)
	_, data := exported(t, src)
	dst := newEnv(t)
	for _, seats := range [][]int{{3, 2, 1, 4}, {1, 2, 3}, {0, 1, 2, 3}, {1, 2, 3, 5}} {
		var ex transfer.Export
		if err := json.Unmarshal(data, &ex); err != nil {
			t.Fatal(err)
		}
		if got := ex.Rounds[0].Tables[0].Seats; !tournament.ValidSeats(got, len(ex.Rounds[0].Tables[0].Players)) {
			t.Fatalf("exported seats %v, want the seats of %v", got, ex.Rounds[0].Tables[0].Players)
		}
		ex.Rounds[0].Tables[0].Seats = seats
		_, err := dst.transfer().Import(dst.ctx, admin, &ex)
		if tournament.ErrorKind(err) != tournament.KindRejected || !strings.Contains(fmt.Sprint(err), "seat") {
			t.Errorf("Import(seats %v) = %v, want a rejection of the seats", seats, err)
		}
	}
}
