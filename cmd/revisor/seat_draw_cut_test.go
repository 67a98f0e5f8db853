package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/postgres"
	"github.com/revisor-sm/revisor/tournament/referee"
	"github.com/revisor-sm/revisor/tournament/referee/refereepg"
)

// TestSeatVerifiesDrawCutByClock: a draw whose seating search the server's
// clock cut short (a loaded machine) publishes search_steps, and
// `revisor seat --draw` replays to that point and verifies it. That the
// count matters (the whole search gives other tables) is shown with fake
// clocks in tournament/seating's cut tests: a replay without the count
// here reads the real clock, checked nothing either way, and took most of
// the test's time (8 s of 8.4 s alone, 108 s under -race in the full pass).
func TestSeatVerifiesDrawCutByClock(t *testing.T) {
	t.Parallel()
	ctx, rounds := context.Background(), 6
	store := postgres.NewStore(dbtest.New(t))
	hour := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	slow := func() time.Time { hour = hour.Add(time.Hour); return hour } // every reading is past the budget
	svc := tournament.NewService(store)
	plays := play.New(svc, store, play.WithSeatingClock(slow))
	org := tournament.Actor{Role: tournament.RoleOrganizer}
	c, err := svc.CreateTournament(ctx, tournament.Actor{Role: tournament.RoleAdmin},
		tournament.NewTournament{Name: "Loaded", Format: tournament.FormatSwiss, Rounds: &rounds})
	if err != nil {
		t.Fatal(err)
	}
	tid := c.Tournament.ID
	var nps []tournament.NewPlayer
	for i := range 18 {
		nps = append(nps, tournament.NewPlayer{Name: fmt.Sprintf("P%d", i+1)})
	}
	if _, err := svc.AddPlayers(ctx, org, tid, nps); err != nil {
		t.Fatal(err)
	}
	seed := int64(11)
	r, err := plays.DrawRound(ctx, org, tid, &seed)
	if err != nil {
		t.Fatal(err)
	}
	if r.SearchSteps == 0 {
		t.Fatal("the clock did not cut the draw's search")
	}
	in, err := referee.New(svc, plays, refereepg.New(store)).DrawInputs(ctx, tid, 1)
	if err != nil {
		t.Fatal(err)
	}
	f := drawFile{Format: string(in.Format), Seating: in.Seating, Rounds: in.Rounds, Round: 1, Seed: &in.Seed,
		Players: in.Players, SearchSteps: in.SearchSteps}
	for _, tb := range in.Tables {
		f.Tables = append(f.Tables, drawTable{Number: tb.Number, Players: tb.Players, Seats: tb.Seats, FirstDealer: tb.FirstDealer})
	}
	file := filepath.Join(t.TempDir(), "draw.json")
	write := func() {
		b, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write()
	out, err := runSeatDraw(t, file)
	want := fmt.Sprintf("cut it after %d iterations", r.SearchSteps)
	if err != nil || !strings.Contains(out, "verified") || !strings.Contains(out, want) {
		t.Errorf("revisor seat --draw = %v\n%s\nwant verified, %q", err, out, want)
	}
}
