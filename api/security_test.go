package api_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/internal/servertest"
	"github.com/revisor-sm/revisor/server"
)

// TestSecurityHeaders: every API response carries the security headers,
// errors included.
func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	s := startServer(t, api.Config{}, server.Deps{})
	for _, r := range []request{
		{method: "GET", path: "/healthz"},
		{method: "GET", path: "/api/v1/openapi.json"},
		{method: "GET", path: "/api/v1/nowhere"},
		{method: "POST", path: "/api/v1/tournaments"},
		{method: "POST", path: "/api/v1/validate/deal", contentType: "application/json", body: strings.NewReader("{")},
	} {
		resp, _ := s.do(t, r)
		for h, want := range map[string]string{
			"X-Content-Type-Options":  "nosniff",
			"X-Frame-Options":         "DENY",
			"Referrer-Policy":         "no-referrer",
			"Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
		} {
			if got := resp.Header.Get(h); got != want {
				t.Errorf("%s %s (%d): %s = %q, want %q", r.method, r.path, resp.StatusCode, h, got, want)
			}
		}
		if got := resp.Header.Get("Strict-Transport-Security"); got != "" {
			t.Errorf("%s %s over plain HTTP: Strict-Transport-Security = %q, want none", r.method, r.path, got)
		}
	}
	proxied := startServer(t, api.Config{TrustProxy: true}, server.Deps{})
	resp, _ := proxied.do(t, request{method: "GET", path: "/healthz", header: map[string]string{"X-Forwarded-Proto": "https"}})
	if got := resp.Header.Get("Strict-Transport-Security"); got == "" {
		t.Errorf("behind a TLS proxy: no Strict-Transport-Security")
	}
}

// TestCORS: only configured origins get CORS headers; without any, no one.
func TestCORS(t *testing.T) {
	t.Parallel()
	const allowed, other = "https://club.example", "https://evil.example"
	s := startServer(t, api.Config{CORSOrigins: []string{allowed}}, server.Deps{})
	closed := startServer(t, api.Config{}, server.Deps{})
	preflight := func(s *testServer, origin string) *http.Response {
		resp, _ := s.do(t, request{method: "OPTIONS", path: "/api/v1/tournaments/x/standings", header: map[string]string{
			"Origin": origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type"}})
		return resp
	}
	tests := []struct {
		name   string
		resp   *http.Response
		origin string // the Access-Control-Allow-Origin wanted; "" for none
	}{
		{"preflight from the allowed origin", preflight(s, allowed), allowed},
		{"preflight from another origin", preflight(s, other), ""},
		{"preflight without configured origins", preflight(closed, allowed), ""},
	}
	get := func(s *testServer, origin string) *http.Response {
		resp, _ := s.do(t, request{method: "GET", path: "/api/v1/whoami", header: map[string]string{"Origin": origin}})
		return resp
	}
	tests = append(tests, []struct {
		name   string
		resp   *http.Response
		origin string
	}{
		{"GET from the allowed origin", get(s, allowed), allowed},
		{"GET from another origin", get(s, other), ""},
		{"GET without configured origins", get(closed, allowed), ""},
	}...)
	for _, tt := range tests {
		if got := tt.resp.Header.Get("Access-Control-Allow-Origin"); got != tt.origin {
			t.Errorf("%s: Access-Control-Allow-Origin = %q, want %q", tt.name, got, tt.origin)
		}
		if tt.resp.Header.Get("Access-Control-Allow-Credentials") != "" {
			t.Errorf("%s: credentials allowed", tt.name)
		}
	}
	if h := strings.ToLower(tests[0].resp.Header.Get("Access-Control-Allow-Headers")); !strings.Contains(h, "authorization") {
		t.Errorf("preflight allows headers %q, want Authorization among them", h)
	}
}

func TestParseOrigins(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string
		ok   bool
	}{
		{"", nil, true},
		{"https://club.example", []string{"https://club.example"}, true},
		{" https://A.example:8443 , http://localhost:5173/ ", []string{"https://a.example:8443", "http://localhost:5173"}, true},
		{"*", nil, false},
		{"club.example", nil, false},
		{"ftp://club.example", nil, false},
		{"https://club.example/app", nil, false},
		{"https://user@club.example", nil, false},
	}
	for _, tt := range tests {
		got, err := api.ParseOrigins(tt.in)
		if (err == nil) != tt.ok || !slices.Equal(got, tt.want) {
			t.Errorf("ParseOrigins(%q) = %q, %v; want %q, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

// TestWrongCodesAreRateLimited: ten wrong table codes or referee tokens in
// a minute from one address, and the eleventh try is 429. A table code the
// server verified lately (this round's tables entered their games with
// theirs) is no guess and still passes, so tables behind one address do
// not lock each other out; a right token not verified lately is refused
// like a guess (TestVerifiedTokensSpendNoBudget).
func TestWrongCodesAreRateLimited(t *testing.T) {
	t.Parallel()
	for _, wrong := range []string{"ABCDEFGH", "ref_" + strings.Repeat("x", 43)} {
		c := newClosedRound(t)
		path := disputesPath(c.tt.ID)
		for i := range 10 {
			resp, body := c.s.call(t, "POST", path, wrong, c.dispute(""))
			wantProblem(t, fmt.Sprintf("%s try %d", wrong[:4], i+1), resp, body, http.StatusUnauthorized, "unknown_token")
		}
		resp, body := c.s.call(t, "POST", path, wrong, c.dispute(""))
		wantProblem(t, "11th wrong try", resp, body, http.StatusTooManyRequests, "too_many_attempts")
		if resp, body := c.s.call(t, "POST", path, c.round.Tables[0].Code, c.dispute("")); resp.StatusCode != http.StatusCreated {
			t.Errorf("%s: a table code verified lately, after the budget was spent: %d %s, want 201", wrong[:4], resp.StatusCode, body)
		}
	}
}

// TestAuthorizationMatrix calls every route with every role: a role the
// route admits never gets 401 or 403; any other gets 401 (no token) or 403.
// A route missing from the matrix fails the test.
func TestAuthorizationMatrix(t *testing.T) {
	t.Parallel()
	c := newClosedRound(t)
	s, tid := c.s, c.tt.ID
	other := s.createTournament(t, `{"name": "Other", "format": "sm"}`)
	var d tDispute
	s.must(t, http.StatusCreated, &d, "POST", disputesPath(tid), c.tt.OrganizerToken, c.dispute(""))
	s.importPlayers(t, other, 4)
	round2 := s.draw(t, c.tt, 3) // table codes of the latest round are the valid ones
	tokens := map[string]string{
		"public": "", "admin": adminToken, "organizer": c.tt.OrganizerToken, "other": other.OrganizerToken,
		"referee": c.ref.Token, "table": round2.Tables[0].Code,
	}
	const (
		anyone    = "public admin organizer other referee table"
		inside    = "public admin organizer referee table" // scoped tokens of another tournament are refused
		orgs      = "admin organizer"
		referees  = "admin organizer referee"
		tables    = "admin organizer table"
		adminOnly = "admin"
		// A table code means something only within its tournament: on the
		// server's own routes it is an unknown token.
		serverWide = "public admin organizer other referee"
	)
	matrix := map[string]string{
		"GET /healthz": anyone, "GET /readyz": anyone, "GET /metrics": anyone,
		"GET /api/v1/openapi.json": anyone, "GET /api/v1/openapi.yaml": anyone,
		"POST /api/v1/validate/deal": anyone, "POST /api/v1/validate/game": anyone, "POST /api/v1/validate/bridge": anyone,
		"GET /api/v1/whoami":                                                           "public admin organizer other referee", // a table code means something only within its tournament
		"GET /api/v1/tournaments/{tid}/whoami":                                         inside,
		"POST /api/v1/tournaments":                                                     adminOnly,
		"GET /api/v1/tournaments/{tid}":                                                inside,
		"PATCH /api/v1/tournaments/{tid}":                                              orgs,
		"POST /api/v1/tournaments/{tid}/players":                                       orgs,
		"POST /api/v1/tournaments/{tid}/players:import":                                orgs,
		"GET /api/v1/tournaments/{tid}/players":                                        inside,
		"PATCH /api/v1/tournaments/{tid}/players/{pid}":                                orgs,
		"DELETE /api/v1/tournaments/{tid}/players/{pid}":                               orgs,
		"POST /api/v1/tournaments/{tid}/rounds":                                        orgs,
		"GET /api/v1/tournaments/{tid}/rounds":                                         inside,
		"GET /api/v1/tournaments/{tid}/rounds/{n}":                                     inside,
		"GET /api/v1/tournaments/{tid}/rounds/{n}/codes":                               orgs,
		"POST /api/v1/tournaments/{tid}/rounds/{n}/close":                              orgs,
		"POST /api/v1/tournaments/{tid}/rounds/{n}/ties":                               orgs,
		"PUT /api/v1/tournaments/{tid}/rounds/{n}/tables/{t}/games/{g}":                tables,
		"GET /api/v1/tournaments/{tid}/rounds/{n}/tables/{t}/games/{g}":                inside,
		"POST /api/v1/tournaments/{tid}/rounds/{n}/tables/{t}/games/{g}/deals":         tables,
		"GET /api/v1/tournaments/{tid}/standings":                                      inside,
		"POST /api/v1/tournaments/{tid}/referees":                                      orgs,
		"GET /api/v1/tournaments/{tid}/referees":                                       orgs,
		"DELETE /api/v1/tournaments/{tid}/referees/{rid}":                              orgs,
		"POST /api/v1/tournaments/{tid}/disputes":                                      tables,
		"GET /api/v1/tournaments/{tid}/disputes":                                       referees,
		"GET /api/v1/tournaments/{tid}/disputes/{id}":                                  referees,
		"POST /api/v1/tournaments/{tid}/disputes/{id}/ruling":                          referees,
		"GET /api/v1/tournaments/{tid}/audit":                                          referees,
		"GET /api/v1/tournaments/{tid}/rounds/{n}/window":                              inside,
		"POST /api/v1/tournaments/{tid}/rounds/{n}/reopen":                             orgs,
		"PUT /api/v1/tournaments/{tid}/correction-window":                              orgs,
		"POST /api/v1/tournaments/{tid}/rounds/{n}/commitment":                         orgs,
		"POST /api/v1/tournaments/{tid}/rounds/{n}/reveal":                             orgs,
		"GET /api/v1/tournaments/{tid}/rounds/{n}/draw":                                inside,
		"GET /api/v1/tournaments/{tid}/rounds/{n}/tables/{t}/games/{g}/deals":          inside,
		"PUT /api/v1/tournaments/{tid}/rounds/{n}/tables/{t}/games/{g}/deals/{d}":      tables,
		"POST /api/v1/tournaments/{tid}/rounds/{n}/tables/{t}/games/{g}/confirmations": tables,
		"GET /api/v1/tournaments/{tid}/rounds/{n}/clock":                               inside,
		"POST /api/v1/tournaments/{tid}/rounds/{n}/clock":                              orgs,
		"GET /api/v1/tournaments/{tid}/rounds/{n}/room":                                orgs,
		"POST /api/v1/tournaments/{tid}/rounds/{n}/tables/{t}/withdrawals":             orgs,
		"POST /api/v1/tournaments/{tid}/rounds/{n}/reseat":                             orgs,
		"GET /api/v1/people":                                                           serverWide,
		"POST /api/v1/people":                                                          adminOnly,
		"GET /api/v1/people/{pid}":                                                     serverWide,
		"POST /api/v1/people/{pid}/merge":                                              adminOnly,
		"GET /api/v1/register/log":                                                     adminOnly,
		"GET /api/v1/ratings":                                                          serverWide,
		"POST /api/v1/series":                                                          adminOnly,
		"GET /api/v1/series":                                                           serverWide,
		"GET /api/v1/series/{sid}":                                                     serverWide,
		"POST /api/v1/series/{sid}/tournaments":                                        adminOnly,
		"GET /api/v1/series/{sid}/standings":                                           serverWide,
	}
	// Bodies that are wrong enough to change nothing for a role admitted.
	bodies := map[string]any{
		"POST /api/v1/tournaments/{tid}/disputes": map[string]any{"round": 2, "table": 1, "game": 1},
	}
	params := strings.NewReplacer("{tid}", tid, "{n}", "2", "{t}", "1", "{g}", "1", "{d}", "1", "{pid}", "p1", "{rid}", "rnone", "{id}", d.ID)
	srv, err := server.New(api.Config{}, servertest.Complete(server.Deps{}))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range srv.Routes() {
		key := r.Method + " " + r.Path
		admitted, ok := matrix[key]
		if !ok {
			t.Errorf("route %s is not in the authorization matrix", key)
			continue
		}
		body, ok := bodies[key]
		if !ok && r.Method != "GET" && r.Method != "DELETE" {
			body = map[string]any{}
		}
		for role, token := range tokens {
			if role == "table" && registerRoute(key) {
				continue // unknown outside its tournament (whoami shows it); each try counts against the limiter
			}
			resp, b := s.call(t, r.Method, params.Replace(r.Path), token, body)
			if msg := judgeStatus(resp.StatusCode, role, admitted, r.Path); msg != "" {
				t.Errorf("%s as %s = %d %s, want %s", key, role, resp.StatusCode, b, msg)
			}
		}
	}
}

// judgeStatus says what was wanted when status is wrong for role on a
// route that admits the roles in admitted: an admitted role never gets
// 401, 403 or 429; no token is 401; a table code outside a tournament's
// routes is unknown (401); any other token is 403.
func judgeStatus(status int, role, admitted, path string) string {
	switch {
	case slices.Contains(strings.Fields(admitted), role):
		if status == 401 || status == 403 || status == 429 {
			return "admitted"
		}
	case role == "public" || (role == "table" && !strings.Contains(path, "{tid}")):
		if status != 401 {
			return "401"
		}
	case status != 403:
		return "403"
	}
	return ""
}

// registerRoute reports whether a route is one of the register's
// server-wide routes, where a table code is an unknown token.
func registerRoute(key string) bool {
	_, path, _ := strings.Cut(key, " ")
	for _, p := range []string{"/api/v1/people", "/api/v1/ratings", "/api/v1/series", "/api/v1/register"} {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}
