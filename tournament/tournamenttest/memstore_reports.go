package tournamenttest

import (
	"context"
	"slices"
	"time"

	"github.com/revisor-sm/revisor/tournament"
)

// memReport is a phone's latest queue report at a table.
type memReport struct {
	tid          string
	round, table int
	r            tournament.QueueReport
}

// PutQueueReport implements tournament.QueueReportStore.
func (s *MemStore) PutQueueReport(_ context.Context, tid string, n, t int, r tournament.QueueReport, b tournament.QueueReportBounds) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	mt, ok := s.tournaments[tid]
	if !ok {
		return notFound("tournament")
	}
	if _, _, err := mt.table(n, t); err != nil {
		return err
	}
	at := func(m memReport) bool { return m.tid == tid && m.round == n && m.table == t }
	s.reports = slices.DeleteFunc(s.reports, func(m memReport) bool {
		return at(m) && m.r.Phone == r.Phone || m.r.At.Before(r.At.Add(-b.For))
	})
	s.reports = append(s.reports, memReport{tid: tid, round: n, table: t, r: r})
	// Reports are kept oldest first (by when they were put, which is the
	// order of At on one clock): the table's oldest go first, then anyone's.
	for countFunc(s.reports, at) > b.Phones {
		i := slices.IndexFunc(s.reports, at)
		s.reports = slices.Delete(s.reports, i, i+1)
	}
	if over := len(s.reports) - b.All; over > 0 {
		s.reports = slices.Delete(s.reports, 0, over)
	}
	return nil
}

func countFunc[T any](xs []T, f func(T) bool) int {
	n := 0
	for _, x := range xs {
		if f(x) {
			n++
		}
	}
	return n
}

// QueueReports implements tournament.QueueReportStore.
func (s *MemStore) QueueReports(_ context.Context, tid string, n int, since time.Time) (map[int]tournament.QueueCounts, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[int]tournament.QueueCounts{}
	for _, m := range s.reports {
		if m.tid == tid && m.round == n && !m.r.At.Before(since) {
			q := out[m.table]
			q.Conflicts += m.r.Conflicts
			q.Refused += m.r.Refused
			out[m.table] = q
		}
	}
	return out, nil
}
