package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/internal/ratelimit"
	"github.com/revisor-sm/revisor/server"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/postgres"
)

// startIdempotencyServer is a server with the admin token, the tournament
// service and the idempotency store, on a clock the test moves.
func startIdempotencyServer(t *testing.T) (*testServer, *pgxpool.Pool, *testClock) {
	t.Helper()
	pool := dbtest.New(t)
	clock := &testClock{now: time.Date(2026, 5, 16, 9, 0, 0, 0, time.UTC)}
	svc := tournament.NewService(postgres.NewStore(pool))
	plays := play.New(svc, postgres.NewStore(pool))
	s := startServer(t, api.Config{AdminTokenHash: api.HashToken(adminToken), Now: clock.Now}, server.Deps{Tournaments: svc, Play: plays,
		Tokens: api.NewTokenResolver(svc), Idempotency: postgres.NewIdempotency(pool, time.Hour, time.Minute)})
	return s, pool, clock
}

func TestIdempotencyKey(t *testing.T) {
	t.Parallel()
	s, _, _ := startIdempotencyServer(t)
	post := func(key, body, auth string) (*http.Response, []byte) {
		return s.do(t, request{method: "POST", path: "/api/v1/tournaments", contentType: "application/json",
			body: strings.NewReader(body), header: map[string]string{"Idempotency-Key": key, "Authorization": auth}})
	}
	const create = `{"name":"Klubbkväll","format":"swiss","rounds":1}`
	const other = `{"name":"Annan kväll","format":"swiss","rounds":1}`
	admin := "Bearer " + adminToken

	first, firstBody := post("key-1", create, admin)
	if first.StatusCode != http.StatusCreated || first.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("first request = %d replayed %q, want 201 not replayed", first.StatusCode, first.Header.Get("Idempotent-Replayed"))
	}
	again, againBody := post("key-1", create, admin)
	if again.StatusCode != http.StatusCreated || again.Header.Get("Idempotent-Replayed") != "true" || string(againBody) != string(firstBody) {
		t.Errorf("repeat = %d replayed %q %s, want the first response replayed: %s", again.StatusCode,
			again.Header.Get("Idempotent-Replayed"), againBody, firstBody)
	}
	if ct := again.Header.Get("Content-Type"); ct != first.Header.Get("Content-Type") {
		t.Errorf("replayed Content-Type = %q, want %q", ct, first.Header.Get("Content-Type"))
	}
	resp, body := post("key-1", other, admin)
	wantProblem(t, "same key, other body", resp, body, http.StatusUnprocessableEntity, "idempotency_key_reused")

	// Keys are per credentials: another caller's key-1 is another key.
	if resp, _ := post("key-1", other, "Bearer someone"); resp.Header.Get("Idempotent-Replayed") != "" {
		t.Errorf("key-1 of another caller was replayed")
	}
	// Errors (4xx) are remembered too: a retry gets the same problem.
	bad1, b1 := post("key-2", `{"name":`, admin)
	bad2, b2 := post("key-2", `{"name":`, admin)
	if bad1.StatusCode != http.StatusBadRequest || bad2.Header.Get("Idempotent-Replayed") != "true" || string(b1) != string(b2) {
		t.Errorf("repeated bad request = %d/%d replayed %q, want the same 400 replayed", bad1.StatusCode, bad2.StatusCode, bad2.Header.Get("Idempotent-Replayed"))
	}
	for _, key := range []string{strings.Repeat("k", 256), "has space", "tab\there"} {
		resp, body = post(key, create, admin)
		wantProblem(t, fmt.Sprintf("key %.20q (%d characters)", key, len(key)), resp, body, http.StatusBadRequest, "invalid_idempotency_key")
	}
	// The longest key allowed is taken and replayed.
	long := strings.Repeat("k", 255)
	post(long, create, admin)
	if resp, _ := post(long, create, admin); resp.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("key of 255 characters: repeat not replayed (status %d)", resp.StatusCode)
	}
}

// TestIdempotencyNeverStores429 (issue 13, item 5): a 429 is answered to a
// valid token while its address is locked out; the client retries it with
// the same key, as the docs say, and must then get the real answer.
func TestIdempotencyNeverStores429(t *testing.T) {
	t.Parallel()
	s, _, clock := startIdempotencyServer(t)
	post := func(auth, key string) *http.Response {
		resp, _ := s.do(t, request{method: "POST", path: "/api/v1/tournaments", contentType: "application/json",
			body:   strings.NewReader(`{"name":"Kväll","format":"swiss","rounds":1}`),
			header: map[string]string{"Idempotency-Key": key, "Authorization": auth}})
		return resp
	}
	for i := range ratelimit.DefaultBurst {
		post("Bearer wrong-token", fmt.Sprint("guess-", i))
	}
	if resp := post("Bearer "+adminToken, "retry-me"); resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("valid token from a locked-out address = %d, want 429", resp.StatusCode)
	}
	clock.Advance(ratelimit.DefaultEvery)
	if resp := post("Bearer "+adminToken, "retry-me"); resp.StatusCode != http.StatusCreated || resp.Header.Get("Idempotent-Replayed") != "" {
		t.Errorf("the retry of a 429 with the same key = %d (replayed %q), want 201 not replayed",
			resp.StatusCode, resp.Header.Get("Idempotent-Replayed"))
	}
}

// TestIdempotencyIgnoresAnonymous (issue 13, item 1): answers to callers
// without a token (the public record checks) and to unknown tokens are
// never stored, so nobody can fill the store with them.
func TestIdempotencyIgnoresAnonymous(t *testing.T) {
	t.Parallel()
	s, pool, _ := startIdempotencyServer(t)
	for i, auth := range []string{"", "", "Bearer unknown", "Bearer unknown"} {
		resp, _ := s.do(t, request{method: "POST", path: "/api/v1/validate/deal", contentType: "application/json",
			body: strings.NewReader(minimalDeal), header: map[string]string{"Idempotency-Key": "anon", "Authorization": auth}})
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Idempotent-Replayed") != "" {
			t.Errorf("anonymous check %d = %d replayed %q, want 200 not replayed", i, resp.StatusCode, resp.Header.Get("Idempotent-Replayed"))
		}
	}
	resp, _ := s.do(t, request{method: "POST", path: "/api/v1/tournaments", contentType: "application/json",
		body: strings.NewReader(`{"name":"x","format":"swiss","rounds":1}`), header: map[string]string{"Idempotency-Key": "k", "Authorization": "Bearer unknown"}})
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("unknown token = %d, want 401", resp.StatusCode)
	}
	var n int
	if err := pool.QueryRow(t.Context(), `SELECT count(*) FROM idempotency_keys`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("stored idempotent answers after anonymous requests = %d, want 0", n)
	}
}
