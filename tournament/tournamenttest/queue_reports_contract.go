package tournamenttest

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
)

// queueReportsContract: a phone's report replaces its previous one; the
// sums count the reports made since; the bounds forget the expired, a
// table's oldest phones and, in all, the oldest reports; a report for a
// table the round does not have is refused.
func queueReportsContract(t *testing.T, st Store) {
	ctx := context.Background()
	svc := NewService(st)
	tid := mustCreate(t, svc, 8)
	mustDraw(t, play.New(svc, st), tid)
	wide := tournament.QueueReportBounds{Phones: 16, All: 1000, For: 3 * time.Hour}
	at := func(s int) time.Time { return T0.Add(time.Duration(s) * time.Second) }
	put := func(table int, phone string, conflicts, refused int, when time.Time, b tournament.QueueReportBounds) {
		t.Helper()
		r := tournament.QueueReport{Phone: phone, Conflicts: conflicts, Refused: refused, At: when}
		if err := st.PutQueueReport(ctx, tid, 1, table, r, b); err != nil {
			t.Fatalf("PutQueueReport(table %d, %s) = %v", table, phone, err)
		}
	}
	want := func(what string, since time.Time, w map[int]tournament.QueueCounts) {
		t.Helper()
		got, err := st.QueueReports(ctx, tid, 1, since)
		if err != nil || !reflect.DeepEqual(got, w) {
			t.Errorf("%s: QueueReports = %v, %v; want %v", what, got, err, w)
		}
	}
	put(1, "phone-aaaa", 1, 0, at(0), wide)
	put(1, "phone-bbbb", 0, 2, at(1), wide)
	put(2, "phone-aaaa", 0, 0, at(2), wide)
	want("three reports", T0, map[int]tournament.QueueCounts{1: {Conflicts: 1, Refused: 2}, 2: {}})
	want("since the second", at(1), map[int]tournament.QueueCounts{1: {Refused: 2}, 2: {}})
	put(1, "phone-aaaa", 0, 0, at(3), wide)
	want("a phone's new report replaces its old one", T0, map[int]tournament.QueueCounts{1: {Refused: 2}, 2: {}})
	if got, err := st.QueueReports(ctx, tid, 2, T0); err != nil || len(got) != 0 {
		t.Errorf("round 2's reports = %v, %v; want none", got, err)
	}
	put(1, "phone-cccc", 3, 0, at(4), tournament.QueueReportBounds{Phones: 2, All: 1000, For: 3 * time.Hour})
	want("two phones a table: the oldest (phone-bbbb) forgotten", T0, map[int]tournament.QueueCounts{1: {Conflicts: 3}, 2: {}})
	put(2, "phone-dddd", 0, 1, at(5), tournament.QueueReportBounds{Phones: 16, All: 2, For: 3 * time.Hour})
	want("two reports in all: the oldest forgotten", T0, map[int]tournament.QueueCounts{1: {Conflicts: 3}, 2: {Refused: 1}})
	put(2, "phone-eeee", 4, 0, at(4*3600), wide)
	want("three hours later the rest expired", T0, map[int]tournament.QueueCounts{2: {Conflicts: 4}})
	r := tournament.QueueReport{Phone: "phone-ffff", At: at(4 * 3600)}
	if err := st.PutQueueReport(ctx, tid, 1, 99, r, wide); err == nil {
		t.Errorf("a report for table 99, which round 1 does not have, was stored")
	}
}
