package postgres_test

import (
	"slices"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/postgres"
	"github.com/revisor-sm/revisor/tournament/referee"
	"github.com/revisor-sm/revisor/tournament/referee/refereepg"
)

// TestDrawCutByClockVerifies: when the clock cap cuts a draw's seating
// search (a loaded server), the round stores how far the search ran, its
// public inputs carry it, and the replay (which reads no clock) gives the
// drawn tables.
func TestDrawCutByClockVerifies(t *testing.T) {
	t.Parallel()
	store := postgres.NewStore(dbtest.New(t))
	hour := t0
	slow := func() time.Time { hour = hour.Add(time.Hour); return hour } // every reading is past the budget
	svc := tournament.NewService(store)
	plays := play.New(svc, store, play.WithSeatingClock(slow))
	e := &env{store: store, svc: svc, plays: plays, ctx: t.Context()}
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Loaded", Format: tournament.FormatSwiss, Rounds: intp(6)}, 18)
	tid := c.Tournament.ID
	seed := int64(11)
	r, err := plays.DrawRound(e.ctx, org, tid, &seed)
	if err != nil {
		t.Fatal(err)
	}
	// Round 1 of a Swiss mixed tournament follows the plan; the clock cut
	// the plan's search at its first check (iteration 64), so the round
	// was seated on its own.
	if r.SearchSteps != 63 {
		t.Fatalf("round 1 drawn with SearchSteps %d, want 63 (the plan's search cut at iteration 64)", r.SearchSteps)
	}
	refs := referee.New(svc, plays, refereepg.New(store))
	in, err := refs.DrawInputs(e.ctx, tid, 1)
	if err != nil {
		t.Fatal(err)
	}
	if in.SearchSteps != r.SearchSteps {
		t.Fatalf("stored SearchSteps = %d, drawn %d", in.SearchSteps, r.SearchSteps)
	}
	got, err := referee.ReplayDraw(*in)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(got, r.Tables, sameTables) {
		t.Errorf("replay = %v, drawn %v", got, r.Tables)
	}
	// Without the count the replay runs the full search: other tables.
	in.SearchSteps = 0
	full, err := referee.ReplayDraw(*in)
	if err != nil {
		t.Fatal(err)
	}
	if slices.EqualFunc(full, r.Tables, sameTables) {
		// The full replay reads the real clock: on a slow machine (-race
		// on a loaded CI) its plan search is cut by the 2 s cap too and
		// falls back to the same round search. That the count matters is
		// shown with fake clocks in tournament/seating's cut tests.
		t.Logf("the full search gave the cut draw's tables on this machine (its own clock cut it too)")
	}
	ex, err := e.transfer().Export(e.ctx, org, tid)
	if err != nil {
		t.Fatal(err)
	}
	if ex.Rounds[0].SearchSteps != 63 {
		t.Errorf("export: search_steps %d, want 63", ex.Rounds[0].SearchSteps)
	}
}

func sameTables(a, b tournament.Table) bool {
	return slices.Equal(a.Players, b.Players) && a.FirstDealer == b.FirstDealer && slices.Equal(a.SeatNumbers(), b.SeatNumbers())
}
