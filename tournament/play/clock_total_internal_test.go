package play

import (
	"testing"
	"time"

	"github.com/revisor-sm/revisor/tournament"
)

// TestClockTotalBounded: adding time never leaves more than a round's
// longest time on the clock (issue 25: two adds of a day left 172,800 s),
// running or paused; within it, adding works.
func TestClockTotalBounded(t *testing.T) {
	now := time.Date(2026, 3, 1, 19, 0, 0, 0, time.UTC)
	ends := now.Add(23 * time.Hour)
	for _, c := range []tournament.Clock{
		{Round: 1, State: tournament.ClockRunning, EndsAt: &ends},
		{Round: 1, State: tournament.ClockPaused, Remaining: 23 * time.Hour},
	} {
		if _, err := applyClock(c, &tournament.Round{Number: 1}, ClockAction{Action: tournament.ClockAdd, Minutes: 120}, now, "organizer"); tournament.ErrorKind(err) != tournament.KindInvalid {
			t.Errorf("%s clock with 23 h left, add 120 min: %v, want invalid", c.State, err)
		}
		next, err := applyClock(c, &tournament.Round{Number: 1}, ClockAction{Action: tournament.ClockAdd, Minutes: 60}, now, "organizer")
		if err != nil || next.RemainingAt(now) != tournament.MaxClockMinutes*time.Minute {
			t.Errorf("%s clock with 23 h left, add 60 min: %v, %v; want 24 h left", c.State, next, err)
		}
	}
}
