package tournament

import (
	"context"
	"regexp"
	"time"
)

// Phones report their queues (docs/table-protocol.md): how many entries
// wait for the table's decision (conflicts) or were refused. The room view
// marks a table whose phones hold such entries, so that the organizer
// walks over before the round ends. A phone reports again when its queue
// changes and when its page opens; the store keeps the latest report of
// each phone, bounded, so that the room view behind several server
// processes sees every phone's report.

// The reports' bounds.
const (
	// QueueReportFor is how long a report counts: a phone that stopped
	// reporting has left the table.
	QueueReportFor = 3 * time.Hour
	// MaxQueueReportPhones bounds the phones a table's reports keep: the
	// oldest report goes first.
	MaxQueueReportPhones = 16
	// MaxQueueReports bounds the reports of every tournament together:
	// past it the oldest go first.
	MaxQueueReports = 20000
	// MaxQueueReportEntries bounds the counts a report carries.
	MaxQueueReportEntries = 1000
)

// QueueReport is one phone's latest report of its queue at a table.
type QueueReport struct {
	Phone              string // the page's own random id
	Conflicts, Refused int
	At                 time.Time
}

// QueueCounts sums the fresh reports of a table's phones.
type QueueCounts struct {
	Conflicts, Refused int
}

// QueueReportBounds are the bounds a store keeps its reports within.
type QueueReportBounds struct {
	Phones, All int
	For         time.Duration
}

// queueReportBounds are the bounds production keeps.
var queueReportBounds = QueueReportBounds{Phones: MaxQueueReportPhones, All: MaxQueueReports, For: QueueReportFor}

// QueueReportStore keeps the phones' reports (postgres.Store, MemStore).
type QueueReportStore interface {
	// PutQueueReport stores r as the latest report of its phone at table t
	// of round n, then forgets reports past b: those older than b.For
	// before r.At, the table's oldest past b.Phones and, in all, the
	// oldest past b.All.
	PutQueueReport(ctx context.Context, tid string, n, t int, r QueueReport, b QueueReportBounds) error
	// QueueReports sums, per table of round n, the reports made at or
	// after since; tables without such a report are absent.
	QueueReports(ctx context.Context, tid string, n int, since time.Time) (map[int]QueueCounts, error)
}

var phoneID = regexp.MustCompile(`^[A-Za-z0-9-]{8,64}$`)

// ReportQueue stores the report of a phone at the table a is: phone (8
// to 64 letters, digits or -), conflicts and refused (0 to
// MaxQueueReportEntries).
func (s *Service) ReportQueue(ctx context.Context, a Actor, tid, phone string, conflicts, refused int) error {
	if a.Role != RoleTable {
		return Errorf(KindForbidden, CodeWrongTable, "only a table's phone reports its queue")
	}
	if !phoneID.MatchString(phone) || conflicts < 0 || refused < 0 || conflicts > MaxQueueReportEntries || refused > MaxQueueReportEntries {
		return InvalidField("queue", "a queue report is phone (8 to 64 letters, digits or -), conflicts and refused (0 to %d)", MaxQueueReportEntries)
	}
	r := QueueReport{Phone: phone, Conflicts: conflicts, Refused: refused, At: s.clock()}
	return s.store.PutQueueReport(ctx, tid, a.Round, a.Table, r, queueReportBounds)
}

// QueueTrouble sums the fresh reports of each table of round n: the
// tables whose phones hold entries waiting for a decision or refused.
// The organizer's and the referees' view.
func (s *Service) QueueTrouble(ctx context.Context, a Actor, tid string, n int) (map[int]QueueCounts, error) {
	if err := a.RequireReferee(); err != nil {
		return nil, err
	}
	return s.store.QueueReports(ctx, tid, n, s.clock().Add(-QueueReportFor))
}
