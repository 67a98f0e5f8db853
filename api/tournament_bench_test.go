package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/internal/servertest"
	"github.com/revisor-sm/revisor/server"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/postgres"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// BenchmarkSubmitGameHTTP submits simulated score-sheet games through the
// HTTP API into the real database from 100 concurrent clients (closed
// loop), each game once with its table's code. ns/op is wall time per
// submission at that concurrency (throughput), not latency.
func BenchmarkSubmitGameHTTP(b *testing.B) {
	pool := dbtest.New(b)
	svc := tournament.NewService(postgres.NewStore(pool))
	plays := play.New(svc, postgres.NewStore(pool))
	srv, err := server.New(api.Config{AdminTokenHash: api.HashToken(adminToken)}, servertest.Complete(server.Deps{Tournaments: svc, Play: plays, Tokens: api.NewTokenResolver(svc)}))
	if err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 100}}
	send := func(method, path, token, ct string, body []byte, out any) int {
		req, _ := http.NewRequest(method, hs.URL+path, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", ct)
		resp, err := client.Do(req)
		if err != nil {
			panic(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if out != nil {
			_ = json.Unmarshal(b, out)
		}
		return resp.StatusCode
	}
	var tt tTournament
	send("POST", "/api/v1/tournaments", adminToken, "application/json", []byte(`{"name":"b","format":"swiss","rounds":1,"games_per_round":20}`), &tt)
	var csv strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&csv, "P%d,C\n", i)
	}
	send("POST", "/api/v1/tournaments/"+tt.ID+"/players:import", tt.OrganizerToken, "text/csv", []byte(csv.String()), nil)
	var r tRound
	send("POST", "/api/v1/tournaments/"+tt.ID+"/rounds", tt.OrganizerToken, "application/json", []byte(`{"seed":1}`), &r)
	type job struct {
		path, code string
		rec        []byte
	}
	var jobs []job
	for g := 1; g <= 20 && len(jobs) < b.N; g++ {
		for _, tb := range r.Tables {
			if len(jobs) < b.N {
				rec := tournamenttest.SimGame(uint64(len(jobs)), tb.Players, firstDealerOf(tb, g), 1)
				jobs = append(jobs, job{gamePath(tt.ID, 1, tb.Number, g), tb.Code, rec})
			}
		}
	}
	if len(jobs) < b.N {
		b.Skipf("only %d games for b.N = %d", len(jobs), b.N)
	}
	var next, failed atomic.Int64
	b.SetParallelism(50) // 100 clients on 2 cores
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			j := jobs[next.Add(1)-1]
			if send("PUT", j.path, j.code, "application/json", j.rec, nil) != 201 {
				failed.Add(1)
			}
		}
	})
	if failed.Load() > 0 {
		b.Fatalf("%d submissions failed", failed.Load())
	}
}
