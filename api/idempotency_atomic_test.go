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
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/postgres"
)

// dyingKeys is the idempotency store of a server that dies, the first
// `dies` times, after the command's writes and before its transaction
// commits (the context of the transaction is cancelled there).
type dyingKeys struct {
	*postgres.Idempotency
	dies atomic.Int32
}

func (d *dyingKeys) Atomically(ctx context.Context, scope, key string, fp []byte,
	run func(context.Context) ([]byte, bool)) ([]byte, error, error) {
	if d.dies.Add(-1) < 0 {
		return d.Idempotency.Atomically(ctx, scope, key, fp, run)
	}
	dying, die := context.WithCancel(ctx)
	defer die()
	return d.Idempotency.Atomically(dying, scope, key, fp, func(ctx context.Context) ([]byte, bool) {
		a, keep := run(ctx)
		die()
		return a, keep
	})
}

// TestIdempotentWriteCommitsWithItsAnswer: a write sent with an
// Idempotency-Key commits with the key's claim and its answer, and its
// answer is sent only once they have committed. A server that dies
// before the commit answers a server error and keeps nothing (before: the
// tournament was created, the client told 201, and the key left claimed
// without an answer); the retry creates the tournament once, and the key
// sent again replays it.
func TestIdempotentWriteCommitsWithItsAnswer(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	svc := tournament.NewService(postgres.NewStore(pool))
	keys := &dyingKeys{Idempotency: postgres.NewIdempotency(pool, time.Hour, time.Minute)}
	keys.dies.Store(1)
	s := startServer(t, api.Config{AdminTokenHash: api.HashToken(adminToken)}, server.Deps{Tournaments: svc,
		Play: play.New(svc, postgres.NewStore(pool)), Tokens: api.NewTokenResolver(svc), Idempotency: keys})
	post := func() (*http.Response, []byte) {
		return s.do(t, request{method: "POST", path: "/api/v1/tournaments", contentType: "application/json",
			body:   strings.NewReader(`{"name":"Klubbkväll","format":"swiss","rounds":1}`),
			header: map[string]string{"Idempotency-Key": "night-1", "Authorization": "Bearer " + adminToken}})
	}
	tournaments := func() int {
		var n int
		if err := pool.QueryRow(t.Context(), `SELECT count(*) FROM tournaments`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if resp, body := post(); resp.StatusCode < 500 || tournaments() != 0 {
		t.Fatalf("the server dead before its commit answered %d %s, %d tournaments; want a server error and none", resp.StatusCode, body, tournaments())
	}
	first, firstBody := post()
	if first.StatusCode != http.StatusCreated || tournaments() != 1 {
		t.Fatalf("the retry answered %d %s, %d tournaments; want 201 and one", first.StatusCode, firstBody, tournaments())
	}
	again, againBody := post()
	if again.StatusCode != http.StatusCreated || again.Header.Get("Idempotent-Replayed") != "true" || string(againBody) != string(firstBody) || tournaments() != 1 {
		t.Errorf("sent again: %d replayed %q, %d tournaments; want the first answer replayed and one tournament",
			again.StatusCode, again.Header.Get("Idempotent-Replayed"), tournaments())
	}
}
