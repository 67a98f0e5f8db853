package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/internal/racecheck"
)

// TestSeatVerifiesDraws: the organizer commits to a seed, reveals it with
// the draw, and `revisor seat --draw` recomputes the published tables from
// the public inputs alone, for each format; a tampered draw or seed fails.
func TestSeatVerifiesDraws(t *testing.T) {
	t.Parallel()
	racecheck.OutOfRace(t) // the draw's search
	c := startE2E(t)
	for _, spec := range []string{
		`{"name": "Club", "format": "swiss", "rounds": 3, "games_per_round": 1}`,
		`{"name": "Ladder", "format": "swiss", "rounds": 3, "games_per_round": 1, "seating": "by_standings"}`,
		`{"name": "SM", "format": "sm", "games_per_round": 1}`,
	} {
		c.create(spec, 13)
		const seed = 424242
		sum := sha256.Sum256([]byte(fmt.Sprint(seed)))
		path := fmt.Sprintf("/tournaments/%s/rounds/", c.tid)
		c.must(201, nil, "POST", path+"1/commitment", c.org, map[string]string{"sha256": hex.EncodeToString(sum[:])})
		status, body := c.do("POST", path+"1/reveal", c.org, "application/json", []byte(`{"seed": 424243}`))
		if status != 422 || !bytes.Contains(body, []byte("seed_mismatch")) {
			t.Fatalf("reveal with the wrong seed = %d %s, want 422 seed_mismatch", status, body)
		}
		status, body = c.do("POST", path[:len(path)-1], c.org, "application/json", []byte(`{"seed": 1}`))
		if status != 422 {
			t.Fatalf("plain draw of a committed round with another seed = %d %s, want 422", status, body)
		}
		var r1 eRound
		c.must(201, &r1, "POST", path+"1/reveal", c.org, map[string]int{"seed": seed})
		c.play(r1, 1)
		c.close(1)
		r2 := c.draw()
		for _, n := range []int{1, 2} {
			file := drawFileOf(t, c, n)
			if n == 2 {
				file = fmt.Sprintf("%s/tournaments/%s/rounds/2/draw", c.base, c.tid) // read from the server
			}
			out, err := runSeatDraw(t, file)
			if err != nil || !strings.Contains(out, "verified") {
				t.Errorf("%s round %d: revisor seat --draw = %v\n%s", spec, n, err, out)
			}
			if n == 1 && !strings.Contains(out, "commitment: SHA-256") {
				t.Errorf("%s round 1: the commitment was not checked:\n%s", spec, out)
			}
		}
		tampered := drawFileOf(t, c, 2)
		swapFirstPlayers(t, tampered, r2)
		if out, err := runSeatDraw(t, tampered); err == nil {
			t.Errorf("%s: a tampered draw verifies:\n%s", spec, out)
		}
		badSeed := drawFileOf(t, c, 1)
		editJSON(t, badSeed, func(m map[string]any) { m["seed"] = seed + 1 })
		if out, err := runSeatDraw(t, badSeed); err == nil {
			t.Errorf("%s: a draw with another seed verifies:\n%s", spec, out)
		}
	}
}

// drawFileOf saves GET …/rounds/{n}/draw to a file and returns its path.
func drawFileOf(t *testing.T, c *e2e, n int) string {
	t.Helper()
	status, body := c.do("GET", fmt.Sprintf("/tournaments/%s/rounds/%d/draw", c.tid, n), "", "", nil)
	if status != 200 {
		t.Fatalf("GET draw %d = %d %s", n, status, body)
	}
	p := filepath.Join(t.TempDir(), "draw.json")
	if err := os.WriteFile(p, body, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func runSeatDraw(t *testing.T, file string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := run(context.Background(), []string{"seat", "--draw", file}, mapEnv{}.get, strings.NewReader(""), &out, io.Discard)
	return out.String(), err
}

func editJSON(t *testing.T, file string, edit func(map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// swapFirstPlayers claims the draw seated the first players of tables 1
// and 2 the other way round.
func swapFirstPlayers(t *testing.T, file string, r eRound) {
	t.Helper()
	if len(r.Tables) < 2 {
		t.Fatalf("round %d has %d tables, want 2 or more", r.Number, len(r.Tables))
	}
	editJSON(t, file, func(m map[string]any) {
		tables := m["tables"].([]any)
		a := tables[0].(map[string]any)["players"].([]any)
		b := tables[1].(map[string]any)["players"].([]any)
		a[0], b[0] = b[0], a[0]
	})
}
