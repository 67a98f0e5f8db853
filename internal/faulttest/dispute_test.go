package faulttest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestServerKilledMidDisputes kills the server with SIGKILL while twelve
// tables open disputes, each with an Idempotency-Key of its own, restarts
// it, and lets the tables retry with the same keys: every dispute is
// stored exactly once, each acknowledged one under the id its answer gave.
// The key's claim, the dispute and the stored answer commit in one
// transaction (refereepg.Store.OpenDisputeKeyed); a server that died
// between the dispute's insert and its answer must not let the retry open
// it a second time.
func TestServerKilledMidDisputes(t *testing.T) {
	t.Parallel()
	// Claims of the killed server's requests go stale after 10 s, not 30 s.
	e := newEnv(t, "REVISOR_IDEMPOTENCY_STALE=10s")
	api := e.server.URL() + "/api/v1"
	var tour struct {
		ID    string `json:"id"`
		Token string `json:"organizer_token"`
	}
	mustCall(t, "POST", api+"/tournaments", adminToken, "application/json",
		`{"name": "Tvister", "format": "sm", "games_per_round": 2}`, http.StatusCreated, &tour)
	var players strings.Builder
	for i := range 48 {
		fmt.Fprintf(&players, "Spelare %d,Klubb %d\n", i+1, i%12+1)
	}
	mustCall(t, "POST", api+"/tournaments/"+tour.ID+"/players:import", tour.Token, "text/csv", players.String(), http.StatusCreated, nil)
	var round struct {
		Tables []struct {
			Number int    `json:"number"`
			Code   string `json:"code"`
		} `json:"tables"`
	}
	mustCall(t, "POST", api+"/tournaments/"+tour.ID+"/rounds", tour.Token, "application/json", `{"seed": 7}`, http.StatusCreated, &round)
	if len(round.Tables) != 12 {
		t.Fatalf("round 1 has %d tables, want 12", len(round.Tables))
	}

	// Each table opens four disputes on each of its two games, one after
	// another, retrying each with its key until it is answered 201 or
	// refused for good.
	const perGame = 4
	var sent, lost atomic.Int64 // requests sent; requests that got no answer
	type ack struct{ key, id string }
	var mu sync.Mutex
	var acks []ack
	var refused []string
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	for _, tb := range round.Tables {
		wg.Go(func() {
			for game := 1; game <= 2; game++ {
				for i := 1; i <= perGame; i++ {
					key := fmt.Sprintf("dispute-%d-%d-%d", tb.Number, game, i)
					body := fmt.Sprintf(`{"round": 1, "table": %d, "game": %d, "description": %q}`, tb.Number, game, key)
					id, err := openDispute(ctx, api+"/tournaments/"+tour.ID+"/disputes", tb.Code, key, body, &sent, &lost)
					mu.Lock()
					if err != nil {
						refused = append(refused, fmt.Sprintf("%s: %v", key, err))
					} else {
						acks = append(acks, ack{key, id})
					}
					mu.Unlock()
				}
			}
		})
	}
	// The kill, once a quarter of the disputes were sent.
	for sent.Load() < 24 {
		if ctx.Err() != nil {
			t.Fatalf("only %d disputes sent before the deadline", sent.Load())
		}
		time.Sleep(5 * time.Millisecond)
	}
	e.server.Kill()
	time.Sleep(300 * time.Millisecond)
	if err := e.server.Start(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	for _, r := range refused {
		t.Errorf("not opened: %s", r)
	}
	if lost.Load() == 0 {
		t.Errorf("no request went without an answer: the kill did not strike while disputes were sent")
	}

	// The database: one dispute a key (its description), each acknowledged
	// one under the id its answer gave.
	rows, err := e.pool.Query(context.Background(), `SELECT description, id::text FROM disputes WHERE tournament_id = $1`, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string][]string{}
	for rows.Next() {
		var desc, id string
		if err := rows.Scan(&desc, &id); err != nil {
			t.Fatal(err)
		}
		stored[desc] = append(stored[desc], id)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for key, ids := range stored {
		if len(ids) != 1 {
			t.Errorf("dispute %s is stored %d times (ids %v), want once", key, len(ids), ids)
		}
	}
	if want := 12 * 2 * perGame; len(stored) != want || len(acks) != want {
		t.Errorf("%d disputes stored and %d acknowledged, want %d of each", len(stored), len(acks), want)
	}
	for _, a := range acks {
		if ids := stored[a.key]; len(ids) == 0 || ids[0] != a.id {
			t.Errorf("dispute %s was acknowledged as %s, stored as %v", a.key, a.id, ids)
		}
	}
	t.Logf("%d disputes acknowledged, %d requests sent, %d without an answer", len(acks), sent.Load(), lost.Load())
}

// openDispute sends one dispute with its key until it is answered 201 (its
// id), retrying what has no answer, a 5xx and a 409 (the key still held by
// a request the killed server never finished) for up to 90 s.
func openDispute(ctx context.Context, url, code, key, body string, sent, lost *atomic.Int64) (string, error) {
	client := &http.Client{Timeout: 10 * time.Second}
	deadline := time.Now().Add(90 * time.Second)
	for {
		req, err := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(body))
		if err != nil {
			return "", err
		}
		req.Header.Set("Authorization", "Bearer "+code)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", key)
		sent.Add(1)
		resp, err := client.Do(req)
		if err == nil {
			var out struct {
				ID any `json:"id"`
			}
			var b bytes.Buffer
			_, _ = b.ReadFrom(resp.Body)
			resp.Body.Close()
			switch {
			case resp.StatusCode == http.StatusCreated:
				if err := json.Unmarshal(b.Bytes(), &out); err != nil || out.ID == nil {
					return "", fmt.Errorf("201 without an id: %s", b.Bytes())
				}
				return fmt.Sprint(out.ID), nil
			case resp.StatusCode != http.StatusConflict && resp.StatusCode < 500:
				return "", fmt.Errorf("status %d: %s", resp.StatusCode, b.Bytes())
			}
			err = fmt.Errorf("status %d: %s", resp.StatusCode, b.Bytes())
		} else {
			lost.Add(1)
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("still failing after 90 s: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// mustCall sends a request and wants the status; out, when not nil,
// receives the JSON answer.
func mustCall(t *testing.T, method, url, token, ctype, body string, want int, out any) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", ctype)
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	_, _ = b.ReadFrom(resp.Body)
	if resp.StatusCode != want {
		t.Fatalf("%s %s = %d %s, want %d", method, url, resp.StatusCode, b.Bytes(), want)
	}
	if out != nil {
		if err := json.Unmarshal(b.Bytes(), out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, url, err, b.Bytes())
		}
	}
}
