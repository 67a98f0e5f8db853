package site

import (
	"context"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

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

// SessionMaxAge is how long a login lasts: a tournament day and then some.
const SessionMaxAge = 24 * time.Hour

// secureCookie reports whether cookies of this request are marked Secure.
func (h *Site) secureCookie(c echo.Context) bool {
	return h.cfg.SecureCookies || c.Scheme() == "https"
}

// Cookie is the one rule of every cookie the pages set (session, table,
// CSRF, language): HttpOnly, Secure behind TLS (secureCookie), and the
// SameSite mode given.
func (h *Site) Cookie(c echo.Context, name, value, path string, maxAge int, site http.SameSite) *http.Cookie {
	return &http.Cookie{Name: name, Value: value, Path: path, MaxAge: maxAge,
		HttpOnly: true, Secure: h.secureCookie(c), SameSite: site}
}

func (h *Site) setSession(c echo.Context, token string) {
	c.SetCookie(h.Cookie(c, sessionCookie, token, "/", int(SessionMaxAge.Seconds()), http.SameSiteStrictMode))
}

func (h *Site) clearSession(c echo.Context) {
	c.SetCookie(h.Cookie(c, sessionCookie, "", "/", -1, http.SameSiteStrictMode))
}

// sessionToken returns the token of the visitor's session, or "".
func sessionToken(c echo.Context) string {
	ck, err := c.Cookie(sessionCookie)
	if err != nil {
		return ""
	}
	return ck.Value
}

// Actor returns who the visitor is within tournament tid: the admin, the
// tournament's organizer, a referee, or the public. A session's token goes
// the one path of credentials (httpx.Verify), like the API's tokens: a try
// is taken from the address's budget of wrong tokens first (429 when it
// has none), a wrong token spends it, a good one gives it back, so cookies
// are no door around the limit.
func (h *Site) Actor(c echo.Context, tid string) (tournament.Actor, error) {
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
func (h *Site) identify(c echo.Context, tid, token string) (tournament.Actor, error) {
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

// LoginPage is the form that takes a token.
func (h *Site) LoginPage(c echo.Context) error {
	p := h.NewPage(c, "login.title")
	p.Data = loginData{Next: LocalPath(c.QueryParam("next"))}
	return h.Render(c, http.StatusOK, "login", p)
}

// LoginSubmit checks the pasted token, on the one path of credentials
// (httpx.Verify): the admin goes to the admin page, a referee to the
// tournament's disputes, an organizer to the tournament's console.
func (h *Site) LoginSubmit(c echo.Context) error {
	token := strings.TrimSpace(c.FormValue("token"))
	p := h.NewPage(c, "login.title")
	next, err := httpx.Verify(h.cfg.Door, c, httpx.CarrierForm, token, httpx.Check[string]{
		Lookup: func(ctx context.Context) (string, error) {
			return h.loginTarget(ctx, token, LocalPath(c.FormValue("next")))
		},
	})
	switch {
	case err == nil:
		h.setSession(c, token)
		return c.Redirect(http.StatusSeeOther, next)
	case tournament.ErrorKind(err) == tournament.KindTooMany:
		p.Data = loginData{Error: p.T("login.many")}
		return h.Render(c, http.StatusTooManyRequests, "login", p)
	case tournament.ErrorKind(err) != tournament.KindUnauthorized:
		return h.Fail(c, err) // not a wrong token: the database failed
	}
	p.Data = loginData{Error: p.T("login.bad")}
	return h.Render(c, http.StatusUnauthorized, "login", p)
}

// loginTarget finds who holds token and where the login leads: back to
// next when it is a page of theirs.
func (h *Site) loginTarget(ctx context.Context, token, next string) (string, error) {
	if h.isAdminToken(token) {
		if next != "/" && next != "/login" {
			return next, nil
		}
		return "/admin", nil
	}
	if referee.LooksLikeRefereeToken(token) {
		if ref, err := h.deps.Referees.Identify(ctx, token); err == nil {
			home := "/t/" + PathEscape(ref.TournamentID) + "/"
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
	home := "/t/" + PathEscape(id.Tournament) + "/"
	// Back to the page that asked for the login, when it is this tournament's.
	if strings.HasPrefix(next, home) {
		return next, nil
	}
	return home + "console", nil
}

// Logout ends the session and goes to the home page.
func (h *Site) Logout(c echo.Context) error {
	h.clearSession(c)
	return c.Redirect(http.StatusSeeOther, "/")
}

// PathEscape escapes one path segment.
func PathEscape(s string) string { return url.PathEscape(s) }

// QueryEscape escapes a query value.
func QueryEscape(s string) string { return url.QueryEscape(s) }

// Credentials verifies the cookies of the request that carry credentials
// (the session's and the table's) on the one path of credentials, whatever
// the route: package server calls it on every request, so that a route
// that does not read a cookie still counts it wrong. A cookie found wrong
// is deleted, so that one left over from an old round or a revoked token
// spends one try, not one per page.
func (h *Site) Credentials(c echo.Context) {
	if sessionToken(c) != "" {
		_, _ = h.Actor(c, c.Param("tid"))
		if httpx.Verified(c, httpx.CarrierSession) {
			h.clearSession(c)
		}
	}
	if _, _, ok := h.TableSession(c); !ok && httpx.Verified(c, httpx.CarrierTable) {
		h.SetTableCookie(c, c.Param("tid"), "", -1)
	}
}

// LocalPath returns next when it is a clean path on this site, else "/",
// so that neither the language switch nor the login can send visitors
// elsewhere. Clean: valid UTF-8 without control characters, spaces or
// backslashes (browsers drop tabs and newlines and read "\" as "/", so
// "/\t/evil.example" would become "//evil.example"), starting with one
// "/", and naming neither scheme nor host once parsed.
func LocalPath(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || !utf8.ValidString(next) ||
		strings.IndexFunc(next, func(r rune) bool { return r < 0x21 || r == 0x7f || r == '\\' || unicode.IsSpace(r) }) >= 0 {
		return "/"
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || !strings.HasPrefix(u.Path, "/") ||
		strings.HasPrefix(u.Path, "//") {
		return "/"
	}
	// Dot segments are resolved, so that a check of the path's prefix
	// (a tournament's pages, login.go) holds for the page it leads to:
	// /t/a/../../admin is /admin.
	clean := path.Clean(u.Path)
	if strings.HasSuffix(u.Path, "/") && clean != "/" {
		clean += "/"
	}
	u.Path, u.RawPath = clean, ""
	if u.Fragment != "" {
		return u.RequestURI() + "#" + u.EscapedFragment()
	}
	return u.RequestURI()
}
