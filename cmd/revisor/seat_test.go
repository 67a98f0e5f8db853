package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/internal/racecheck"
)

func runSeatArgs(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), append([]string{"seat"}, args...), func(string) string { return "" }, strings.NewReader(""), &stdout, &stderr)
	return stdout.String(), stderr.String(), err
}

func TestSeatJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args          []string
		players       int
		rounds        int
		repeats, size int // size: tables per round
	}{
		{[]string{"--players", "16", "--rounds", "5", "--json"}, 16, 5, 0, 4},
		{[]string{"--players", "15", "--rounds", "5", "--seed", "9", "--json"}, 15, 5, 0, 4},
		{[]string{"--players", "8", "--rounds", "4", "--json"}, 8, 4, 20, 2},
		{[]string{"--players", "13", "--rounds", "3", "--mode", "by_standings", "--budget", "1s", "--json"}, 13, 3, -1, 4},
	}
	for _, tt := range tests {
		out, errOut, err := runSeatArgs(t, tt.args...)
		if err != nil {
			t.Fatalf("seat %v: %v (%s)", tt.args, err, errOut)
		}
		var got seatOutput
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("seat %v printed %q: %v", tt.args, out, err)
		}
		if got.Players != tt.players || got.Rounds != tt.rounds || len(got.Schedule) != tt.rounds {
			t.Errorf("seat %v = %d players, %d rounds (%d listed), want %d, %d", tt.args, got.Players, got.Rounds, len(got.Schedule), tt.players, tt.rounds)
		}
		if tt.repeats >= 0 && got.Repeats != tt.repeats {
			t.Errorf("seat %v repeats = %d, want %d", tt.args, got.Repeats, tt.repeats)
		}
		if got.SeatSpread > 1 {
			t.Errorf("seat %v seat_spread = %d, want <= 1", tt.args, got.SeatSpread)
		}
		for _, r := range got.Schedule {
			checkSeatRound(t, tt.args, tt.players, tt.size, r)
		}
	}
}

// checkSeatRound checks a printed round: players 1..N once each, seats
// matching the players list, the dealer in the first occupied seat.
func checkSeatRound(t *testing.T, args []string, players, tables int, r seatRound) {
	t.Helper()
	if len(r.Tables) != tables {
		t.Errorf("seat %v round %d has %d tables, want %d", args, r.Round, len(r.Tables), tables)
	}
	seen := map[int]int{}
	for _, tb := range r.Tables {
		var bySeat []int
		for _, p := range tb.Seats {
			if p != nil {
				bySeat = append(bySeat, *p)
			}
		}
		if len(tb.Seats) != 4 || !equalInts(bySeat, tb.Players) || len(tb.Players) < 3 || tb.Dealer != tb.Players[0] {
			t.Errorf("seat %v round %d table %d = players %v, seats %v, dealer %d: inconsistent", args, r.Round, tb.Table, tb.Players, bySeat, tb.Dealer)
		}
		for _, p := range tb.Players {
			seen[p]++
		}
	}
	for p := 1; p <= players; p++ {
		if seen[p] != 1 {
			t.Errorf("seat %v round %d seats player %d %d times, want 1", args, r.Round, p, seen[p])
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestSeatDeterministic(t *testing.T) {
	t.Parallel()
	racecheck.OutOfRace(t) // the draw's search
	// The search stops after a fixed amount of work; the time budget is only
	// a safety cap, which a slow run (-race beside other packages) can reach.
	// A generous cap keeps this test about the work alone.
	a, _, err1 := runSeatArgs(t, "--players", "22", "--rounds", "6", "--seed", "5", "--budget", "2m", "--json")
	b, _, err2 := runSeatArgs(t, "--players", "22", "--rounds", "6", "--seed", "5", "--budget", "2m", "--json")
	if err1 != nil || err2 != nil || a != b {
		t.Errorf("seat twice with seed 5 differs (errors %v, %v)", err1, err2)
	}
	c, _, _ := runSeatArgs(t, "--players", "22", "--rounds", "6", "--seed", "6", "--budget", "2m", "--json")
	if a == c {
		t.Errorf("seat with seeds 5 and 6 printed the same schedule")
	}
}

func TestSeatText(t *testing.T) {
	t.Parallel()
	out, _, err := runSeatArgs(t, "--players", "7", "--rounds", "2")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"7 players, 2 rounds", "round 1:", "round 2:", "repeats "} {
		if !strings.Contains(out, want) {
			t.Errorf("seat --players 7 --rounds 2 printed %q, want it to contain %q", out, want)
		}
	}
}

func TestSeatErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args    []string
		usage   bool
		message string
	}{
		{[]string{"--players", "5", "--rounds", "3"}, false, "add at least one player"},
		{[]string{"--players", "2", "--rounds", "3"}, false, "add 1 more"},
		{[]string{"--players", "8"}, true, "--rounds"},
		{[]string{"--rounds", "3"}, true, "--players"},
		{[]string{"--players", "8", "--rounds", "3", "--mode", "sm"}, true, "--mode"},
		{[]string{"--players", "8", "--rounds", "3", "--mode", "chaos"}, true, "--mode"},
		{[]string{"--players", "eight"}, true, "invalid value"},
		{[]string{"--players", "8", "--rounds", "3", "extra"}, true, "unexpected argument"},
	}
	for _, tt := range tests {
		_, errOut, err := runSeatArgs(t, tt.args...)
		if err == nil || errors.Is(err, errUsage) != tt.usage {
			t.Errorf("seat %v = %v, want an error (usage %v)", tt.args, err, tt.usage)
			continue
		}
		if msg := errOut + err.Error(); !strings.Contains(msg, tt.message) {
			t.Errorf("seat %v said %q, want it to mention %q", tt.args, msg, tt.message)
		}
	}
}
