package web

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/tournament"
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

func (h *Handler) setSession(c echo.Context, token string) {
	c.SetCookie(&http.Cookie{Name: sessionCookie, Value: token, Path: "/", MaxAge: int(sessionMaxAge.Seconds()),
		HttpOnly: true, Secure: h.secureCookie(c), SameSite: http.SameSiteStrictMode})
}

func (h *Handler) clearSession(c echo.Context) {
	c.SetCookie(&http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, Secure: h.secureCookie(c), SameSite: http.SameSiteStrictMode})
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
// tournament's organizer, a referee, or the public. A session's token is
// checked like the API's tokens: a try is taken from the address's budget
// of wrong tokens first (429 when it has none), a wrong token spends it, a
// good one gives it back, so cookies are no door around the limit.
func (h *Handler) actor(c echo.Context, tid string) (tournament.Actor, error) {
	public := tournament.Actor{Role: tournament.RolePublic}
	token := sessionToken(c)
	if token == "" {
		return public, nil
	}
	// An organizer token the service verified lately (its cache) is no
	// guess: no try from the budget, no lookup.
	if id, ok := h.deps.Tournaments.IdentifyCached(tid, token); ok && id.Role == tournament.RoleOrganizer && id.Tournament == tid {
		return tournament.Actor{Role: tournament.RoleOrganizer}, nil
	}
	ip := c.RealIP()
	if !h.cfg.Failures.Take(ip) {
		return public, errTooManyTries()
	}
	a, err := h.identify(c, tid, token)
	if tournament.ErrorKind(err) == tournament.KindUnauthorized {
		h.cfg.Failures.Fail(c.Request().Context(), ip)
		return public, nil
	}
	h.cfg.Failures.Refund(ip)
	if err != nil {
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
	if tournament.LooksLikeRefereeToken(token) {
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

// loginSubmit checks the pasted token: the admin goes to the admin page,
// an organizer to the tournament's console.
func (h *Handler) loginSubmit(c echo.Context) error {
	token := strings.TrimSpace(c.FormValue("token"))
	ip := c.RealIP()
	p := h.newPage(c, "login.title")
	if !h.cfg.Failures.Take(ip) {
		p.Data = loginData{Error: p.T("login.many")}
		return h.render(c, http.StatusTooManyRequests, "login", p)
	}
	good := false
	defer func() {
		if good {
			h.cfg.Failures.Refund(ip)
		}
	}()
	if h.isAdminToken(token) {
		good = true
		h.setSession(c, token)
		if next := localPath(c.FormValue("next")); next != "/" && next != "/login" {
			return c.Redirect(http.StatusSeeOther, next)
		}
		return c.Redirect(http.StatusSeeOther, "/admin")
	}
	if tournament.LooksLikeRefereeToken(token) {
		if ref, err := h.deps.Referees.Identify(c.Request().Context(), token); err == nil {
			good = true
			h.setSession(c, token)
			home := "/t/" + urlPathEscape(ref.TournamentID) + "/"
			if next := localPath(c.FormValue("next")); strings.HasPrefix(next, home+"disputes") {
				return c.Redirect(http.StatusSeeOther, next)
			}
			return c.Redirect(http.StatusSeeOther, home+"disputes")
		}
	}
	if token != "" {
		id, err := h.deps.Tournaments.Identify(c.Request().Context(), "", token, tournament.Where{})
		if err == nil && id.Role == tournament.RoleOrganizer {
			good = true
			h.setSession(c, token)
			home := "/t/" + urlPathEscape(id.Tournament) + "/"
			// Back to the page that asked for the login, when it is this tournament's.
			if next := localPath(c.FormValue("next")); strings.HasPrefix(next, home) {
				return c.Redirect(http.StatusSeeOther, next)
			}
			return c.Redirect(http.StatusSeeOther, home+"console")
		}
		if err != nil && tournament.ErrorKind(err) != tournament.KindUnauthorized {
			good = true // not a wrong token: the database failed
			return h.fail(c, err)
		}
	}
	h.cfg.Failures.Fail(c.Request().Context(), ip)
	p.Data = loginData{Error: p.T("login.bad")}
	return h.render(c, http.StatusUnauthorized, "login", p)
}

func (h *Handler) logout(c echo.Context) error {
	h.clearSession(c)
	return c.Redirect(http.StatusSeeOther, "/")
}

// urlPathEscape escapes one path segment.
func urlPathEscape(s string) string { return url.PathEscape(s) }

// urlQueryEscape escapes a query value.
func urlQueryEscape(s string) string { return url.QueryEscape(s) }
