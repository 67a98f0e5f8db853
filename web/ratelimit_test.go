package web_test

import (
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/internal/ratelimit"
	"github.com/revisor-sm/revisor/internal/servertest"
	"github.com/revisor-sm/revisor/server"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/postgres"
)

// TestWrongTokensShareOneLimit: the login form and the API count wrong
// tokens from an address together, so that a guesser cannot try each door
// in turn. Once the burst is spent at one door, the other refuses too —
// even the right token.
func TestWrongTokensShareOneLimit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		atAPI, atForm int // wrong tokens tried, the API first
		apiDoorLast   bool
	}{
		{"half and half, then the form", ratelimit.DefaultBurst / 2, ratelimit.DefaultBurst - ratelimit.DefaultBurst/2, false},
		{"all at the form, then the API", 0, ratelimit.DefaultBurst, true},
		{"all at the API, then the form", ratelimit.DefaultBurst, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			now := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
			svc := tournament.NewService(postgres.NewStore(dbtest.New(t))) // the form looks tokens up
			srv, err := server.New(api.Config{AdminTokenHash: api.HashToken(adminToken), Now: func() time.Time { return now }},
				servertest.Complete(server.Deps{Tournaments: svc, Tokens: api.NewTokenResolver(svc)}))
			if err != nil {
				t.Fatalf("server.New: %v", err)
			}
			hs := httptest.NewServer(srv)
			t.Cleanup(hs.Close)
			s := &site{URL: hs.URL}
			b := s.browser(t)
			for i := range tt.atAPI {
				if got := whoami(t, hs.URL, "guess"); got != http.StatusUnauthorized {
					t.Fatalf("wrong token %d at the API = %d, want 401", i+1, got)
				}
			}
			for i := range tt.atForm {
				if r := b.post("/login", "/login", url.Values{"token": {"guess"}}); r.Status != http.StatusUnauthorized {
					t.Fatalf("wrong token %d at the login form = %d, want 401", tt.atAPI+i+1, r.Status)
				}
			}
			if tt.apiDoorLast {
				if got := whoami(t, hs.URL, adminToken); got != http.StatusTooManyRequests {
					t.Errorf("right token at the API after %d wrong ones = %d, want 429", ratelimit.DefaultBurst, got)
				}
			} else if r := b.post("/login", "/login", url.Values{"token": {adminToken}}); r.Status != http.StatusTooManyRequests {
				t.Errorf("right token at the login form after %d wrong ones = %d, want 429", ratelimit.DefaultBurst, r.Status)
			}
			now = now.Add(ratelimit.DefaultEvery) // one try refilled
			if r := b.post("/login", "/login", url.Values{"token": {adminToken}}); r.Status != http.StatusSeeOther {
				t.Errorf("right token at the login form after waiting = %d, want 303", r.Status)
			}
		})
	}
}

// whoami asks the API who token is and returns the status.
func whoami(t *testing.T, base, token string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+"/api/v1/whoami", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET /api/v1/whoami: %v", err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestSessionCookiesAreLimited (issue 13, item 9): a session cookie's token
// is checked like the API's tokens; after the burst of wrong ones the
// address gets 429, even for the right cookie, and the API refuses too.
func TestSessionCookiesAreLimited(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSwiss, 4, false)
	jar, _ := cookiejar.New(nil)
	u, _ := url.Parse(s.URL)
	client := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(token string) int {
		jar.SetCookies(u, []*http.Cookie{{Name: "revisor_session", Value: token, Path: "/"}})
		resp, err := client.Get(s.URL + "/t/" + f.ID + "/console")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for i := range ratelimit.DefaultBurst {
		if got := get(fmt.Sprint("wrong-", i)); got != http.StatusSeeOther {
			t.Fatalf("wrong cookie %d = %d, want 303 to the login", i+1, got)
		}
	}
	for i := range 3 {
		if got := get(fmt.Sprint("more-", i)); got != http.StatusTooManyRequests {
			t.Errorf("wrong cookie %d after the burst = %d, want 429", ratelimit.DefaultBurst+i+1, got)
		}
	}
	if got := get(f.Token); got != http.StatusTooManyRequests {
		t.Errorf("the right cookie after the burst = %d, want 429", got)
	}
	if got := whoami(t, s.URL, f.Token); got != http.StatusTooManyRequests {
		t.Errorf("the API after the burst of wrong cookies = %d, want 429", got)
	}
}
