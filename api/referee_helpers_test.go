package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/sim"
	"github.com/revisor-sm/revisor/internal/assemble"
	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/tournament/postgres"
)

// testClock is a clock the test moves.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// refServer is a server with the tournament and referee services on a
// fresh database, a clock the test moves, and the application's pool.
type refServer struct {
	*testServer
	pool  *pgxpool.Pool
	clock *testClock
}

func startRefereeServer(t *testing.T) *refServer {
	t.Helper()
	pool := dbtest.New(t)
	clock := &testClock{now: time.Date(2026, 5, 16, 9, 0, 0, 0, time.UTC)}
	deps := assemble.Services(pool, assemble.Options{Now: clock.Now, Keys: postgres.NewIdempotency(pool, time.Hour, time.Minute)})
	s := startServer(t, api.Config{AdminTokenHash: api.HashToken(adminToken)}, deps)
	return &refServer{testServer: s, pool: pool, clock: clock}
}

// Client-side views of the referee answers.
type (
	tReferee struct {
		ID        string  `json:"id"`
		Name      string  `json:"name"`
		Token     string  `json:"token"`
		RevokedAt *string `json:"revoked_at"`
	}
	tActor struct {
		Role  string `json:"role"`
		Token string `json:"token"`
	}
	tVerdict struct {
		Kind   string            `json:"kind"`
		Result engine.GameResult `json:"result"`
	}
	tRuling struct {
		ID           string   `json:"id"`
		Decision     string   `json:"decision"`
		Reason       string   `json:"reason"`
		CorrectionID *string  `json:"correction_id"`
		Disqualified []string `json:"disqualified"`
		Adjustments  []struct {
			Player string `json:"player"`
			Points int    `json:"points"`
			Scale  string `json:"scale"`
		} `json:"adjustments"`
		RuledBy tActor `json:"ruled_by"`
	}
	tDispute struct {
		ID          string    `json:"id"`
		Round       int       `json:"round"`
		Table       int       `json:"table"`
		Game        int       `json:"game"`
		Description string    `json:"description"`
		Status      string    `json:"status"`
		OpenedBy    tActor    `json:"opened_by"`
		ResultID    *string   `json:"result_id"`
		Verdict     *tVerdict `json:"verdict"`
		Ruling      *tRuling  `json:"ruling"`
	}
	tRulingAnswer struct {
		Ruling      tRuling          `json:"ruling"`
		Correction  *json.RawMessage `json:"correction"`
		Advancement string           `json:"advancement"`
		Standings   []tStanding      `json:"standings"`
	}
	tAuditEntry struct {
		ID        string          `json:"id"`
		Actor     tActor          `json:"actor"`
		Kind      string          `json:"kind"`
		Subject   string          `json:"subject"`
		Operation string          `json:"operation"`
		Round     *int            `json:"round"`
		Table     *int            `json:"table"`
		Players   []string        `json:"players"`
		Reason    string          `json:"reason"`
		Before    json.RawMessage `json:"before"`
		After     json.RawMessage `json:"after"`
	}
	tAudit struct {
		Entries []tAuditEntry `json:"entries"`
		Next    *string       `json:"next"`
	}
	tWindow struct {
		Minutes     int     `json:"correction_minutes"`
		Status      string  `json:"status"`
		ClosedAt    *string `json:"closed_at"`
		ClosesAt    *string `json:"closes_at"`
		SecondsLeft int64   `json:"seconds_left"`
		Reopened    bool    `json:"reopened"`
		Results     []struct {
			Table, Game  int
			Status       string `json:"status"`
			OpenDisputes int    `json:"open_disputes"`
		} `json:"results"`
	}
)

func (s *refServer) newReferee(t *testing.T, tt tTournament, name string) tReferee {
	t.Helper()
	var r tReferee
	s.must(t, http.StatusCreated, &r, "POST", "/api/v1/tournaments/"+tt.ID+"/referees", tt.OrganizerToken, map[string]string{"name": name})
	return r
}

func (s *refServer) audit(t *testing.T, tid, token, query string) tAudit {
	t.Helper()
	var a tAudit
	s.must(t, http.StatusOK, &a, "GET", "/api/v1/tournaments/"+tid+"/audit"+query, token, nil)
	return a
}

// cleanGame is a legal simulated game without violations.
func cleanGame(t *testing.T, players []string, dealer string) []byte {
	t.Helper()
	for seed := uint64(1); seed < 200; seed++ {
		g := sim.New(seed, engine.SM()).Game(players, dealer)
		res := engine.CheckGame(g, engine.GameOptions{})
		if res.Valid && len(res.Violations) == 0 {
			return mustJSON(t, g)
		}
	}
	t.Fatal("no clean simulated game in 200 seeds")
	return nil
}

// brokenGame is a legal simulated game in which one player broke a
// combination without showing it (and did not bluff) and exactly one other
// player made a false announcement: penalized and bluffer.
func brokenGame(t *testing.T, players []string, dealer string) (record []byte, penalized, bluffer string) {
	t.Helper()
	opt := sim.DefaultOptions()
	opt.Bluff, opt.UnshownBreak = 0.01, 0.5
	for seed := uint64(1); seed < 2000; seed++ {
		g := sim.NewWithOptions(seed, engine.SM(), opt).Game(players, dealer)
		res := engine.CheckGame(g, engine.GameOptions{})
		if !res.Valid || len(res.Forfeits) != 1 {
			continue
		}
		for _, v := range res.Violations {
			if v.Code == "unshown_break" && !slices.Contains(res.Forfeits, v.Player) {
				return mustJSON(t, g), v.Player, res.Forfeits[0]
			}
		}
	}
	t.Fatal("no simulated game with one bluffer and an unshown break in 2000 seeds")
	return nil, "", ""
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// standingOf returns a player's row.
func standingOf(t *testing.T, rows []tStanding, player string) tStanding {
	t.Helper()
	for _, r := range rows {
		if r.Player == player {
			return r
		}
	}
	t.Fatalf("no standings row for %s", player)
	return tStanding{}
}

func disputesPath(tid string) string { return fmt.Sprintf("/api/v1/tournaments/%s/disputes", tid) }
