package seating_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/tournament/seating"
)

// stopClock is a fake clock that stands still for its first reads reads
// and then jumps an hour on, past any budget.
func stopClock(reads int) func() time.Time {
	t0, n := time.Unix(1_700_000_000, 0), 0
	return func() time.Time {
		if n++; n > reads {
			return t0.Add(time.Hour)
		}
		return t0
	}
}

// The clock cuts a round's search after a few reads; the result records
// the iterations run, and a replay with that count and no clock gives the
// same tables, where the full search gives others.
func TestRoundCutByClockReplays(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		mode   seating.Mode
		n      int
		played int // rounds of history
		rounds int // Params.Rounds: a Mixed Swiss round first tries the plan
		reads  int // clock reads before it jumps
		steps  int // iterations run at the cut
	}{
		// The deadline, then the checks at iterations 64 and 128 pass; 192 stops.
		{"sm draw", seating.Draw, 16, 6, 0, 3, 191},
		{"by standings", seating.ByStandings, 16, 6, 0, 3, 191},
		// Round 1 of a Swiss tournament follows the plan; here the plan's
		// deadline passes, its check at iteration 64 stops it, and the
		// round is seated on its own instead, with no clock.
		{"plan cut", seating.Mixed, 18, 0, 8, 1, 63},
	} {
		t.Run(tc.name, func(t *testing.T) {
			players := ids(tc.n)
			_, hist := playRounds(t, players, tc.played, tc.mode, 7)
			p := seating.Params{Players: players, History: hist, Mode: tc.mode, Seed: 99, Rounds: tc.rounds, PlanSeed: 5, Budget: time.Second}
			p.Now = stopClock(tc.reads)
			cut, err := seating.Round(p)
			if err != nil {
				t.Fatal(err)
			}
			if !cut.TimedOut || cut.Steps != tc.steps {
				t.Fatalf("cut round: timed out %v after %d iterations, want cut after %d", cut.TimedOut, cut.Steps, tc.steps)
			}
			p.Now, p.Steps = func() time.Time { t.Fatal("a replay read the clock"); return time.Time{} }, cut.Steps
			p.Budget = time.Nanosecond
			again, err := seating.Round(p)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(again.Tables, cut.Tables) || again.Steps != cut.Steps || !again.TimedOut {
				t.Errorf("replay with %d steps = %v (steps %d), want the cut round's %v", p.Steps, again.Tables, again.Steps, cut.Tables)
			}
			p.Now, p.Steps, p.Budget = nil, 0, time.Minute
			full, err := seating.Round(p)
			if err != nil {
				t.Fatal(err)
			}
			if full.TimedOut || full.Steps != 0 {
				t.Errorf("full search: timed out %v, steps %d", full.TimedOut, full.Steps)
			}
			if reflect.DeepEqual(full.Tables, cut.Tables) {
				t.Errorf("the full search gives the cut round's tables: the cut proves nothing here")
			}
		})
	}
}

// The same holds for a whole schedule.
func TestPlanCutByClockReplays(t *testing.T) {
	t.Parallel()
	opt := seating.Options{Seed: 3, Budget: time.Second, Now: stopClock(2)}
	cut, err := seating.Plan(30, 8, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !cut.TimedOut || cut.Steps != 127 {
		t.Fatalf("cut plan: timed out %v after %d iterations, want cut after 127", cut.TimedOut, cut.Steps)
	}
	again, err := seating.Plan(30, 8, seating.Options{Seed: 3, Steps: cut.Steps, Budget: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again.Rounds, cut.Rounds) || again.Steps != cut.Steps {
		t.Errorf("replay with %d steps gives other rounds (steps %d)", cut.Steps, again.Steps)
	}
}

// A replay of a round whose search was not cut (a verifier's, Steps 0)
// never reads the clock: on a machine slow enough for its own budget to
// cut it, it still runs to the work bound, as the draw did, and gives the
// draw's tables. Before Replay, `revisor seat --draw` of an uncut draw
// read its own clock and, under load, reported a true draw as not
// verifying.
func TestReplayOfAnUncutRoundNeverReadsTheClock(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		mode   seating.Mode
		n      int
		played int
		rounds int
	}{
		{"sm draw", seating.Draw, 16, 6, 0},
		{"by standings", seating.ByStandings, 13, 1, 0},
		{"plan", seating.Mixed, 18, 0, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			players := ids(tc.n)
			_, hist := playRounds(t, players, tc.played, tc.mode, 7)
			p := seating.Params{Players: players, History: hist, Mode: tc.mode, Seed: 99, Rounds: tc.rounds, PlanSeed: 5, Budget: time.Minute}
			if tc.mode == seating.ByStandings {
				p.Standings = players
			}
			drawn, err := seating.Round(p)
			if err != nil {
				t.Fatal(err)
			}
			if drawn.TimedOut {
				t.Fatalf("the draw was cut by a minute's budget")
			}
			p.Replay, p.Budget = true, time.Nanosecond
			p.Now = func() time.Time { t.Fatal("a replay read the clock"); return time.Time{} }
			again, err := seating.Round(p)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(again.Tables, drawn.Tables) || again.TimedOut {
				t.Errorf("replay = %v (timed out %v), want the draw's %v", again.Tables, again.TimedOut, drawn.Tables)
			}
		})
	}
	t.Run("schedule", func(t *testing.T) {
		t.Parallel()
		planned, err := seating.Plan(30, 8, seating.Options{Seed: 3, Budget: time.Minute})
		if err != nil || planned.TimedOut {
			t.Fatalf("plan: %v, timed out %v", err, planned != nil && planned.TimedOut)
		}
		again, err := seating.Plan(30, 8, seating.Options{Seed: 3, Replay: true, Budget: time.Nanosecond,
			Now: func() time.Time { t.Fatal("a replay read the clock"); return time.Time{} }})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(again.Rounds, planned.Rounds) || again.TimedOut {
			t.Errorf("replayed plan differs from the plan (timed out %v)", again.TimedOut)
		}
	})
}
