package tournamenttest

import (
	"context"
	"slices"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
)

// reseatContract: a swap between tables and a move to a table with a free
// seat change the round as stored, the tables as drawn are kept from the
// first change on, and tables that have started cannot change; a refusal
// changes nothing.
func reseatContract(t *testing.T, st Store) {
	ctx := context.Background()
	svc := NewService(st)
	plays := play.New(svc, st)
	tid := mustCreate(t, svc, 11) // tables of 4, 4 and 3
	drawn := mustDraw(t, plays, tid)
	t1, t2, t3 := drawn.Tables[0], drawn.Tables[1], drawn.Tables[2]
	a, b := t1.Players[1], t2.Players[2]
	r, err := plays.ReseatTable(ctx, org, tid, 1, play.Reseat{Player: a, With: b, Reason: "seated at the wrong table"})
	if err != nil {
		t.Fatalf("swap: %v", err)
	}
	if r.Tables[0].Players[1] != b || r.Tables[1].Players[2] != a || r.Tables[2].Drawn != nil ||
		r.Tables[0].Drawn == nil || !slices.Equal(r.Tables[0].Drawn.Players, t1.Players) {
		t.Fatalf("after the swap: %+v, want %s and %s swapped and table 1 as drawn kept", r.Tables, a, b)
	}
	r, err = plays.ReseatTable(ctx, org, tid, 1, play.Reseat{Player: a, Table: 3, Reason: "table 3 has a free seat"})
	if err != nil {
		t.Fatalf("move: %v", err)
	}
	if len(r.Tables[1].Players) != 3 || len(r.Tables[2].Players) != 4 || !slices.Contains(r.Tables[2].Players, a) ||
		!slices.Equal(r.Tables[1].Drawn.Players, t2.Players) || !slices.Equal(r.Tables[2].Drawn.Players, t3.Players) ||
		!tournament.ValidSeats(r.Tables[2].Seats, 4) {
		t.Fatalf("after the move: %+v, want %s at table 3 of four, the drawn tables kept", r.Tables, a)
	}
	if got, _ := st.Round(ctx, tid, 1); !slices.Equal(got.Tables[2].Players, r.Tables[2].Players) || got.Tables[0].Drawn == nil {
		t.Fatalf("round as read = %+v, want it as re-seated", got.Tables)
	}
	if _, err := plays.AppendDeal(ctx, org, tournament.GameKey{TournamentID: tid, Round: 1, Table: 1, Game: 1},
		[]byte(`{"sheet":{"`+r.Tables[0].Players[0]+`":{"hand1":6,"last_trick":5}}}`)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what string
		a    tournament.Actor
		rs   play.Reseat
		code string
	}{
		{"a table that has started", org, play.Reseat{Player: r.Tables[0].Players[0], With: r.Tables[1].Players[0], Reason: "x"}, tournament.CodeTableHasResult},
		{"no reason", org, play.Reseat{Player: r.Tables[1].Players[0], With: r.Tables[2].Players[0]}, "invalid_reason"},
		{"both a player and a table", org, play.Reseat{Player: r.Tables[1].Players[0], With: r.Tables[2].Players[0], Table: 3, Reason: "x"}, "invalid_with"},
		{"the same table", org, play.Reseat{Player: r.Tables[1].Players[0], With: r.Tables[1].Players[1], Reason: "x"}, "invalid_with"},
		{"a full table", org, play.Reseat{Player: r.Tables[1].Players[0], Table: 3, Reason: "x"}, tournament.CodeCannotSplit},
		{"nobody", org, play.Reseat{Player: "p99", Table: 3, Reason: "x"}, tournament.CodePlayerNotAtTable},
		{"a table's code", tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: 2}, play.Reseat{Player: r.Tables[1].Players[0], Table: 3, Reason: "x"}, tournament.CodeOrganizerOnly},
	} {
		if _, err := plays.ReseatTable(ctx, c.a, tid, 1, c.rs); tournament.ErrorCode(err) != c.code {
			t.Errorf("%s: %v, want %s", c.what, err, c.code)
		}
	}
	if got, _ := st.Round(ctx, tid, 1); !slices.EqualFunc(got.Tables, r.Tables, func(x, y tournament.Table) bool { return slices.Equal(x.Players, y.Players) }) {
		t.Errorf("a refused re-seating changed the round: %+v", got.Tables)
	}
}
