package site

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/tournament"
)

// The CSRF protection of the forms: a random nonce in the revisor_csrf
// cookie (HttpOnly, SameSite=Strict, Secure by the one rule of every
// cookie, secureCookie), and in each form a token that is the hash of the
// nonce and the visitor's credentials (the session's and the table's
// cookies). A form posted with another session than the one it was
// rendered for fails, and a cookie planted by someone else (a sibling
// site) is no use without the visitor's session, which it cannot read:
// before, any matching cookie and field passed (issue 25).
const (
	csrfCookie = "revisor_csrf"
	// csrfContextKey is where the request's form token is kept for the
	// templates (the key echo's CSRF middleware used).
	csrfContextKey = "csrf"
	csrfMaxAge     = 24 * 3600
	csrfNonceLen   = 32
)

// CSRF is the forms' middleware: it gives the page its token, and refuses
// a POST whose token is not the one of its cookie and session.
func (h *Site) CSRF() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			nonce, had := csrfNonce(c)
			if !had {
				c.SetCookie(h.Cookie(c, csrfCookie, nonce, "/", csrfMaxAge, http.SameSiteStrictMode))
			}
			token := csrfToken(c, nonce)
			c.Set(csrfContextKey, token)
			switch c.Request().Method {
			case http.MethodGet, http.MethodHead, http.MethodOptions:
				return next(c)
			}
			sent := c.FormValue(csrfField)
			if !had || subtle.ConstantTimeCompare([]byte(sent), []byte(token)) != 1 {
				return h.Fail(c, tournament.Errorf(tournament.KindForbidden, tournament.CodeCSRF,
					"the form has expired or did not come from this site; reload the page and try again"))
			}
			return next(c)
		}
	}
}

// csrfNonce is the nonce of the request's cookie, or a new one.
func csrfNonce(c echo.Context) (string, bool) {
	if ck, err := c.Cookie(csrfCookie); err == nil {
		if b, err := base64.RawURLEncoding.DecodeString(ck.Value); err == nil && len(b) == csrfNonceLen {
			return ck.Value, true
		}
	}
	b := make([]byte, csrfNonceLen)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b), false
}

// csrfToken binds nonce to the request's credentials as verified (a cookie
// found wrong is being deleted: it binds nothing).
func csrfToken(c echo.Context, nonce string) string {
	cred := func(name string, carrier httpx.Carrier) string {
		ck, err := c.Cookie(name)
		if err != nil || httpx.Verified(c, carrier) {
			return ""
		}
		return ck.Value
	}
	sum := sha256.Sum256([]byte("revisor-csrf\x00" + nonce + "\x00" + cred(sessionCookie, httpx.CarrierSession) +
		"\x00" + cred(tableCookie, httpx.CarrierTable)))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}
