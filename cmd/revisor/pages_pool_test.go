package main

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// TestPagesDoNotWaitBehindWrites (issue 17): while results arrive, the
// public pages answered in 200-500 ms, for they waited for a database
// connection behind every write queued before them. Here the writes are
// held, deterministically: the test locks the round's row, so every game
// submission (which locks it shared) waits in the database holding one of
// the main pool's two connections, and more wait for a connection. A page
// must still answer, from the pages' own pool; with --page-conns 0 (the
// pages share the main pool, as before) it cannot, which shows the test
// sees the queue.
func TestPagesDoNotWaitBehindWrites(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		pageConns string
		answers   bool
	}{{"2", true}, {"0", false}} {
		t.Run("page-conns="+tc.pageConns, func(t *testing.T) {
			u := dbtest.NewURL(t)
			const admin = "pages-admin-token-0123456789"
			r := startRun(t, []string{"serve", "--addr", "127.0.0.1:0", "--page-conns", tc.pageConns},
				mapEnv{"DATABASE_URL": u + "&pool_max_conns=2", "REVISOR_ADMIN_TOKEN": admin})
			c := &e2e{t: t, base: r.url + "/api/v1", admin: admin}
			c.create(`{"name":"Pages","format":"swiss","rounds":2,"games_per_round":1}`, 16)
			round := c.draw()

			release := lockRound(t, u, c.tid)
			submitted := make(chan int, len(round.Tables))
			for _, tb := range round.Tables {
				go func() {
					rec := tournamenttest.SimGame(uint64(tb.Number), tb.Players, firstDealer(tb, 1), 0.5)
					path := fmt.Sprintf("/tournaments/%s/rounds/1/tables/%d/games/1", c.tid, tb.Number)
					status, _ := c.do("PUT", path, tb.Code, "application/json", rec)
					submitted <- status
				}()
			}
			waitLockWaiters(t, u, 2) // the main pool's every connection waits for the lock

			within := 10 * time.Second // the new pool answers in milliseconds; generous for a loaded machine
			if !tc.answers {
				within = 2 * time.Second
			}
			status, err := getWithin(r.url+"/t/"+c.tid+"/standings", within)
			if tc.answers && (err != nil || status != http.StatusOK) {
				t.Errorf("GET standings while the writes wait = %d, %v; want 200 at once (the pages' own pool)", status, err)
			}
			if !tc.answers && err == nil {
				t.Errorf("GET standings with the pages in the main pool = %d while its connections wait; want no answer (the test does not hold the writes)", status)
			}
			release()
			for range round.Tables {
				if s := <-submitted; s != http.StatusCreated {
					t.Errorf("a submission held by the lock = %d, want 201 once it is released", s)
				}
			}
		})
	}
}

// lockRound locks round 1 of tid for update in a transaction of its own
// and returns what ends it.
func lockRound(t *testing.T, u, tid string) (release func()) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `SELECT 1 FROM rounds WHERE tournament_id = $1 AND number = 1 FOR UPDATE`, tid); err != nil {
		t.Fatal(err)
	}
	done := false
	release = func() {
		if !done {
			done = true
			_ = tx.Rollback(ctx)
			_ = conn.Close(ctx)
		}
	}
	t.Cleanup(release) // before the server stops: it drains the held requests
	return release
}

// waitLockWaiters waits until n sessions of the database wait for a lock.
func waitLockWaiters(t *testing.T, u string, n int) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	deadline := time.Now().Add(30 * time.Second)
	for {
		var waiting int
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions wait for the round's lock after 30 s, want %d", waiting, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// getWithin GETs url and gives up after d.
func getWithin(url string, d time.Duration) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return 0, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}
