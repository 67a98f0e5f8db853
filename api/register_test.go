package api_test

import (
	"net/http"
	"testing"
)

// TestRegisterEndpoints: the register's routes answer success, bad input
// and the wrong role as documented.
func TestRegisterEndpoints(t *testing.T) {
	t.Parallel()
	s := startRefereeServer(t)
	var p struct {
		ID, Membership string
	}
	s.must(t, http.StatusCreated, &p, "POST", "/api/v1/people", adminToken, map[string]string{"name": "Anna", "membership": "K-1"})
	tt := s.createTournament(t, `{"name": "Klubbkväll", "format": "swiss", "rounds": 1}`)
	cases := []struct {
		name, method, path, token string
		body                      any
		status                    int
		code                      string
	}{
		{"search", "GET", "/api/v1/people?q=ann&limit=10", "", nil, 200, ""},
		{"search with a bad limit", "GET", "/api/v1/people?limit=x", "", nil, 400, "invalid_parameter"},
		{"search with a limit too high", "GET", "/api/v1/people?limit=100000", "", nil, 400, "invalid_parameter"},
		{"add without a name", "POST", "/api/v1/people", adminToken, map[string]string{"club": "K"}, 400, "invalid_name"},
		{"add with the same membership", "POST", "/api/v1/people", adminToken, map[string]string{"name": "B", "membership": "K-1"}, 409, "person_exists"},
		{"add with a number for a name", "POST", "/api/v1/people", adminToken, map[string]any{"name": 5}, 400, "invalid_field_type"},
		{"add as the public", "POST", "/api/v1/people", "", map[string]string{"name": "B"}, 401, "missing_token"},
		{"add as an organizer", "POST", "/api/v1/people", tt.OrganizerToken, map[string]string{"name": "B"}, 403, "forbidden"},
		{"an unknown person", "GET", "/api/v1/people/P999999", "", nil, 404, "person_not_found"},
		{"a malformed person", "GET", "/api/v1/people/%FF", "", nil, 404, "route_not_found"},
		{"merge into nobody", "POST", "/api/v1/people/" + p.ID + "/merge", adminToken, map[string]string{"into": "P999999", "reason": "r"}, 404, "person_not_found"},
		{"merge into themself", "POST", "/api/v1/people/" + p.ID + "/merge", adminToken, map[string]string{"into": p.ID, "reason": "r"}, 400, "invalid_into"},
		{"register a player as an unknown person", "POST", "/api/v1/tournaments/" + tt.ID + "/players", tt.OrganizerToken, map[string]string{"name": "X", "person": "P999999"}, 400, "person_not_found"},
		{"register a player as a malformed person", "POST", "/api/v1/tournaments/" + tt.ID + "/players", tt.OrganizerToken, map[string]string{"name": "X", "person": "bob"}, 400, "invalid_person"},
		{"register a player as Anna", "POST", "/api/v1/tournaments/" + tt.ID + "/players", tt.OrganizerToken, map[string]string{"name": "Anna", "person": p.ID}, 201, ""},
		{"ratings", "GET", "/api/v1/ratings", "", nil, 200, ""},
		{"a series without a name", "POST", "/api/v1/series", adminToken, map[string]any{"best_of": 2}, 400, "invalid_name"},
		{"a series of an unknown tournament", "POST", "/api/v1/series", adminToken, map[string]any{"name": "S", "tournaments": []string{"nope"}}, 404, "tournament_not_found"},
		{"an unknown series", "GET", "/api/v1/series/aaaaaaaaaaaaaaaa/standings", "", nil, 404, "series_not_found"},
		{"a malformed series", "GET", "/api/v1/series/x%00/standings", "", nil, 404, "route_not_found"},
		{"a series id of the wrong shape", "GET", "/api/v1/series/x/standings", "", nil, 404, "series_not_found"},
		{"the log as an organizer", "GET", "/api/v1/register/log", tt.OrganizerToken, nil, 403, "forbidden"},
	}
	for _, c := range cases {
		resp, body := s.call(t, c.method, c.path, c.token, c.body)
		if resp.StatusCode != c.status {
			t.Errorf("%s: %s %s = %d %s, want %d", c.name, c.method, c.path, resp.StatusCode, body, c.status)
			continue
		}
		if c.code != "" {
			wantProblem(t, c.name, resp, body, c.status, c.code)
		}
	}
	// The membership number is the admin's to see.
	var list struct {
		People []struct{ Membership string }
	}
	s.must(t, http.StatusOK, &list, "GET", "/api/v1/people", "", nil)
	if len(list.People) == 0 || list.People[0].Membership != "" {
		t.Errorf("public list of people = %+v, want entries without membership numbers", list.People)
	}
	s.must(t, http.StatusOK, &list, "GET", "/api/v1/people", adminToken, nil)
	if len(list.People) == 0 || list.People[0].Membership == "" {
		t.Errorf("the admin's list of people = %+v, want membership numbers", list.People)
	}
	var sr struct{ ID string }
	s.must(t, http.StatusCreated, &sr, "POST", "/api/v1/series", adminToken, map[string]any{"name": "Säsong", "tournaments": []string{tt.ID}})
	resp, body := s.call(t, "GET", "/api/v1/series/"+sr.ID+"/standings?format=csv", "", nil)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/csv; charset=utf-8" {
		t.Errorf("series CSV = %d %s %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}
