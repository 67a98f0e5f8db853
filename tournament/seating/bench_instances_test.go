package seating_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/tournament/seating"
)

type instance struct {
	Players          int    `json:"players"`
	Rounds           int    `json:"rounds"`
	BestKnownRepeats int    `json:"best_known_repeats"`
	Why              string `json:"why"`
}

// loadInstances reads the shared benchmark file (../shared/bench relative
// to the repository root) or, when the shared folder is absent, the copy in
// testdata.
func loadInstances(t *testing.T) []instance {
	t.Helper()
	paths := []string{
		filepath.Join("..", "..", "..", "shared", "bench", "seating-instances.json"),
		filepath.Join("testdata", "seating-instances.json"),
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		var f struct{ Instances []instance }
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		return f.Instances
	}
	t.Fatal("seating-instances.json not found")
	return nil
}

func TestBenchmarkInstances(t *testing.T) {
	for _, in := range loadInstances(t) {
		t.Run(fmt.Sprintf("%dx%d", in.Players, in.Rounds), func(t *testing.T) {
			// The work bound, not the clock, ends the search (a long budget
			// keeps the result deterministic on a busy machine); the time
			// limit is checked on the CPU time used.
			start, wall := cpuTime(), time.Now()
			s, err := seating.Plan(in.Players, in.Rounds, seating.Options{Seed: 1, Budget: time.Minute})
			took := cpuTime() - start
			if err != nil {
				t.Fatalf("Plan(%d, %d) error %v", in.Players, in.Rounds, err)
			}
			t.Logf("players=%d rounds=%d repeats=%d best=%d bound=%d spread=%d method=%q cpu=%v wall=%v",
				in.Players, in.Rounds, s.Repeats, in.BestKnownRepeats, s.LowerBound, s.SeatSpread, s.Method,
				took.Round(time.Millisecond), time.Since(wall).Round(time.Millisecond))
			if s.Repeats > in.BestKnownRepeats {
				t.Errorf("Plan(%d, %d) repeats = %d, want <= %d (%s)", in.Players, in.Rounds, s.Repeats, in.BestKnownRepeats, in.Why)
			}
			if s.SeatSpread > 1 {
				t.Errorf("Plan(%d, %d) seat spread = %d, want <= 1", in.Players, in.Rounds, s.SeatSpread)
			}
			if !raceEnabled && took > seating.DefaultBudget {
				t.Errorf("Plan(%d, %d) took %v of CPU, want within %v", in.Players, in.Rounds, took, seating.DefaultBudget)
			}
		})
	}
}
