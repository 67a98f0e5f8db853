package seating_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/internal/racecheck"
	"github.com/revisor-sm/revisor/tournament/seating"
)

type instance struct {
	Players          int    `json:"players"`
	Rounds           int    `json:"rounds"`
	BestKnownRepeats int    `json:"best_known_repeats"`
	Why              string `json:"why"`
}

const instancesFile = "seating-instances.json"

// loadInstances reads the benchmark instances in testdata.
func loadInstances(t *testing.T) []instance {
	t.Helper()
	p := filepath.Join("testdata", instancesFile)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Instances []instance }
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return f.Instances
}

// TestInstancesCopied checks that testdata holds a faithful copy of the
// project-wide benchmark file when the shared folder sits beside the
// repository (it is optional: the copy is what the tests read).
func TestInstancesCopied(t *testing.T) {
	t.Parallel()
	shared := filepath.Join("..", "..", "..", "shared", "bench", instancesFile)
	want, err := os.ReadFile(shared)
	if err != nil {
		t.Skip("shared benchmark file not present")
	}
	got, err := os.ReadFile(filepath.Join("testdata", instancesFile))
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("testdata/%s differs from %s (copy it again): %v", instancesFile, shared, err)
	}
}

func TestBenchmarkInstances(t *testing.T) {
	for _, in := range loadInstances(t) {
		t.Run(fmt.Sprintf("%dx%d", in.Players, in.Rounds), func(t *testing.T) {
			// The work bound, not the clock, ends the search (a long budget
			// keeps the result deterministic on a busy machine); the time
			// limit is checked on the CPU time used.
			// The plan is a pure function of its input: leastCPU may
			// make it again when one run was over the budget.
			var (
				s   *seating.Schedule
				err error
			)
			wall := time.Now()
			took := leastCPU(seating.DefaultBudget, func() time.Duration {
				d := cpuOf(func() { s, err = seating.Plan(in.Players, in.Rounds, seating.Options{Seed: 1, Budget: time.Minute}) })
				if err != nil {
					t.Fatalf("Plan(%d, %d) error %v", in.Players, in.Rounds, err)
				}
				return d
			})
			t.Logf("players=%d rounds=%d repeats=%d best=%d bound=%d spread=%d method=%q cpu=%v wall=%v",
				in.Players, in.Rounds, s.Repeats, in.BestKnownRepeats, s.LowerBound, s.SeatSpread, s.Method,
				took.Round(time.Millisecond), time.Since(wall).Round(time.Millisecond))
			if s.Repeats > in.BestKnownRepeats {
				t.Errorf("Plan(%d, %d) repeats = %d, want <= %d (%s)", in.Players, in.Rounds, s.Repeats, in.BestKnownRepeats, in.Why)
			}
			if s.SeatSpread > 1 {
				t.Errorf("Plan(%d, %d) seat spread = %d, want <= 1", in.Players, in.Rounds, s.SeatSpread)
			}
			if !racecheck.Enabled && took > seating.DefaultBudget {
				t.Errorf("Plan(%d, %d) took %v of CPU, want within %v", in.Players, in.Rounds, took, seating.DefaultBudget)
			}
		})
	}
}
