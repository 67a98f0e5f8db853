package table

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
)

// Phones report their queues (docs/table-protocol.md): how many entries
// wait for the table's decision (conflicts) or were refused. The store
// keeps each phone's latest report (tournament.ReportQueue, bounded and
// expiring), so that the room view and the console behind several server
// processes see every phone's report.

// tableQueue takes a phone's report of its queue: phone (the page's own
// random id), conflicts and refused.
func (h *Handler) tableQueue(c echo.Context) error {
	_, id, ok := h.TableSession(c)
	if !ok {
		return h.tableGone(c)
	}
	conflicts, err1 := strconv.Atoi(c.FormValue("conflicts"))
	refused, err2 := strconv.Atoi(c.FormValue("refused"))
	if err1 != nil || err2 != nil {
		conflicts = -1 // not a number: the domain's refusal says what a report is
	}
	err := h.Deps().Tournaments.ReportQueue(c.Request().Context(), tableActor(id), id.Tournament, strings.TrimSpace(c.FormValue("phone")), conflicts, refused)
	if err != nil {
		return h.Fail(c, err)
	}
	return c.NoContent(http.StatusNoContent)
}
