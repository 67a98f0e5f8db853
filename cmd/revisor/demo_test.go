package main

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/revisor-sm/revisor/internal/dbtest"
)

// TestDevSeedsDemo: dev loads the demo tournaments into an empty database,
// with results the standings show, and leaves a database that has
// tournaments alone.
func TestDevSeedsDemo(t *testing.T) {
	t.Parallel()
	u := dbtest.NewEmptyURL(t)
	r := startRun(t, []string{"dev", "--addr", "127.0.0.1:0"}, mapEnv{"DATABASE_URL": u})
	ids := tournamentIDs(t, u)
	if len(ids) != 2 {
		t.Fatalf("%d tournaments after dev, want 2", len(ids))
	}
	// It prints the pages to open and the next step, not API paths.
	out := strings.Join(r.lines, "\n")
	for _, id := range ids {
		if !strings.Contains(out, "page /t/"+id+", console /t/"+id+"/console (log in at /login with the organizer token ") {
			t.Errorf("dev does not print the pages of demo %s:\n%s", id, out)
		}
	}
	if !strings.Contains(out, "log in at "+r.url+"/login with the admin token") || strings.Contains(out, "/api/v1") {
		t.Errorf("dev's next step:\n%s\nwant the login page and no API paths", out)
	}
	// The home page lists both (the demos are public).
	if status, body := get(t, r.url+"/", ""); status != http.StatusOK ||
		!strings.Contains(string(body), "Demo: Chicago-SM 2026") || !strings.Contains(string(body), "Demo: Klubbkväll") {
		t.Errorf("home page = %d, want both demos listed:\n%.400s", status, body)
	}
	rows := map[int]bool{}
	for _, id := range ids {
		status, body := get(t, r.url+"/api/v1/tournaments/"+id+"/standings", "")
		var s struct {
			Status string
			Rows   []struct {
				GamesPlayed int `json:"games_played"`
			}
		}
		if status != http.StatusOK || json.Unmarshal(body, &s) != nil || s.Status != "running" || s.Rows[0].GamesPlayed == 0 {
			t.Errorf("standings of demo %s = %d %.200s, want a running tournament with games", id, status, body)
		}
		rows[len(s.Rows)] = true
	}
	if !rows[13] || !rows[16] {
		t.Errorf("demo standings have %v rows, want 13 and 16", rows)
	}
	r.stop(t)
	startRun(t, []string{"dev", "--addr", "127.0.0.1:0"}, mapEnv{"DATABASE_URL": u})
	if n := len(tournamentIDs(t, u)); n != 2 {
		t.Errorf("%d tournaments after a second dev, want still 2", n)
	}
}

func tournamentIDs(t *testing.T, u string) []string {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	rows, _ := conn.Query(context.Background(), `SELECT id FROM tournaments ORDER BY created_at`)
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return ids
}
