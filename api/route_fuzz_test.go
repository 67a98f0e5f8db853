package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/internal/assemble"
	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/internal/servertest"
	"github.com/revisor-sm/revisor/server"
	"github.com/revisor-sm/revisor/tournament"
)

// queryNames are every query parameter a route reads.
var queryNames = []string{"after", "deal", "format", "game", "id", "in_progress", "kind", "limit", "next", "page",
	"player", "q", "round", "saved", "status", "table", "variant", "view"}

var pathParam = regexp.MustCompile(`\{[a-z]+\}`)

// fuzzRoutes are the routes FuzzRouteParameters walks: the API's and the
// pages', both as the router has them, so that a new route is fuzzed
// without being listed here.
func fuzzRoutes(srv *server.Server) []api.Route {
	return append(srv.Routes(), srv.WebRoutes()...)
}

// TestFuzzRoutesFromRouter (issue 13) holds the fuzz target to the
// router: every page the router serves is walked, also those no list
// names (the room, the export, the table's clock, the register), and
// every path parameter is written {name}.
func TestFuzzRoutesFromRouter(t *testing.T) {
	t.Parallel()
	srv, err := server.New(api.Config{AdminTokenHash: api.HashToken(adminToken)}, servertest.Complete(server.Deps{}))
	if err != nil {
		t.Fatal(err)
	}
	got := map[api.Route]bool{}
	for _, r := range fuzzRoutes(srv) {
		got[r] = true
		if strings.Contains(r.Path, "/:") || strings.Contains(r.Path, "*") {
			t.Errorf("route %s %s is not in {name} notation", r.Method, r.Path)
		}
	}
	for _, want := range []api.Route{
		{Method: "GET", Path: "/t/{tid}/console/rounds/{n}/room"}, {Method: "GET", Path: "/t/{tid}/console/export.json"},
		{Method: "GET", Path: "/t/{tid}/table/clock"}, {Method: "POST", Path: "/t/{tid}/disputes/{id}/ruling"},
		{Method: "GET", Path: "/static/{file}"}, {Method: "HEAD", Path: "/t/{tid}/standings"},
		{Method: "GET", Path: "/api/v1/tournaments/{tid}/disputes"},
	} {
		if !got[want] {
			t.Errorf("fuzzRoutes lacks %s %s", want.Method, want.Path)
		}
	}
}

// FuzzRouteParameters (issue 13, item 6) puts arbitrary text into every
// path parameter of every route (the API's and the pages'), or into every
// query parameter, with each kind of caller. Whatever comes in, the answer
// is never a server error.
func FuzzRouteParameters(f *testing.F) {
	pool := dbtest.New(f)
	deps := assemble.Services(pool, assemble.Options{})
	deps.Ready = func(context.Context) error { return nil }
	svc := deps.Tournaments
	srv, err := server.New(api.Config{AdminTokenHash: api.HashToken(adminToken)}, servertest.Complete(deps))
	if err != nil {
		f.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	f.Cleanup(hs.Close)
	rounds := 2
	tt, err := svc.CreateTournament(context.Background(), tournament.Actor{Role: tournament.RoleAdmin},
		tournament.NewTournament{Name: "Fuzz", Format: tournament.FormatSwiss, Rounds: &rounds})
	if err != nil {
		f.Fatal(err)
	}
	tid := tt.Tournament.ID
	routes := fuzzRoutes(srv)
	for _, seed := range []string{"\x00", "\xff", "%", "..", "/", "1", "-1", "99999999999999999999", "Åsa", "\t", "a b", "\xed\xa0\x80"} {
		f.Add(uint8(0), uint8(0), seed, uint8(1))
		f.Add(uint8(7), uint8(1), seed, uint8(2))
		f.Add(uint8(len(routes)-1), uint8(2), seed, uint8(0))
	}
	tokens := []string{"", adminToken, tt.OrganizerToken, "ABCDEFGH"}
	f.Fuzz(func(t *testing.T, route, where uint8, value string, who uint8) {
		r := routes[int(route)%len(routes)]
		// where: 0 every path parameter, 1 every query parameter, 2 the
		// tournament's own id and the value in every other parameter.
		path := pathParam.ReplaceAllStringFunc(r.Path, func(p string) string {
			if where%3 == 1 || where%3 == 2 && p == "{tid}" {
				return map[bool]string{true: tid, false: "1"}[p == "{tid}"]
			}
			return url.PathEscape(value)
		})
		if where%3 == 1 {
			q := url.Values{}
			for _, n := range queryNames {
				q.Set(n, value)
			}
			path += "?" + q.Encode()
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		var body *strings.Reader
		if r.Method != "GET" && r.Method != "DELETE" {
			body = strings.NewReader(`{}`)
		} else {
			body = strings.NewReader("")
		}
		req, err := http.NewRequestWithContext(ctx, r.Method, hs.URL+path, body)
		if err != nil {
			return
		}
		req.Header.Set("Content-Type", "application/json")
		if tok := tokens[int(who)%len(tokens)]; tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		if strings.HasSuffix(r.Path, "/events") {
			req.Header.Set("Accept", "text/event-stream")
			ctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
			defer cancel()
			req = req.WithContext(ctx)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return // an event stream cut by the test's own deadline
		}
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			t.Fatalf("%s %s as %d = %d, want no server error", r.Method, path, who, resp.StatusCode)
		}
	})
}
