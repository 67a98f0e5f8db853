package api_test

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/server"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/postgres"
)

// revocableTokens knows one token, until it is revoked.
type revocableTokens struct{ revoked atomic.Bool }

func (r *revocableTokens) ResolveToken(_ context.Context, _, token string) (api.Principal, error) {
	if token == "revocable-token-0123456789" && !r.revoked.Load() {
		return api.Principal{Role: tournament.RoleAdmin, TokenID: "revocable"}, nil
	}
	return api.Principal{}, tournament.Errorf(tournament.KindUnauthorized, tournament.CodeUnknownToken, "the token is not known")
}

// TestIdempotentReplayNeedsAGoodCredential: a stored answer is replayed
// only to a credential that is still good (issue 25, point 6: a revoked
// referee token got 401 for a new request but its ruling's answer again
// with the old Idempotency-Key).
func TestIdempotentReplayNeedsAGoodCredential(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	tokens := &revocableTokens{}
	s := startServer(t, api.Config{}, server.Deps{Tournaments: tournament.NewService(postgres.NewStore(pool)),
		Tokens: tokens, Idempotency: postgres.NewIdempotency(pool, time.Hour, time.Minute)})
	post := func() (*http.Response, []byte) {
		return s.do(t, request{method: "POST", path: "/api/v1/tournaments", contentType: "application/json",
			body:   strings.NewReader(`{"name":"Nyckel","format":"swiss","rounds":1}`),
			header: map[string]string{"Authorization": "Bearer revocable-token-0123456789", "Idempotency-Key": "k-1"}})
	}
	if resp, body := post(); resp.StatusCode != http.StatusCreated {
		t.Fatalf("first POST = %d %s, want 201", resp.StatusCode, body)
	}
	if resp, _ := post(); resp.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("second POST with the good token is no replay (Idempotent-Replayed %q)", resp.Header.Get("Idempotent-Replayed"))
	}
	tokens.revoked.Store(true)
	resp, body := post()
	wantProblem(t, "replay to a revoked token", resp, body, http.StatusUnauthorized, "unknown_token")
}
