package tournament

import (
	"testing"
	"time"
)

// TestClockTotalBounded: adding time never leaves more than a round's
// longest time on the clock (issue 25: two adds of a day left 172,800 s),
// running or paused; within it, adding works.
func TestClockTotalBounded(t *testing.T) {
	now := time.Date(2026, 3, 1, 19, 0, 0, 0, time.UTC)
	ends := now.Add(23 * time.Hour)
	for _, c := range []Clock{
		{Round: 1, State: ClockRunning, EndsAt: &ends},
		{Round: 1, State: ClockPaused, Remaining: 23 * time.Hour},
	} {
		if _, err := c.apply(&Round{Number: 1}, ClockAction{Action: ClockAdd, Minutes: 120}, now, "organizer"); ErrorKind(err) != KindInvalid {
			t.Errorf("%s clock with 23 h left, add 120 min: %v, want invalid", c.State, err)
		}
		next, err := c.apply(&Round{Number: 1}, ClockAction{Action: ClockAdd, Minutes: 60}, now, "organizer")
		if err != nil || next.RemainingAt(now) != MaxClockMinutes*time.Minute {
			t.Errorf("%s clock with 23 h left, add 60 min: %v, %v; want 24 h left", c.State, next, err)
		}
	}
}
