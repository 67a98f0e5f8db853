package faulttest_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
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
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(apiCall(ctx, "POST", api+"/tournaments", adminToken, "dispute-create", "application/json",
		`{"name": "Tvister", "format": "sm", "games_per_round": 2}`, &tour))
	var players strings.Builder
	for i := range 48 {
		fmt.Fprintf(&players, "Spelare %d,Klubb %d\n", i+1, i%12+1)
	}
	must(apiCall(ctx, "POST", api+"/tournaments/"+tour.ID+"/players:import", tour.Token, "dispute-players", "text/csv", players.String(), nil))
	var round struct {
		Tables []struct {
			Number int    `json:"number"`
			Code   string `json:"code"`
		} `json:"tables"`
	}
	must(apiCall(ctx, "POST", api+"/tournaments/"+tour.ID+"/rounds", tour.Token, "dispute-draw", "application/json", `{"seed": 7}`, &round))
	if len(round.Tables) != 12 {
		t.Fatalf("round 1 has %d tables, want 12", len(round.Tables))
	}

	// Each table opens four disputes on each of its two games, one after
	// another, retrying each with its key (apiCall) until it is answered
	// or refused for good.
	const perGame = 4
	var calls callCount
	type ack struct{ key, id string }
	var mu sync.Mutex
	var acks []ack
	var refused []string
	var wg sync.WaitGroup
	for _, tb := range round.Tables {
		wg.Go(func() {
			for game := 1; game <= 2; game++ {
				for i := 1; i <= perGame; i++ {
					key := fmt.Sprintf("dispute-%d-%d-%d", tb.Number, game, i)
					body := fmt.Sprintf(`{"round": 1, "table": %d, "game": %d, "description": %q}`, tb.Number, game, key)
					var d struct {
						ID any `json:"id"`
					}
					err := countedCall(ctx, &calls, "POST", api+"/tournaments/"+tour.ID+"/disputes", tb.Code, key, "application/json", body, &d)
					mu.Lock()
					if err == nil && d.ID == nil {
						err = fmt.Errorf("answered without an id")
					}
					if err != nil {
						refused = append(refused, fmt.Sprintf("%s: %v", key, err))
					} else {
						acks = append(acks, ack{key, fmt.Sprint(d.ID)})
					}
					mu.Unlock()
				}
			}
		})
	}
	// The kill, once a quarter of the disputes were sent.
	for calls.sent.Load() < 24 {
		if ctx.Err() != nil {
			t.Fatalf("only %d disputes sent before the deadline", calls.sent.Load())
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
	if calls.lost.Load() == 0 {
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
	t.Logf("%d disputes acknowledged, %d requests sent, %d without an answer", len(acks), calls.sent.Load(), calls.lost.Load())
}
