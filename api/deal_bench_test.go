package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/internal/servertest"
	"github.com/revisor-sm/revisor/server"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/postgres"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// The deal path (issue 17), step by step: the engine's steps are
// BenchmarkDecodeGameDeal and BenchmarkNextDeal (engine), the
// canonical form of the deal BenchmarkCanonicalDeal (tournament), the
// service with its store BenchmarkAppendDeal (tournament/postgres). Here:
// the request as the server handles it.
//
//   - BenchmarkAppendDealHandler: POST …/deals?deal=n with a table code and
//     an Idempotency-Key through the whole router (request ID, access log
//     as JSON, metrics, recover, security headers, input checks, body
//     limit, idempotency, the code's authentication, the handler, the
//     answer), over an in-memory store and idempotency store and without
//     the network: the server's own CPU per deal.
//   - BenchmarkAppendDealHTTP: the same request over loopback HTTP into
//     PostgreSQL (real idempotency store), one client: the whole request.
//
// Deals are simulated games' entries (half score-sheet lines, half full
// deals) sent in order, the last deal of each game making its result.

// dealJob is one deal request: its path with ?deal=n, the table's code and
// the body.
type dealJob struct {
	path, code string
	body       []byte
}

// dealJobs draws round 1 of a 400-player tournament of 20 games a round
// and returns up to n deal requests, game after game, and the tournament.
func dealJobs(b *testing.B, svc *tournament.Service, plays *play.Service, n int) []dealJob {
	b.Helper()
	ctx := context.Background()
	admin, org := tournament.Actor{Role: tournament.RoleAdmin}, tournament.Actor{Role: tournament.RoleOrganizer}
	rounds, games := 1, 20
	c, err := svc.CreateTournament(ctx, admin, tournament.NewTournament{Name: "Bench", Format: tournament.FormatSwiss,
		Rounds: &rounds, GamesPerRound: &games})
	if err != nil {
		b.Fatal(err)
	}
	tid := c.Tournament.ID
	ps := make([]tournament.NewPlayer, 400)
	for i := range ps {
		ps[i] = tournament.NewPlayer{Name: fmt.Sprintf("Player %d", i+1), Club: fmt.Sprintf("Club %d", i%7)}
	}
	if _, err := svc.AddPlayers(ctx, org, tid, ps); err != nil {
		b.Fatal(err)
	}
	seed := int64(1)
	r, err := plays.DrawRound(ctx, org, tid, &seed)
	if err != nil {
		b.Fatal(err)
	}
	codes, err := plays.TableCodes(ctx, org, tid, 1)
	if err != nil {
		b.Fatal(err)
	}
	var jobs []dealJob
	for g := 1; g <= games && len(jobs) < n; g++ {
		for _, tb := range r.Tables {
			var rec struct{ Deals []json.RawMessage }
			if err := json.Unmarshal(tournamenttest.SimGame(uint64(len(jobs)), tb.Players, tb.FirstDealerOf(g), 0.5), &rec); err != nil {
				b.Fatal(err)
			}
			for i, d := range rec.Deals {
				jobs = append(jobs, dealJob{gamePath(tid, 1, tb.Number, g) + "/deals?deal=" + strconv.Itoa(i+1), codes[tb.Number], d})
			}
			if len(jobs) >= n {
				break
			}
		}
	}
	if len(jobs) < n {
		b.Skipf("only %d deals for b.N = %d", len(jobs), n)
	}
	return jobs[:n]
}

// dealRequest is the request of a job, as a table's phone sends it.
func dealRequest(url string, i int, j dealJob) *http.Request {
	req, err := http.NewRequest(http.MethodPost, url+j.path, bytes.NewReader(j.body))
	if err != nil {
		panic(err)
	}
	req.Header.Set("Authorization", "Bearer "+j.code)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", "bench-"+strconv.Itoa(i))
	req.Header.Set("User-Agent", "revisor-bench")
	return req
}

func BenchmarkAppendDealHandler(b *testing.B) {
	mem := tournamenttest.NewMemStore()
	svc := tournament.NewService(mem)
	plays := play.New(svc, mem)
	srv, err := server.New(api.Config{Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))},
		servertest.Complete(server.Deps{Tournaments: svc, Play: plays, Tokens: api.NewTokenResolver(svc), Idempotency: newMemIdempotency()}))
	if err != nil {
		b.Fatal(err)
	}
	jobs := dealJobs(b, svc, plays, b.N)
	reqs := make([]*http.Request, len(jobs))
	for i, j := range jobs {
		reqs[i] = dealRequest("", i, j)
		reqs[i].RemoteAddr = "192.0.2.1:1234"
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, reqs[i])
		if rec.Code != http.StatusCreated {
			b.Fatalf("deal %d: status %d: %s", i, rec.Code, rec.Body)
		}
	}
}

func BenchmarkAppendDealHTTP(b *testing.B) {
	pool := dbtest.New(b)
	svc := tournament.NewService(postgres.NewStore(pool))
	plays := play.New(svc, postgres.NewStore(pool))
	srv, err := server.New(api.Config{Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))},
		servertest.Complete(server.Deps{Tournaments: svc, Play: plays, Tokens: api.NewTokenResolver(svc),
			Idempotency: postgres.NewIdempotency(pool, time.Hour, time.Minute)}))
	if err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	jobs := dealJobs(b, svc, plays, b.N)
	client := hs.Client()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		resp, err := client.Do(dealRequest(hs.URL, i, jobs[i]))
		if err != nil {
			b.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			b.Fatalf("deal %d: status %d: %s", i, resp.StatusCode, body)
		}
	}
}

// memIdempotency is an idempotency store in memory, for benchmarks of the
// server's own work.
type memIdempotency struct {
	mu   sync.Mutex
	keys map[string][]byte // scope+key → stored answer (nil while claimed)
}

func newMemIdempotency() *memIdempotency { return &memIdempotency{keys: map[string][]byte{}} }

func (m *memIdempotency) Claim(_ context.Context, scope, key string, _ []byte) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if stored, ok := m.keys[scope+"\x00"+key]; ok {
		if stored == nil {
			return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeIdempotencyKeyInUse, "in use")
		}
		return stored, nil
	}
	m.keys[scope+"\x00"+key] = nil
	return nil, nil
}

func (m *memIdempotency) Complete(_ context.Context, scope, key string, response []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.keys[scope+"\x00"+key] = response
	return nil
}

func (m *memIdempotency) Release(_ context.Context, scope, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.keys, scope+"\x00"+key)
	return nil
}

func (m *memIdempotency) Renew(context.Context, string, string) error { return nil }
