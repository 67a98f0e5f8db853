package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/referee"
)

// sessionCookie holds the token the visitor logged in with. It is
// HttpOnly (scripts cannot read it), SameSite=Strict (other sites cannot
// send it) and Secure over TLS; the token is checked on every request, so
// a session ends when the cookie goes.
const sessionCookie = "revisor_session"

// sessionMaxAge is how long a login lasts: a tournament day and then some.
const sessionMaxAge = 24 * time.Hour

// secureCookie reports whether cookies of this request are marked Secure.
func (h *Handler) secureCookie(c echo.Context) bool {
	return h.cfg.SecureCookies || c.Scheme() == "https"
}

// cookie is the one rule of every cookie the pages set (session, table,
// CSRF, language): HttpOnly, Secure behind TLS (secureCookie), and the
// SameSite mode given.
func (h *Handler) cookie(c echo.Context, name, value, path string, maxAge int, site http.SameSite) *http.Cookie {
	return &http.Cookie{Name: name, Value: value, Path: path, MaxAge: maxAge,
		HttpOnly: true, Secure: h.secureCookie(c), SameSite: site}
}

func (h *Handler) setSession(c echo.Context, token string) {
	c.SetCookie(h.cookie(c, sessionCookie, token, "/", int(sessionMaxAge.Seconds()), http.SameSiteStrictMode))
}

func (h *Handler) clearSession(c echo.Context) {
	c.SetCookie(h.cookie(c, sessionCookie, "", "/", -1, http.SameSiteStrictMode))
}

// sessionToken returns the token of the visitor's session, or "".
func sessionToken(c echo.Context) string {
	ck, err := c.Cookie(sessionCookie)
	if err != nil {
		return ""
	}
	return ck.Value
}

// actor returns who the visitor is within tournament tid: the admin, the
// tournament's organizer, a referee, or the public. A session's token goes
// the one path of credentials (httpx.Verify), like the API's tokens: a try
// is taken from the address's budget of wrong tokens first (429 when it
// has none), a wrong token spends it, a good one gives it back, so cookies
// are no door around the limit.
func (h *Handler) actor(c echo.Context, tid string) (tournament.Actor, error) {
	public := tournament.Actor{Role: tournament.RolePublic}
	token := sessionToken(c)
	if token == "" {
		return public, nil
	}
	a, err := httpx.Verify(h.cfg.Door, c, httpx.CarrierSession, token, httpx.Check[tournament.Actor]{
		// An organizer token the service verified lately (its cache) is
		// no guess: no try from the budget, no lookup.
		Cached: func() (tournament.Actor, bool) {
			id, ok := h.deps.Tournaments.IdentifyCached(tid, token)
			if ok && id.Role == tournament.RoleOrganizer && id.Tournament == tid {
				return tournament.Actor{Role: tournament.RoleOrganizer}, true
			}
			return public, false
		},
		Lookup: func(context.Context) (tournament.Actor, error) { return h.identify(c, tid, token) },
	})
	switch {
	case tournament.ErrorKind(err) == tournament.KindTooMany:
		return public, errTooManyTries()
	case err != nil:
		return public, nil
	}
	return a, nil
}

// identify finds who holds a session's token within tournament tid; a
// known token of another tournament is the public here, an unknown one an
// unauthorized error.
func (h *Handler) identify(c echo.Context, tid, token string) (tournament.Actor, error) {
	public := tournament.Actor{Role: tournament.RolePublic}
	if h.isAdminToken(token) {
		return tournament.Actor{Role: tournament.RoleAdmin}, nil
	}
	if referee.LooksLikeRefereeToken(token) {
		// Referee tokens can be revoked: they are checked every time.
		ref, err := h.deps.Referees.Identify(c.Request().Context(), token)
		if err != nil || ref.TournamentID != tid {
			return public, err
		}
		return tournament.Actor{Role: tournament.RoleReferee, TokenID: "referee:" + ref.ID}, nil
	}
	id, err := h.deps.Tournaments.Identify(c.Request().Context(), tid, token, tournament.Where{})
	if err != nil || id.Role != tournament.RoleOrganizer || id.Tournament != tid {
		return public, err
	}
	return tournament.Actor{Role: tournament.RoleOrganizer}, nil
}

func errUnknownSession() error {
	return tournament.Errorf(tournament.KindUnauthorized, tournament.CodeUnknownToken, "the session's token is not known")
}

func errTooManyTries() error {
	return tournament.Errorf(tournament.KindTooMany, tournament.CodeTooManyAttempts,
		"too many wrong tokens from this address; wait a minute")
}

// loginData is the login page's data.
type loginData struct {
	Error string
	Next  string
}

func (h *Handler) loginPage(c echo.Context) error {
	p := h.newPage(c, "login.title")
	p.Data = loginData{Next: localPath(c.QueryParam("next"))}
	return h.render(c, http.StatusOK, "login", p)
}

// loginSubmit checks the pasted token, on the one path of credentials
// (httpx.Verify): the admin goes to the admin page, a referee to the
// tournament's disputes, an organizer to the tournament's console.
func (h *Handler) loginSubmit(c echo.Context) error {
	token := strings.TrimSpace(c.FormValue("token"))
	p := h.newPage(c, "login.title")
	next, err := httpx.Verify(h.cfg.Door, c, httpx.CarrierForm, token, httpx.Check[string]{
		Lookup: func(ctx context.Context) (string, error) {
			return h.loginTarget(ctx, token, localPath(c.FormValue("next")))
		},
	})
	switch {
	case err == nil:
		h.setSession(c, token)
		return c.Redirect(http.StatusSeeOther, next)
	case tournament.ErrorKind(err) == tournament.KindTooMany:
		p.Data = loginData{Error: p.T("login.many")}
		return h.render(c, http.StatusTooManyRequests, "login", p)
	case tournament.ErrorKind(err) != tournament.KindUnauthorized:
		return h.fail(c, err) // not a wrong token: the database failed
	}
	p.Data = loginData{Error: p.T("login.bad")}
	return h.render(c, http.StatusUnauthorized, "login", p)
}

// loginTarget finds who holds token and where the login leads: back to
// next when it is a page of theirs.
func (h *Handler) loginTarget(ctx context.Context, token, next string) (string, error) {
	if h.isAdminToken(token) {
		if next != "/" && next != "/login" {
			return next, nil
		}
		return "/admin", nil
	}
	if referee.LooksLikeRefereeToken(token) {
		if ref, err := h.deps.Referees.Identify(ctx, token); err == nil {
			home := "/t/" + urlPathEscape(ref.TournamentID) + "/"
			if strings.HasPrefix(next, home+"disputes") {
				return next, nil
			}
			return home + "disputes", nil
		}
	}
	if token == "" {
		return "", errUnknownSession()
	}
	id, err := h.deps.Tournaments.Identify(ctx, "", token, tournament.Where{})
	if err != nil {
		return "", err
	}
	if id.Role != tournament.RoleOrganizer {
		return "", errUnknownSession()
	}
	home := "/t/" + urlPathEscape(id.Tournament) + "/"
	// Back to the page that asked for the login, when it is this tournament's.
	if strings.HasPrefix(next, home) {
		return next, nil
	}
	return home + "console", nil
}

func (h *Handler) logout(c echo.Context) error {
	h.clearSession(c)
	return c.Redirect(http.StatusSeeOther, "/")
}

// urlPathEscape escapes one path segment.
func urlPathEscape(s string) string { return url.PathEscape(s) }

// urlQueryEscape escapes a query value.
func urlQueryEscape(s string) string { return url.QueryEscape(s) }

// Credentials verifies the cookies of the request that carry credentials
// (the session's and the table's) on the one path of credentials, whatever
// the route: package server calls it on every request, so that a route
// that does not read a cookie still counts it wrong. A cookie found wrong
// is deleted, so that one left over from an old round or a revoked token
// spends one try, not one per page.
func (h *Handler) Credentials(c echo.Context) {
	if sessionToken(c) != "" {
		_, _ = h.actor(c, c.Param("tid"))
		if httpx.Verified(c, httpx.CarrierSession) {
			h.clearSession(c)
		}
	}
	if _, _, ok := h.tableSession(c); !ok && httpx.Verified(c, httpx.CarrierTable) {
		h.setTableCookie(c, c.Param("tid"), "", -1)
	}
}
