package api_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/internal/assemble"
	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/internal/ratelimit"
	"github.com/revisor-sm/revisor/internal/servertest"
	"github.com/revisor-sm/revisor/internal/tokens"
	"github.com/revisor-sm/revisor/server"
)

// TestEveryRouteCountsEveryWrongCredential walks every route of the
// router (the API's and the pages', taken from the router, so a new route
// is walked without being listed) with a wrong credential in every carrier
// (Authorization header with a token and with a code, the session cookie,
// the table cookie) and the login forms with a wrong token and code, each
// from an address of its own, and checks that each request took a try of
// its address's budget (issue 25, point 1: 100 wrong revisor_table cookies
// on /t/{tid}/table spent nothing).
func TestEveryRouteCountsEveryWrongCredential(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	deps := assemble.Services(pool, assemble.Options{})
	fails := ratelimit.NewFailures(nil)
	codes := ratelimit.NewBudget(nil, 1e6, time.Hour) // never refuses here: each code must reach its lookup
	door := httpx.NewDoor(fails, codes, nil)
	srv, err := server.New(api.Config{AdminTokenHash: api.HashToken(adminToken), TrustProxy: true, Failures: fails, Door: door},
		servertest.Complete(deps))
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	ts := &testServer{URL: hs.URL}
	tt := ts.createTournament(t, `{"name":"Door test","format":"swiss","rounds":1}`)
	params := strings.NewReplacer("{tid}", tt.ID, "{n}", "1", "{t}", "1", "{g}", "1", "{d}", "1", "{pid}", "p1",
		"{sid}", "s1", "{rid}", "r1", "{id}", "x1", "{code}", "BCDFGH", "{lang}", "en", "{file}", "app.js")
	wrongToken := "wrong-" + strings.Repeat("x", 40)
	wrongCode := strings.Repeat("Z", tokens.CodeLength-1) + "2"
	burst := float64(fails.Burst())
	n := 0
	spent := func(before, after float64) bool { return after < before-0.5 } // a try refills in seconds, not at once
	send := func(method, path, what string, set func(*http.Request)) {
		t.Helper()
		n++
		ip := fmt.Sprintf("10.%d.%d.%d", n>>16&255, n>>8&255, n&255)
		var body *strings.Reader = strings.NewReader("{}")
		req, _ := http.NewRequest(method, hs.URL+path, body)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Forwarded-For", ip)
		set(req)
		code := strings.Contains(what, "code")
		tidBefore := codes.Tries(tt.ID)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		resp.Body.Close()
		if got := fails.Tries(ip); !spent(burst, got) {
			t.Errorf("%s %s with a wrong %s = %d; the address has %.1f tries of %v left, want one spent",
				method, path, what, resp.StatusCode, got, burst)
		}
		if got := codes.Tries(tt.ID); code && strings.Contains(path, tt.ID) && !spent(tidBefore, got) {
			t.Errorf("%s %s with a wrong %s = %d; the tournament has %.1f tries left, had %.1f: want one spent",
				method, path, what, resp.StatusCode, got, tidBefore)
		}
	}
	routes := append(srv.Routes(), srv.WebRoutes()...)
	if len(routes) < 50 {
		t.Fatalf("only %d routes", len(routes))
	}
	for _, r := range routes {
		path := params.Replace(r.Path)
		send(r.Method, path, "bearer token", func(req *http.Request) { req.Header.Set("Authorization", "Bearer "+wrongToken) })
		if strings.Contains(r.Path, "{tid}") {
			send(r.Method, path, "bearer code", func(req *http.Request) { req.Header.Set("Authorization", "Bearer "+wrongCode) })
		}
		send(r.Method, path, "session cookie", func(req *http.Request) {
			req.AddCookie(&http.Cookie{Name: "revisor_session", Value: wrongToken})
		})
		send(r.Method, path, "table cookie", func(req *http.Request) {
			req.AddCookie(&http.Cookie{Name: "revisor_table", Value: wrongCode})
		})
	}
	// The login forms, past their CSRF check.
	csrf, token := csrfForm(t, hs.URL+"/login")
	for path, form := range map[string]url.Values{
		"/login":                       {"token": {wrongToken}},
		"/t/" + tt.ID + "/table/login": {"code": {wrongCode}}, // "code" in what: see send
	} {
		form.Set("_csrf", token)
		send("POST", path, "login form (token or code)", func(req *http.Request) {
			req.Body = http.NoBody
			enc := form.Encode()
			req.Body, req.ContentLength = ioNopCloser(enc), int64(len(enc))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.AddCookie(csrf)
		})
	}
}

// csrfForm reads the CSRF cookie and the form's token of a form page.
func csrfForm(t *testing.T, page string, cookies ...*http.Cookie) (*http.Cookie, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", page, nil)
	for _, c := range cookies {
		req.AddCookie(c)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := regexp.MustCompile(`name="_csrf" value="([^"]+)"`).FindSubmatch(body)
	for _, c := range resp.Cookies() {
		if c.Name == "revisor_csrf" && m != nil {
			return c, string(m[1])
		}
	}
	t.Fatalf("GET %s set no CSRF cookie or form token", page)
	return nil, ""
}

// TestCookiesOneRule: every cookie the pages set is Secure behind TLS,
// the CSRF cookie too (issue 25, point 8: it never was), and a form's
// CSRF token is good only with the session it was rendered for.
func TestCookiesOneRule(t *testing.T) {
	t.Parallel()
	s := startTournamentServer(t)
	for _, path := range []string{"/login", "/lang/sv"} {
		req, _ := http.NewRequest("GET", s.URL+path, nil)
		req.Header.Set("X-Forwarded-Proto", "https")
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if len(resp.Cookies()) == 0 {
			t.Errorf("GET %s set no cookie", path)
		}
		for _, c := range resp.Cookies() {
			if !c.Secure || !c.HttpOnly {
				t.Errorf("GET %s behind TLS: cookie %s Secure %v HttpOnly %v, want both", path, c.Name, c.Secure, c.HttpOnly)
			}
		}
	}
	cookie, token := csrfForm(t, s.URL+"/login")
	post := func(extra ...*http.Cookie) int {
		form := url.Values{"token": {"wrong-token-0123456789"}, "_csrf": {token}}.Encode()
		req, _ := http.NewRequest("POST", s.URL+"/login", strings.NewReader(form))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(cookie)
		for _, c := range extra {
			req.AddCookie(c)
		}
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := post(); got != http.StatusUnauthorized {
		t.Errorf("the login form with its own token = %d, want 401 (past the CSRF check, a wrong token)", got)
	}
	if got := post(&http.Cookie{Name: "revisor_session", Value: adminToken}); got != http.StatusForbidden {
		t.Errorf("the login form's token with another session's cookie = %d, want 403", got)
	}
}

func ioNopCloser(s string) io.ReadCloser { return io.NopCloser(strings.NewReader(s)) }

// TestShortLinksNotEnumerated: unknown short links spend the address's
// budget like wrong credentials (issue 25: no limit before), so that the
// eleventh unknown code in a row is 429.
func TestShortLinksNotEnumerated(t *testing.T) {
	t.Parallel()
	s := startTournamentServer(t)
	for i := range 11 {
		resp, _ := s.do(t, request{method: "GET", path: "/s/BCDFGH"})
		want := http.StatusNotFound
		if i == 10 {
			want = http.StatusTooManyRequests
		}
		if resp.StatusCode != want {
			t.Fatalf("unknown short link %d = %d, want %d", i+1, resp.StatusCode, want)
		}
	}
}
