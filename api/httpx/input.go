package httpx

import (
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/tournament"
)

// cleanInput refuses requests whose path or query holds text no resource
// can be named by and no store can hold: NUL and other control characters,
// or bytes that are not UTF-8 (issue 13: /api/v1/tournaments/%00 was a 500
// and an ERROR in the log). Such a path names nothing: 404 (a plain one
// under /static/, a problem or page elsewhere, by the error handler); such
// a query is a 400 invalid_query.
func (m *Middleware) cleanInput(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if !cleanText(r.URL.Path) {
			if strings.HasPrefix(r.URL.Path, "/static/") {
				http.NotFound(c.Response(), r)
				return nil
			}
			return echo.ErrNotFound
		}
		if r.URL.RawQuery == "" {
			return next(c)
		}
		q, err := url.ParseQuery(r.URL.RawQuery)
		if err != nil {
			return tournament.Errorf(tournament.KindInvalid, tournament.CodeInvalidQuery, "the query string is not well formed: %v", err)
		}
		for k, vs := range q {
			if !cleanText(k) {
				return tournament.Errorf(tournament.KindInvalid, tournament.CodeInvalidQuery,
					"a query parameter's name holds a control character or bytes that are not UTF-8")
			}
			for _, v := range vs {
				if !cleanText(v) {
					return tournament.Errorf(tournament.KindInvalid, tournament.CodeInvalidQuery,
						"the query parameter %q holds a control character or bytes that are not UTF-8", k)
				}
			}
		}
		return next(c)
	}
}

// cleanText reports whether s is UTF-8 without control characters.
func cleanText(s string) bool {
	for i := 0; i < len(s); i++ {
		if b := s[i]; b < 0x20 || b == 0x7f || b >= utf8.RuneSelf {
			return cleanSlow(s)
		}
	}
	return true
}

func cleanSlow(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r >= 0x7f && r < 0xa0 {
			return false
		}
	}
	return true
}
