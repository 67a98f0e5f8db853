package api

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/tournament"
)

// auditRoutes registers the audit log.
func (s *Server) auditRoutes(g *echo.Group) {
	g.GET("/tournaments/:tid/audit", s.getAudit, s.require(tournament.RoleReferee, tournament.RoleOrganizer, tournament.RoleAdmin))
}

// auditEntryJSON is one entry of the audit log.
type auditEntryJSON struct {
	ID        string          `json:"id"`
	At        time.Time       `json:"at"`
	Actor     actorJSON       `json:"actor"`
	Kind      string          `json:"kind"`
	Subject   string          `json:"subject"`
	Operation string          `json:"operation"`
	Round     *int            `json:"round"`
	Table     *int            `json:"table"`
	Players   []string        `json:"players"`
	Reason    string          `json:"reason,omitempty"`
	Before    json.RawMessage `json:"before"`
	After     json.RawMessage `json:"after"`
}

// auditJSON is a page of the audit log; next is the after= of the next
// page, null on the last.
type auditJSON struct {
	Entries []auditEntryJSON `json:"entries"`
	Next    *string          `json:"next"`
}

func toAuditEntry(e *tournament.AuditEntry) auditEntryJSON {
	out := auditEntryJSON{ID: strconv.FormatInt(e.ID, 10), At: e.At, Actor: actorJSON{e.Role, e.Token}, Kind: e.Kind,
		Subject: e.Subject, Operation: e.Operation, Players: e.Players, Reason: e.Reason,
		Before: orNull(e.Before), After: orNull(e.After)}
	if e.Round != 0 {
		out.Round = &e.Round
	}
	if e.Table != 0 {
		out.Table = &e.Table
	}
	if out.Players == nil {
		out.Players = []string{}
	}
	return out
}

// auditFilter reads the query: round, table, player, kind, after, limit.
func auditFilter(c echo.Context) (tournament.AuditFilter, error) {
	f := tournament.AuditFilter{Player: c.QueryParam("player"), Kind: c.QueryParam("kind")}
	if err := positiveQuery(c, "round", &f.Round); err != nil {
		return f, err
	}
	if err := positiveQuery(c, "table", &f.Table); err != nil {
		return f, err
	}
	return f, readPage(c, "an audit entry", &f.After, &f.Limit)
}

// positiveQuery reads the query parameter name, when given, as a whole
// number ≥ 1.
func positiveQuery(c echo.Context, name string, dst *int) error {
	v := c.QueryParam(name)
	if v == "" {
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return queryError(name, "%s must be a whole number ≥ 1", name)
	}
	*dst = n
	return nil
}

// readPage reads a page's after (the id of the last item of the previous
// page, an item being what names) and limit from the query.
func readPage(c echo.Context, item string, after *int64, limit *int) error {
	if err := positiveQuery(c, "limit", limit); err != nil {
		return err
	}
	if v := c.QueryParam("after"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return queryError("after", "after must be the id of %s", item)
		}
		*after = n
	}
	return nil
}

// nextOf writes a page's next as the API's opaque string; 0 (no next
// page) is null.
func nextOf(next int64) *string {
	if next == 0 {
		return nil
	}
	s := strconv.FormatInt(next, 10)
	return &s
}

// mapped maps each element of xs, by its address, with f: the items of a
// page as JSON.
func mapped[T, J any](xs []T, f func(*T) J) []J {
	out := make([]J, len(xs))
	for i := range xs {
		out[i] = f(&xs[i])
	}
	return out
}

func queryError(name, format string, args ...any) error {
	return tournament.InvalidParameter(name, format, args...)
}

func (s *Server) getAudit(c echo.Context) error {
	page, err := readAs(c, refereeActorOf(c), auditFilter, s.deps.Referees.Audit)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, auditJSON{Entries: mapped(page.Entries, toAuditEntry), Next: nextOf(page.Next)})
}
