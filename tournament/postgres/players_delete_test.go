package postgres_test

import (
	"testing"

	"github.com/revisor-sm/revisor/tournament"
)

// TestDeletePlayer: the organizer deletes a player registered by mistake
// before round 1, the audit log keeps the deleted row; after the draw the
// deletion is refused and withdrawing is named instead.
func TestDeletePlayer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, ps := e.mustTournament(t, tournament.NewTournament{Name: "T", Format: tournament.FormatSM}, 9)
	tid := c.Tournament.ID
	if err := e.svc.DeletePlayer(e.ctx, tournament.Actor{Role: tournament.RoleTable}, tid, ps[8].ID); tournament.ErrorKind(err) != tournament.KindForbidden {
		t.Errorf("DeletePlayer as a table = %v, want forbidden", err)
	}
	if err := e.svc.DeletePlayer(e.ctx, org, tid, ps[8].ID); err != nil {
		t.Fatalf("DeletePlayer before round 1: %v", err)
	}
	left, _ := e.svc.Players(e.ctx, tid)
	if len(left) != 8 {
		t.Fatalf("after the deletion: %d players, want 8", len(left))
	}
	wantCode(t, "DeletePlayer again", e.svc.DeletePlayer(e.ctx, org, tid, ps[8].ID), "player_not_found")
	es, err := e.referees.Audit(e.ctx, tid, tournament.AuditFilter{Player: ps[8].ID, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(es); n == 0 || es[n-1].Operation != "DELETE" || es[n-1].Role != string(tournament.RoleOrganizer) || es[n-1].Before == nil {
		t.Errorf("audit of %s = %+v, want the deletion by the organizer, with the row before", ps[8].ID, es)
	}
	e.mustDraw(t, tid, 1)
	err = e.svc.DeletePlayer(e.ctx, org, tid, ps[0].ID)
	wantCode(t, "DeletePlayer after the draw", err, "registration_closed")
	if te, ok := err.(*tournament.Error); ok && te.Message == "" {
		t.Errorf("refusal without words: %v", err)
	}
}
