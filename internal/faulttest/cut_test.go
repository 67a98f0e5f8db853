package faulttest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/sim"
	"github.com/revisor-sm/revisor/internal/loadgen"
)

// drawnRound is a drawn round with its tables' codes.
type drawnRound struct {
	Number int `json:"number"`
	Tables []struct {
		Number      int      `json:"number"`
		Players     []string `json:"players"`
		FirstDealer string   `json:"first_dealer"`
		Code        string   `json:"code"`
	} `json:"tables"`
}

func drawRound(t *testing.T, e *env, res *loadgen.Result, n int) *drawnRound {
	t.Helper()
	req, _ := http.NewRequest("POST", e.server.URL()+"/api/v1/tournaments/"+res.TournamentID+"/rounds", bytes.NewReader([]byte(`{"seed":5}`)))
	req.Header.Set("Authorization", "Bearer "+res.OrganizerToken)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var rd drawnRound
	if err := json.NewDecoder(resp.Body).Decode(&rd); err != nil || resp.StatusCode != http.StatusCreated || rd.Number != n {
		t.Fatalf("drawing round %d = %d %+v %v", n, resp.StatusCode, rd, err)
	}
	return &rd
}

// cutter plays tables whose every deal is first sent by clients that hang
// up: one in the middle of the body, one right after the request (without
// reading the answer); then sent in full with the abandoned request's
// Idempotency-Key.
type cutter struct {
	t     *testing.T
	base  string // …/api/v1/tournaments/{tid}
	plans map[loadgen.GameKey][]json.RawMessage
	cuts  int
}

func (c *cutter) table(ctx context.Context, tb struct {
	Number      int      `json:"number"`
	Players     []string `json:"players"`
	FirstDealer string   `json:"first_dealer"`
	Code        string   `json:"code"`
}) {
	c.t.Helper()
	if c.plans == nil {
		c.plans = map[loadgen.GameKey][]json.RawMessage{}
	}
	s := sim.NewWithOptions(uint64(tb.Number)+99, engine.SM(), sim.DefaultOptions())
	for g := 1; g <= 2; g++ {
		rec := validGame(c.t, s, tb.Players, engine.DealerOf(tb.Players, tb.FirstDealer, g-1))
		k := loadgen.GameKey{Round: 2, Table: tb.Number, Game: g}
		path := fmt.Sprintf("/rounds/2/tables/%d/games/%d/deals", tb.Number, g)
		for i, d := range rec.Deals {
			body, err := json.Marshal(d)
			if err != nil {
				c.t.Fatal(err)
			}
			c.plans[k] = append(c.plans[k], body)
			key := fmt.Sprintf("cut-%d-%d-%d-%s", tb.Number, g, i, randKey())
			c.hangUp(path, tb.Code, "", body, len(body)/2)
			c.hangUp(path, tb.Code, key, body, len(body))
			c.sendFull(ctx, path, tb.Code, key, body, i+1, i == len(rec.Deals)-1)
		}
	}
}

// validGame simulates a valid game that ends at the target.
func validGame(t *testing.T, s *sim.Sim, players []string, first string) *engine.GameRecord {
	t.Helper()
	for range 100 {
		rec := s.Game(players, first)
		res := engine.CheckGame(rec, engine.GameOptions{})
		if res.Valid && res.GameOver && rec.EndedBy != engine.EndedByTime {
			return s.SheetsOf(rec, 0.5)
		}
	}
	t.Fatal("the simulator made no valid game in 100 tries")
	return nil
}

// hangUp writes a POST over a raw connection, with the body's full length
// announced but only sent bytes of it sent, and closes the connection
// without reading the answer.
func (c *cutter) hangUp(path, token, key string, body []byte, sent int) {
	c.t.Helper()
	u, _ := url.Parse(c.base + path)
	conn, err := net.DialTimeout("tcp", u.Host, 5*time.Second)
	if err != nil {
		c.t.Fatal(err)
	}
	defer conn.Close()
	head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n",
		u.Path, u.Host, token, len(body))
	if key != "" {
		head += "Idempotency-Key: " + key + "\r\n"
	}
	if _, err := conn.Write(append([]byte(head+"\r\n"), body[:sent]...)); err != nil {
		c.t.Fatal(err)
	}
	c.cuts++
}

// sendFull sends the deal with key until it gets an answer that is not a
// retry-later, which must be 201 for deal number want.
func (c *cutter) sendFull(ctx context.Context, path, token, key string, body []byte, want int, last bool) {
	c.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		req, _ := http.NewRequestWithContext(ctx, "POST", c.base+path, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			c.t.Fatal(err)
		}
		var out struct {
			Deal     int    `json:"deal"`
			GameOver bool   `json:"game_over"`
			Code     string `json:"code"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		if resp.StatusCode == http.StatusConflict && out.Code == "idempotency_key_in_use" && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		if resp.StatusCode != http.StatusCreated || out.Deal != want || out.GameOver != last {
			c.t.Fatalf("POST %s after a hang-up = %d deal %d game over %v (code %q), want 201 deal %d game over %v",
				path, resp.StatusCode, out.Deal, out.GameOver, out.Code, want, last)
		}
		return
	}
}
