// The table's cookie: the code of the table a phone has entered, checked
// on the one path of credentials like the session's (session.go).
package site

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/tournament"
)

// tableCookie holds the code of the table a phone has entered. Like the
// login's session it is HttpOnly (the page's script never sees it),
// SameSite=Strict and Secure over TLS; it is sent to the table's pages
// only, and checked on every request, so it stops working when the next
// round is drawn.
const tableCookie = "revisor_table"

// TableURL is the address of a tournament's table page.
func TableURL(tid string) string { return "/t/" + PathEscape(tid) + "/table" }

// TableSession returns the table whose code the visitor's cookie holds,
// checked on the one path of credentials (httpx.Verify) like every other:
// a wrong code spends a try of the address's budget and the tournament's.
func (h *Site) TableSession(c echo.Context) (code string, id tournament.Identity, ok bool) {
	ck, err := c.Cookie(tableCookie)
	if err != nil || ck.Value == "" {
		return "", id, false
	}
	id, err = h.VerifyCode(c, httpx.CarrierTable, ck.Value)
	if err != nil {
		return "", id, false
	}
	return ck.Value, id, true
}

// VerifyCode finds the table of code within the route's tournament.
func (h *Site) VerifyCode(c echo.Context, carrier httpx.Carrier, code string) (tournament.Identity, error) {
	tid := c.Param("tid")
	table := func(id tournament.Identity) bool { return id.Role == tournament.RoleTable && id.Tournament == tid }
	return httpx.Verify(h.cfg.Door, c, carrier, code, httpx.Check[tournament.Identity]{
		// A code of the round whose codes the server has looked up is no
		// guess: it takes no try from the budgets, which the tables of a
		// club, all behind one address, would otherwise spend together
		// when a round begins.
		Cached: func() (tournament.Identity, bool) {
			id, ok := h.deps.Tournaments.IdentifyCached(tid, code)
			return id, ok && table(id)
		},
		Lookup: func(ctx context.Context) (tournament.Identity, error) {
			id, err := h.deps.Tournaments.Identify(ctx, tid, code, tournament.Where{})
			if err == nil && !table(id) {
				err = tournament.Errorf(tournament.KindUnauthorized, tournament.CodeUnknownToken, "the code is not a table's of this tournament")
			}
			return id, err
		},
		Tournament: tid,
	})
}

// SetTableCookie sets the table's cookie to code for the table pages of
// tournament tid (maxAge -1: deletes it).
func (h *Site) SetTableCookie(c echo.Context, tid, code string, maxAge int) {
	c.SetCookie(h.Cookie(c, tableCookie, code, TableURL(tid), maxAge, http.SameSiteStrictMode))
}
