package play_test

import (
	"testing"

	"github.com/revisor-sm/revisor/tournament"
)

// TestReportQueue: a table's phone reports its queue within the bounds;
// the organizer and referees read the sums per table; other roles and
// reports out of bounds are refused.
func TestReportQueue(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 8, 1)
	table2 := tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: 2}
	if err := f.svc.ReportQueue(f.ctx, table2, f.tid, "phone-0001", 1, 2); err != nil {
		t.Fatal(err)
	}
	for _, a := range []tournament.Actor{org, {Role: tournament.RoleReferee}} {
		qs, err := f.svc.QueueTrouble(f.ctx, a, f.tid, 1)
		if err != nil || len(qs) != 1 || qs[2] != (tournament.QueueCounts{Conflicts: 1, Refused: 2}) {
			t.Errorf("QueueTrouble as %s = %v, %v; want table 2: 1 and 2", a.Role, qs, err)
		}
	}
	if _, err := f.svc.QueueTrouble(f.ctx, table2, f.tid, 1); tournament.ErrorCode(err) != tournament.CodeRefereeOnly {
		t.Errorf("QueueTrouble as a table = %v, want %s", err, tournament.CodeRefereeOnly)
	}
	if err := f.svc.ReportQueue(f.ctx, org, f.tid, "phone-0002", 1, 0); tournament.ErrorCode(err) != tournament.CodeWrongTable {
		t.Errorf("ReportQueue as the organizer = %v, want %s", err, tournament.CodeWrongTable)
	}
	for _, c := range []struct {
		phone              string
		conflicts, refused int
	}{
		{"short", 0, 0}, {"phone with space", 0, 0}, {"phone-0003", -1, 0}, {"phone-0003", 0, tournament.MaxQueueReportEntries + 1},
	} {
		if err := f.svc.ReportQueue(f.ctx, table2, f.tid, c.phone, c.conflicts, c.refused); tournament.ErrorCode(err) != "invalid_queue" {
			t.Errorf("ReportQueue(%q, %d, %d) = %v, want invalid_queue", c.phone, c.conflicts, c.refused, err)
		}
	}
}
