package postgres_test

import (
	"slices"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/referee"
)

// TestReseatKeepsTheDrawVerifiable: after a swap, the draw's published
// inputs still hold the tables as drawn, so the seed replays them (what
// `revisor seat --draw` checks), while the round shows the tables as they
// now are; the change is in the audit log with its reason.
func TestReseatKeepsTheDrawVerifiable(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	refs := referee.New(e.svc, e.plays, e.referees)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Reseat", Format: tournament.FormatSM}, 8)
	tid := c.Tournament.ID
	drawn := e.mustDraw(t, tid, 11)
	a, b := drawn.Tables[0].Players[0], drawn.Tables[1].Players[3]
	if _, err := e.plays.ReseatTable(e.ctx, org, tid, 1, play.Reseat{Player: a, With: b, Reason: "Anna sat at Bo's table"}); err != nil {
		t.Fatal(err)
	}
	in, err := refs.DrawInputs(e.ctx, tid, 1)
	if err != nil {
		t.Fatal(err)
	}
	got, err := referee.ReplayDraw(*in)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if !slices.Equal(got[i].Players, in.Tables[i].Players) || !slices.Equal(in.Tables[i].Players, drawn.Tables[i].Players) {
			t.Errorf("table %d: replayed %v, published %v, drawn %v", i+1, got[i].Players, in.Tables[i].Players, drawn.Tables[i].Players)
		}
	}
	rd, err := e.store.Round(e.ctx, tid, 1)
	if err != nil || !slices.Contains(rd.Tables[0].Players, b) || !slices.Contains(rd.Tables[1].Players, a) {
		t.Fatalf("round 1 = %+v, %v; want %s and %s swapped", rd, err, a, b)
	}
	es, err := e.referees.Audit(e.ctx, tid, tournament.AuditFilter{Kind: "seating", Round: 1, Limit: 20})
	if err != nil {
		t.Fatal(err)
	}
	changes := 0
	for _, en := range es {
		if en.Operation == "UPDATE" {
			changes++
			if en.Reason != "Anna sat at Bo's table" || en.Token != "organizer" || en.Before == nil {
				t.Errorf("audit entry %+v: want the reason, the organizer and the row before", en)
			}
		}
	}
	if changes != 2 {
		t.Errorf("%d seating changes in the audit log, want 2 (both tables)", changes)
	}
}
