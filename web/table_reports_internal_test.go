package web

import (
	"fmt"
	"testing"
	"time"
)

// TestTableReportsBounds: a table keeps the latest report of at most
// maxReportPhones phones; reports older than reportFor are not counted.
func TestTableReportsBounds(t *testing.T) {
	r := &tableReports{}
	now := time.Date(2026, 12, 2, 19, 0, 0, 0, time.UTC)
	k := reportKey{"t1", 1, 3}
	for i := range maxReportPhones + 4 {
		r.put(k, fmt.Sprintf("phone-%04d", i), queueReport{Conflicts: 1, At: now.Add(time.Duration(i) * time.Second)})
	}
	if c, _ := r.table(k, now.Add(time.Minute)); c != maxReportPhones {
		t.Errorf("conflicts of %d phones = %d, want %d (the newest phones)", maxReportPhones+4, c, maxReportPhones)
	}
	r.put(k, "phone-0019", queueReport{Refused: 2, At: now.Add(time.Minute)})
	if c, ref := r.table(k, now.Add(time.Minute)); c != maxReportPhones-1 || ref != 2 {
		t.Errorf("after phone-0019's new report = %d, %d, want %d, 2", c, ref, maxReportPhones-1)
	}
	if c, ref := r.table(k, now.Add(reportFor+2*time.Minute)); c != 0 || ref != 0 {
		t.Errorf("stale reports counted: %d, %d", c, ref)
	}
}
