package web

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/tournament"
)

// Phones report their queues (docs/table-protocol.md): how many entries
// wait for the table's decision (conflicts) or were refused. The room view
// marks a table whose phones hold such entries, so that the organizer
// walks over before the round ends. Reports live in this process's memory
// only: a phone reports again when its queue changes and when its page
// opens, and a report older than reportFor is forgotten.

// The reports' bounds.
const (
	reportFor        = 3 * time.Hour
	maxReportPhones  = 16    // per table
	maxReportTables  = 20000 // in all; past it the reports start over
	maxReportEntries = 1000
)

type reportKey struct {
	tid          string
	round, table int
}

type queueReport struct {
	Conflicts, Refused int
	At                 time.Time
}

// tableReports holds the phones' latest reports by table and phone.
type tableReports struct {
	mu sync.Mutex
	m  map[reportKey]map[string]queueReport
}

func (r *tableReports) put(k reportKey, phone string, q queueReport) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil || len(r.m) >= maxReportTables {
		r.m = map[reportKey]map[string]queueReport{}
	}
	phones := r.m[k]
	if phones == nil {
		phones = map[string]queueReport{}
		r.m[k] = phones
	}
	if _, ok := phones[phone]; !ok && len(phones) >= maxReportPhones {
		oldest := ""
		for p, v := range phones {
			if oldest == "" || v.At.Before(phones[oldest].At) {
				oldest = p
			}
		}
		delete(phones, oldest)
	}
	phones[phone] = q
}

// table sums the fresh reports of a table's phones.
func (r *tableReports) table(k reportKey, now time.Time) (conflicts, refused int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, q := range r.m[k] {
		if now.Sub(q.At) < reportFor {
			conflicts += q.Conflicts
			refused += q.Refused
		}
	}
	return conflicts, refused
}

var phoneID = regexp.MustCompile(`^[A-Za-z0-9-]{8,64}$`)

// tableQueue takes a phone's report of its queue: phone (the page's own
// random id), conflicts and refused.
func (h *Handler) tableQueue(c echo.Context) error {
	_, id, ok := h.tableSession(c)
	if !ok {
		return h.tableGone(c)
	}
	phone := strings.TrimSpace(c.FormValue("phone"))
	conflicts, err1 := strconv.Atoi(c.FormValue("conflicts"))
	refused, err2 := strconv.Atoi(c.FormValue("refused"))
	if !phoneID.MatchString(phone) || err1 != nil || err2 != nil || conflicts < 0 || refused < 0 ||
		conflicts > maxReportEntries || refused > maxReportEntries {
		return h.fail(c, tournament.InvalidField("queue", "a queue report is phone (8 to 64 letters, digits or -), conflicts and refused (0 to %d)", maxReportEntries))
	}
	h.reports.put(reportKey{id.Tournament, id.Round, id.Table}, phone, queueReport{Conflicts: conflicts, Refused: refused, At: h.cfg.Now()})
	return c.NoContent(http.StatusNoContent)
}
