package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/api"
)

func TestIdempotencyKey(t *testing.T) {
	s := startWithDB(t, api.Config{})
	post := func(key, body, auth string) (*http.Response, []byte) {
		return s.do(t, request{method: "POST", path: "/api/v1/validate/deal", contentType: "application/json",
			body: strings.NewReader(body), header: map[string]string{"Idempotency-Key": key, "Authorization": auth}})
	}
	other := strings.Replace(minimalDeal, `"dealer":"a"`, `"dealer":"b"`, 1)

	first, firstBody := post("key-1", minimalDeal, "")
	if first.StatusCode != http.StatusOK || first.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("first request = %d replayed %q, want 200 not replayed", first.StatusCode, first.Header.Get("Idempotent-Replayed"))
	}
	again, againBody := post("key-1", minimalDeal, "")
	if again.StatusCode != http.StatusOK || again.Header.Get("Idempotent-Replayed") != "true" || string(againBody) != string(firstBody) {
		t.Errorf("repeat = %d replayed %q %s, want the first response replayed: %s", again.StatusCode,
			again.Header.Get("Idempotent-Replayed"), againBody, firstBody)
	}
	if ct := again.Header.Get("Content-Type"); ct != first.Header.Get("Content-Type") {
		t.Errorf("replayed Content-Type = %q, want %q", ct, first.Header.Get("Content-Type"))
	}
	resp, body := post("key-1", other, "")
	wantProblem(t, "same key, other body", resp, body, http.StatusUnprocessableEntity, "idempotency_key_reused")

	// Keys are per credentials: another caller's key-1 is another key.
	if resp, _ := post("key-1", other, "Bearer someone"); resp.Header.Get("Idempotent-Replayed") != "" {
		t.Errorf("key-1 of another caller was replayed")
	}
	// Errors (4xx) are remembered too: a retry gets the same problem.
	bad1, b1 := post("key-2", `{"players":`, "")
	bad2, b2 := post("key-2", `{"players":`, "")
	if bad1.StatusCode != http.StatusBadRequest || bad2.Header.Get("Idempotent-Replayed") != "true" || string(b1) != string(b2) {
		t.Errorf("repeated bad request = %d/%d replayed %q, want the same 400 replayed", bad1.StatusCode, bad2.StatusCode, bad2.Header.Get("Idempotent-Replayed"))
	}
	for _, key := range []string{strings.Repeat("k", 256), "has space", "tab\there"} {
		resp, body = post(key, minimalDeal, "")
		wantProblem(t, fmt.Sprintf("key %.20q (%d characters)", key, len(key)), resp, body, http.StatusBadRequest, "invalid_idempotency_key")
	}
	// The longest key allowed is taken and replayed.
	long := strings.Repeat("k", 255)
	post(long, minimalDeal, "")
	if resp, _ := post(long, minimalDeal, ""); resp.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("key of 255 characters: repeat not replayed (status %d)", resp.StatusCode)
	}
}
