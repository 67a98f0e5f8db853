package postgres_test

import (
	"testing"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/referee"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// TestDisputeSeen: a dispute sent by a table is open and unseen; a
// referee's first opening records it (announced to the table's phones,
// audited, kept when another referee opens it later); the ruling follows;
// the table reads its own disputes only, and the room counts the open
// ones per table.
func TestDisputeSeen(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b := startListener(t, e)
	refs := referee.New(e.svc, e.plays, e.referees)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Seen", Format: tournament.FormatSwiss, Rounds: intp(1), GamesPerRound: intp(1)}, 8)
	tid := c.Tournament.ID
	r := e.mustDraw(t, tid, 1)
	tb := r.Tables[0]
	e.mustSubmit(t, tournament.GameKey{TournamentID: tid, Round: 1, Table: 1, Game: 1}, tournamenttest.SimGame(3, tb.Players, tb.FirstDealerOf(1), 0))
	table1 := tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: 1}
	table2 := tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: 2}
	d, err := refs.OpenDispute(e.ctx, table1, tid, referee.NewDispute{Round: 1, Table: 1, Game: 1, Deal: 2, Description: "Anna: deal 2 was added wrongly"})
	if err != nil {
		t.Fatal(err)
	}
	ds, err := refs.TableDisputes(e.ctx, table1, tid, 1, 1)
	if err != nil || len(ds) != 1 || ds[0].SeenAt != nil || ds[0].Ruling != nil {
		t.Fatalf("TableDisputes before a referee looked = %+v, %v; want one unseen dispute", ds, err)
	}
	if ds, err := refs.TableDisputes(e.ctx, table2, tid, 1, 2); err != nil || len(ds) != 0 {
		t.Errorf("table 2's disputes = %+v, %v; want none", ds, err)
	}
	_, err = refs.TableDisputes(e.ctx, table2, tid, 1, 1)
	wantCode(t, "table 2 reading table 1's disputes", err, tournament.CodeWrongTable)
	_, err = refs.TableDisputes(e.ctx, tournament.Actor{Role: tournament.RolePublic}, tid, 1, 1)
	wantCode(t, "the public reading a table's disputes", err, tournament.CodeTokenRequired)
	_, err = refs.SeeDispute(e.ctx, table1, tid, d.ID)
	wantCode(t, "a table marking its dispute seen", err, tournament.CodeRefereeOnly)
	_, err = refs.SeeDispute(e.ctx, org, tid, d.ID+1000)
	wantCode(t, "seeing a dispute that does not exist", err, tournament.CodeDisputeNotFound)
	open, err := refs.OpenDisputeTables(e.ctx, org, tid, 1)
	if err != nil || open[1] != 1 || open[2] != 0 {
		t.Errorf("OpenDisputeTables = %v, %v; want table 1: 1", open, err)
	}
	_, err = refs.OpenDisputeTables(e.ctx, table1, tid, 1)
	wantCode(t, "a table counting the room's disputes", err, tournament.CodeRefereeOnly)

	ch, stop := b.Subscribe(tid)
	defer stop()
	first := tournament.Actor{Role: tournament.RoleReferee, TokenID: "referee:r1"}
	seen, err := refs.SeeDispute(e.ctx, first, tid, d.ID)
	if err != nil || seen.SeenAt == nil || seen.SeenBy != "referee:r1" || seen.Description != d.Description {
		t.Fatalf("SeeDispute = %+v, %v; want the dispute seen by referee:r1", seen, err)
	}
	if ev := nextEvent(t, ch, "disputes"); ev.Round != 1 || ev.Table != 1 {
		t.Errorf("the seen dispute's event = %+v, want round 1 table 1", ev)
	}
	again, err := refs.SeeDispute(e.ctx, tournament.Actor{Role: tournament.RoleReferee, TokenID: "referee:r2"}, tid, d.ID)
	if err != nil || again.SeenBy != "referee:r1" || !again.SeenAt.Equal(*seen.SeenAt) {
		t.Errorf("SeeDispute by a second referee = %+v, %v; want the first seeing kept", again, err)
	}
	audit, err := refs.Audit(e.ctx, org, tid, tournament.AuditFilter{})
	if err != nil {
		t.Fatal(err)
	}
	updates := 0
	for _, a := range audit.Entries {
		if a.Subject == "disputes" && a.Operation == "UPDATE" {
			updates++
			if a.Token != "referee:r1" {
				t.Errorf("the seeing's audit entry names %q, want referee:r1", a.Token)
			}
		}
	}
	if updates != 1 {
		t.Errorf("%d audited updates of the dispute, want 1 (the first seeing)", updates)
	}
	if _, err := refs.Rule(e.ctx, first, tid, d.ID, referee.NewRuling{Decision: referee.DecisionRejected, Reason: "the sheet adds up"}); err != nil {
		t.Fatal(err)
	}
	ds, err = refs.TableDisputes(e.ctx, table1, tid, 1, 1)
	if err != nil || len(ds) != 1 || ds[0].Status != referee.DisputeRuled || ds[0].Ruling == nil || ds[0].Ruling.Reason != "the sheet adds up" || ds[0].SeenAt == nil {
		t.Fatalf("TableDisputes after the ruling = %+v, %v; want the ruling and the seeing", ds, err)
	}
	if open, err := refs.OpenDisputeTables(e.ctx, org, tid, 1); err != nil || len(open) != 0 {
		t.Errorf("OpenDisputeTables after the ruling = %v, %v; want none", open, err)
	}
}

// TestQueueReportIsAnnounced: a phone's queue report is announced for
// its table (migration 000320), so that the room view and the console
// mark the table at once, in every process.
func TestQueueReportIsAnnounced(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b := startListener(t, e)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Reports", Format: tournament.FormatSwiss, Rounds: intp(1), GamesPerRound: intp(1)}, 8)
	tid := c.Tournament.ID
	e.mustDraw(t, tid, 1)
	ch, stop := b.Subscribe(tid)
	defer stop()
	if err := e.svc.ReportQueue(e.ctx, tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: 2}, tid, "phone-0001", 1, 0); err != nil {
		t.Fatal(err)
	}
	if ev := nextEvent(t, ch, "queue_reports"); ev.Round != 1 || ev.Table != 2 {
		t.Errorf("the report's event = %+v, want round 1 table 2", ev)
	}
}
