package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// e2e is a client of a real `revisor serve` for end-to-end tests.
type e2e struct {
	t          *testing.T
	base       string
	admin, org string
	tid        string
	seed       uint64 // for simulated games
}

func startE2E(t *testing.T) *e2e {
	t.Helper()
	const admin = "e2e-admin-token-0123456789"
	r := startRun(t, []string{"serve", "--addr", "127.0.0.1:0"}, mapEnv{"DATABASE_URL": dbtest.NewURL(t), "REVISOR_ADMIN_TOKEN": admin})
	return &e2e{t: t, base: r.url + "/api/v1", admin: admin}
}

// do sends a request and returns the status and body.
func (c *e2e) do(method, path, token, ct string, body []byte) (int, []byte) {
	c.t.Helper()
	req, err := http.NewRequest(method, c.base+path, bytes.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", ct)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// must sends JSON (or nothing) and decodes the answer, failing unless the
// status is want.
func (c *e2e) must(want int, out any, method, path, token string, body any) {
	c.t.Helper()
	var b []byte
	switch v := body.(type) {
	case nil:
	case []byte:
		b = v
	default:
		b, _ = json.Marshal(v)
	}
	status, got := c.do(method, path, token, "application/json", b)
	if status != want {
		c.t.Fatalf("%s %s = %d %s, want %d", method, path, status, got, want)
	}
	if out != nil {
		if err := json.Unmarshal(got, out); err != nil {
			c.t.Fatalf("%s %s: %v", method, path, err)
		}
	}
}

type (
	eTable struct {
		Number      int      `json:"number"`
		Players     []string `json:"players"`
		FirstDealer string   `json:"first_dealer"`
		Code        string   `json:"code"`
	}
	eRound struct {
		Number  int       `json:"number"`
		Final   bool      `json:"final"`
		Seed    int64     `json:"seed"`
		Tables  []eTable  `json:"tables"`
		Results []eResult `json:"results"`
	}
	eResult struct {
		Table  int `json:"table"`
		Game   int `json:"game"`
		Places []struct {
			Player          string `json:"player"`
			Place           int    `json:"place"`
			Score           int    `json:"score"`
			PlacementPoints int    `json:"placement_points"`
		} `json:"places"`
	}
	eClose struct {
		Outcomes []struct {
			Table    int    `json:"table"`
			Player   string `json:"player"`
			Advanced bool   `json:"advanced"`
		} `json:"outcomes"`
		Eliminated       []string `json:"eliminated"`
		TournamentStatus string   `json:"tournament_status"`
		Champion         string   `json:"champion"`
	}
	eStanding struct {
		Rank            int    `json:"rank"`
		Player          string `json:"player"`
		PlacementPoints int    `json:"placement_points"`
		GamePoints      int    `json:"game_points"`
		GamesPlayed     int    `json:"games_played"`
		GamesWon        int    `json:"games_won"`
		BestGame        int    `json:"best_game"`
		Status          string `json:"status"`
		RoundReached    int    `json:"round_reached"`
		RoundPoints     int    `json:"round_points"`
		Champion        bool   `json:"champion"`
	}
)

// create makes a tournament and registers n players by CSV import.
func (c *e2e) create(spec string, n int) {
	c.t.Helper()
	var out struct {
		ID    string `json:"id"`
		Token string `json:"organizer_token"`
	}
	c.must(201, &out, "POST", "/tournaments", c.admin, []byte(spec))
	c.tid, c.org = out.ID, out.Token
	if n == 0 {
		return
	}
	var csv strings.Builder
	csv.WriteString("name,club\n")
	for i := range n {
		fmt.Fprintf(&csv, "Spelare %d,Klubb %c\n", i+1, 'A'+i%4)
	}
	status, body := c.do("POST", "/tournaments/"+c.tid+"/players:import", c.org, "text/csv", []byte(csv.String()))
	if status != 201 {
		c.t.Fatalf("import = %d %s", status, body)
	}
}

func (c *e2e) draw() eRound {
	c.t.Helper()
	var r eRound
	c.must(201, &r, "POST", "/tournaments/"+c.tid+"/rounds", c.org, nil)
	return r
}

func firstDealer(tb eTable, g int) string {
	i := slices.Index(tb.Players, tb.FirstDealer)
	return tb.Players[(i+g-1)%len(tb.Players)]
}

// play submits every game of round r with the table's code: simulated
// games, alternately as whole records and deal by deal.
func (c *e2e) play(r eRound, games int) {
	c.t.Helper()
	for _, tb := range r.Tables {
		for g := 1; g <= games; g++ {
			c.seed++
			rec := tournamenttest.SimGame(c.seed, tb.Players, firstDealer(tb, g), 0.5)
			path := fmt.Sprintf("/tournaments/%s/rounds/%d/tables/%d/games/%d", c.tid, r.Number, tb.Number, g)
			if (tb.Number+g)%2 == 0 || !endsByTarget(rec) {
				c.must(201, nil, "PUT", path, tb.Code, rec)
				continue
			}
			deals := tournamenttest.DealOf(rec)
			for k, d := range deals {
				var p struct {
					GameOver bool `json:"game_over"`
				}
				c.must(201, &p, "POST", path+"/deals", tb.Code, d)
				if p.GameOver != (k == len(deals)-1) {
					c.t.Fatalf("%s deal %d: game_over = %v", path, k+1, p.GameOver)
				}
			}
		}
	}
}

func endsByTarget(rec []byte) bool { return !bytes.Contains(rec, []byte(`"ended_by":"time"`)) }

func (c *e2e) close(n int) eClose {
	c.t.Helper()
	var out eClose
	c.must(200, &out, "POST", fmt.Sprintf("/tournaments/%s/rounds/%d/close?accept_unconfirmed=true", c.tid, n), c.org, nil)
	return out
}

func (c *e2e) round(n int) eRound {
	c.t.Helper()
	var r eRound
	c.must(200, &r, "GET", fmt.Sprintf("/tournaments/%s/rounds/%d", c.tid, n), "", nil)
	return r
}

func (c *e2e) standings() []eStanding {
	c.t.Helper()
	var s struct{ Rows []eStanding }
	c.must(200, &s, "GET", "/tournaments/"+c.tid+"/standings", "", nil)
	return s.Rows
}

func tableSizes(r eRound) []int {
	var out []int
	for _, t := range r.Tables {
		out = append(out, len(t.Players))
	}
	return out
}

// roundKey is what ranks a player's round: placement points, game points,
// games won, best game.
type roundKey [4]int

func (k roundKey) less(o roundKey) bool { return slices.Compare(k[:], o[:]) < 0 }

func roundKeys(r eRound) map[string]roundKey {
	m := map[string]roundKey{}
	for _, res := range r.Results {
		for _, p := range res.Places {
			k := m[p.Player]
			k[0] += p.PlacementPoints
			k[1] += p.Score
			if p.Place == 1 {
				k[2]++
			}
			k[3] = max(k[3], p.Score)
			m[p.Player] = k
		}
	}
	return m
}

// checkAdvancement: at each table, everyone who advanced had a round at
// least as good as everyone who did not (equal only when the lot decided).
func (c *e2e) checkAdvancement(r eRound, ch eClose, perTable int) []string {
	c.t.Helper()
	keys := roundKeys(r)
	var adv []string
	for _, tb := range r.Tables {
		var in, out []string
		for _, o := range ch.Outcomes {
			if o.Table != tb.Number {
				continue
			}
			if o.Advanced {
				in = append(in, o.Player)
			} else {
				out = append(out, o.Player)
			}
		}
		if len(in) != perTable {
			c.t.Errorf("round %d table %d: %d advanced, want %d", r.Number, tb.Number, len(in), perTable)
		}
		for _, a := range in {
			for _, b := range out {
				if keys[a].less(keys[b]) {
					c.t.Errorf("round %d table %d: %s advanced with %v over %s with %v", r.Number, tb.Number, a, keys[a], b, keys[b])
				}
			}
		}
		adv = append(adv, in...)
	}
	return adv
}

// TestE2ESM13 runs an sm tournament of 13 players from registration to the
// champion: 4+3+3+3, then two tables of 4, then the final.
func TestE2ESM13(t *testing.T) {
	t.Parallel()
	c := startE2E(t)
	c.create(`{"name": "Chicago-SM 2026", "format": "sm"}`, 13)
	r1 := c.draw()
	if got := tableSizes(r1); !slices.Equal(got, []int{4, 3, 3, 3}) || r1.Final {
		t.Fatalf("round 1 tables %v final %v, want [4 3 3 3]", got, r1.Final)
	}
	c.play(r1, 3)
	ch := c.close(1)
	adv1 := c.checkAdvancement(c.round(1), ch, 2)
	if len(adv1) != 8 || len(ch.Eliminated) != 5 {
		t.Fatalf("round 1: %d advanced, %d eliminated; want 8, 5", len(adv1), len(ch.Eliminated))
	}
	r2 := c.draw()
	if got := tableSizes(r2); !slices.Equal(got, []int{4, 4}) || r2.Final {
		t.Fatalf("round 2 tables %v final %v, want [4 4]", got, r2.Final)
	}
	for _, tb := range r2.Tables {
		for _, p := range tb.Players {
			if !slices.Contains(adv1, p) {
				t.Errorf("round 2 seats %s, who did not advance", p)
			}
		}
	}
	c.play(r2, 3)
	adv2 := c.checkAdvancement(c.round(2), c.close(2), 2)
	r3 := c.draw()
	if got := tableSizes(r3); !slices.Equal(got, []int{4}) || !r3.Final {
		t.Fatalf("round 3 tables %v final %v, want the final table of 4", got, r3.Final)
	}
	slices.Sort(adv2)
	finalists := slices.Sorted(slices.Values(r3.Tables[0].Players))
	if !slices.Equal(adv2, finalists) {
		t.Errorf("finalists %v, want the advancing %v", finalists, adv2)
	}
	c.play(r3, 3)
	final := c.close(3)
	champ := c.checkAdvancement(c.round(3), final, 1)
	if final.TournamentStatus != "finished" || final.Champion == "" || champ[0] != final.Champion {
		t.Fatalf("final close = %+v, want finished with the champion", final)
	}
	var tt struct{ Status, Champion string }
	c.must(200, &tt, "GET", "/tournaments/"+c.tid, "", nil)
	rows := c.standings()
	if tt.Status != "finished" || tt.Champion != final.Champion || rows[0].Player != final.Champion || !rows[0].Champion || rows[0].Rank != 1 {
		t.Errorf("tournament %+v, standings head %+v; want finished, champion %s first", tt, rows[0], final.Champion)
	}
	for i, row := range rows {
		if (i < 4 && row.RoundReached != 3) || (i >= 4 && i < 8 && row.RoundReached != 2) || (i >= 8 && row.RoundReached != 1) {
			t.Errorf("standings row %d %s reached round %d", i+1, row.Player, row.RoundReached)
		}
		if i >= 4 && row.Status != "eliminated" {
			t.Errorf("row %d %s status %s, want eliminated", i+1, row.Player, row.Status)
		}
	}
	status, _ := c.do("POST", "/tournaments/"+c.tid+"/rounds", c.org, "application/json", nil)
	if status != 409 {
		t.Errorf("drawing after the final = %d, want 409", status)
	}
}

// TestE2ESwiss16 runs a Swiss tournament of 16 players over 5 rounds: the
// seating has no repeat meeting, and the standings equal a recomputation
// from the round results.
func TestE2ESwiss16(t *testing.T) {
	t.Parallel()
	c := startE2E(t)
	c.create(`{"name": "Klubbkväll", "format": "swiss", "rounds": 5}`, 16)
	met := map[[2]string]int{}
	totals := map[string]*eStanding{}
	for n := 1; n <= 5; n++ {
		r := c.draw()
		if got := tableSizes(r); !slices.Equal(got, []int{4, 4, 4, 4}) {
			t.Fatalf("round %d tables %v, want four of 4", n, got)
		}
		for _, tb := range r.Tables {
			for i, a := range tb.Players {
				for _, b := range tb.Players[i+1:] {
					met[[2]string{min(a, b), max(a, b)}]++
				}
			}
		}
		c.play(r, 3)
		ch := c.close(n)
		if want := map[bool]string{true: "finished", false: "running"}[n == 5]; ch.TournamentStatus != want {
			t.Errorf("after round %d status %s, want %s", n, ch.TournamentStatus, want)
		}
		for _, res := range c.round(n).Results {
			for _, p := range res.Places {
				s := totals[p.Player]
				if s == nil {
					s = &eStanding{Player: p.Player}
					totals[p.Player] = s
				}
				s.PlacementPoints += p.PlacementPoints
				s.GamePoints += p.Score
				s.GamesPlayed++
				if p.Place == 1 {
					s.GamesWon++
				}
				s.BestGame = max(s.BestGame, p.Score)
			}
		}
	}
	for pair, k := range met {
		if k > 1 {
			t.Errorf("%v met %d times", pair, k)
		}
	}
	rows := c.standings()
	if len(rows) != 16 {
		t.Fatalf("%d standings rows, want 16", len(rows))
	}
	for i, row := range rows {
		want := totals[row.Player]
		if row.PlacementPoints != want.PlacementPoints || row.GamePoints != want.GamePoints || row.GamesPlayed != 15 ||
			row.GamesWon != want.GamesWon || row.BestGame != want.BestGame {
			t.Errorf("standings %s = %+v, recomputed %+v", row.Player, row, *want)
		}
		if i == 0 {
			continue
		}
		prev := rows[i-1]
		pk := roundKey{prev.PlacementPoints, prev.GamePoints, prev.GamesWon, prev.BestGame}
		k := roundKey{row.PlacementPoints, row.GamePoints, row.GamesWon, row.BestGame}
		if pk.less(k) || (pk == k) != (prev.Rank == row.Rank) || (pk != k && row.Rank != i+1) {
			t.Errorf("rows %d and %d out of order: %+v then %+v", i, i+1, prev, row)
		}
	}
	status, body := c.do("GET", "/tournaments/"+c.tid+"/standings?format=csv", "", "", nil)
	if status != 200 || strings.Count(string(body), "\n") != 17 {
		t.Errorf("CSV standings = %d with %d lines, want 200 with 17", status, strings.Count(string(body), "\n"))
	}
}
