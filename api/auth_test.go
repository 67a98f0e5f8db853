package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/server"
	"github.com/revisor-sm/revisor/tournament"
)

// fakeTokens is a TokenResolver over a fixed table, standing in for the
// tournament service (storage is not involved in this test).
type fakeTokens map[string]api.Principal

func (f fakeTokens) ResolveToken(_ context.Context, tid, token string) (api.Principal, error) {
	if p, ok := f[token]; ok {
		return p, nil
	}
	return api.Principal{}, tournament.Errorf(tournament.KindUnauthorized, "unknown_token", "the token is not known")
}

func TestWhoami(t *testing.T) {
	t.Parallel()
	tokens := fakeTokens{"org-token": {Role: tournament.RoleOrganizer, TokenID: "t1", Tournament: "T1"}}
	s := startServer(t, api.Config{AdminTokenHash: api.HashToken("admin-secret")}, server.Deps{Tokens: tokens})
	tests := []struct {
		auth   string
		status int
		want   string // role, or problem code
	}{
		{"", http.StatusOK, "public"},
		{"Bearer admin-secret", http.StatusOK, "admin"},
		{"bearer admin-secret", http.StatusOK, "admin"},
		{"Bearer org-token", http.StatusOK, "organizer"},
		{"Bearer admin-secreT", http.StatusUnauthorized, "unknown_token"},
		{"Basic YWRtaW46c2VjcmV0", http.StatusUnauthorized, "invalid_authorization"},
		{"Bearer", http.StatusUnauthorized, "invalid_authorization"},
	}
	for _, tt := range tests {
		resp, body := s.do(t, request{method: "GET", path: "/api/v1/whoami", header: map[string]string{"Authorization": tt.auth}})
		if tt.status != http.StatusOK {
			wantProblem(t, "whoami with "+tt.auth, resp, body, tt.status, tt.want)
			if resp.Header.Get("WWW-Authenticate") == "" {
				t.Errorf("whoami with %q: 401 without WWW-Authenticate", tt.auth)
			}
			continue
		}
		var got struct{ Role, Tournament string }
		if err := json.Unmarshal(body, &got); err != nil || resp.StatusCode != http.StatusOK || got.Role != tt.want {
			t.Errorf("whoami with %q = %d %s, want 200 role %s", tt.auth, resp.StatusCode, body, tt.want)
		}
	}
}

// TestUnknownTokensAreRateLimited: after ten unknown tokens an address must
// wait; the limit refills with time (the clock is injected).
func TestUnknownTokensAreRateLimited(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	s := startServer(t, api.Config{AdminTokenHash: api.HashToken("admin-secret"), Now: clock}, server.Deps{})
	try := func(token string) *http.Response {
		resp, _ := s.do(t, request{method: "GET", path: "/api/v1/whoami", header: map[string]string{"Authorization": "Bearer " + token}})
		return resp
	}
	for i := range 10 {
		if resp := try("guess"); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("guess %d = %d, want 401", i+1, resp.StatusCode)
		}
	}
	resp, body := s.do(t, request{method: "GET", path: "/api/v1/whoami", header: map[string]string{"Authorization": "Bearer admin-secret"}})
	wantProblem(t, "11th try, even with the right token", resp, body, http.StatusTooManyRequests, "too_many_attempts")
	if got := resp.Header.Get("Retry-After"); got != "6" {
		t.Errorf("the 429's Retry-After = %q, want 6 (when the address's next try comes back)", got)
	}
	// The public, without a token, is not affected.
	if resp, _ := s.do(t, request{method: "GET", path: "/api/v1/whoami"}); resp.StatusCode != http.StatusOK {
		t.Errorf("public whoami while limited = %d, want 200", resp.StatusCode)
	}
	now = now.Add(7 * time.Second) // one try refilled
	if resp := try("admin-secret"); resp.StatusCode != http.StatusOK {
		t.Errorf("right token after waiting = %d, want 200", resp.StatusCode)
	}
}
