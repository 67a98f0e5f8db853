package api_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestBrokenTextInPathsAndQueries (issue 13, item 6): NUL, control
// characters and bytes that are not UTF-8 in a path or query parameter are
// a 404 or 400 (problem+json in the API, a page or plain text elsewhere),
// never a 500 with an ERROR in the log.
func TestBrokenTextInPathsAndQueries(t *testing.T) {
	t.Parallel()
	s := startRefereeServer(t)
	tt := s.createTournament(t, `{"name":"Bytes","format":"swiss","rounds":1}`)
	tests := []struct {
		path, token string
		status      int
		contentType string
	}{
		{"/api/v1/tournaments/%00", "", 404, "application/problem+json"},
		{"/api/v1/tournaments/%FF", "", 404, "application/problem+json"},
		{"/api/v1/tournaments/%FF/standings", "", 404, "application/problem+json"},
		{"/api/v1/tournaments/" + tt.ID + "/players/%00", "", 404, "application/problem+json"},
		{"/api/v1/tournaments/" + tt.ID + "/audit?player=%00", tt.OrganizerToken, 400, "application/problem+json"},
		{"/api/v1/tournaments/" + tt.ID + "/audit?kind=%FF", tt.OrganizerToken, 400, "application/problem+json"},
		{"/api/v1/tournaments/" + tt.ID + "/standings?format=%00", "", 400, "application/problem+json"},
		{"/t/%00", "", 404, "text/html; charset=UTF-8"},
		{"/t/%FF/standings.csv", "", 404, "text/html; charset=UTF-8"},
		{"/t/%00/events", "", 404, "text/html; charset=UTF-8"},
		{"/t/" + tt.ID + "/seating?find=%FF", "", 400, "text/html; charset=UTF-8"},
		{"/static/%FF", "", 404, "text/plain; charset=utf-8"},
		{"/static/%00", "", 404, "text/plain; charset=utf-8"},
	}
	for _, c := range tests {
		resp, body := s.call(t, "GET", c.path, c.token, nil)
		if resp.StatusCode != c.status || resp.Header.Get("Content-Type") != c.contentType {
			t.Errorf("GET %s = %d %q, want %d %q: %.200s", c.path, resp.StatusCode, resp.Header.Get("Content-Type"), c.status, c.contentType, body)
		}
	}
	if strings.Contains(s.logs.String(), `"level":"ERROR"`) {
		t.Errorf("the log has errors:\n%s", s.logs.String())
	}
	// The store refuses such text too, as the caller's mistake.
	resp, body := s.call(t, "GET", "/api/v1/tournaments/"+tt.ID+"/audit?player=ok", tt.OrganizerToken, nil)
	if resp.StatusCode != http.StatusOK {
		t.Errorf("audit with a clean filter = %d %s, want 200", resp.StatusCode, body)
	}
}
