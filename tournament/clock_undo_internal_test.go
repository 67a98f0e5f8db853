package tournament

import (
	"testing"
	"time"
)

// TestClockUndoCall: a call of time made by mistake is taken back within
// UndoCallWindow, to the clock as it stood (a running clock's end where
// it was, a paused clock's time left); later, after a game has ended since
// the call, before any call, or without a reason, it is refused.
func TestClockUndoCall(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 19, 0, 0, 0, time.UTC)
	ends := t0.Add(30 * time.Minute)
	undo := ClockAction{Action: ClockUndoCall, Reason: "pressed by mistake"}
	round := &Round{Number: 1}
	for _, before := range []Clock{
		{Round: 1, State: ClockRunning, EndsAt: &ends},
		{Round: 1, State: ClockPaused, Remaining: 12 * time.Minute},
		{Round: 1, State: ClockIdle},
	} {
		called, err := before.apply(round, ClockAction{Action: ClockCallTime}, t0, "organizer")
		if err != nil || called.State != ClockTimeCalled || called.Prior == nil {
			t.Fatalf("call time on a %s clock = %+v, %v", before.State, called, err)
		}
		back, err := called.apply(round, undo, t0.Add(UndoCallWindow), "organizer")
		if err != nil {
			t.Fatalf("undo on a %s clock at the window's end: %v", before.State, err)
		}
		if back.State != before.State || back.RemainingAt(t0) != before.RemainingAt(t0) || back.CalledAt != nil || back.Prior != nil {
			t.Errorf("undo of a call on a %s clock = %+v, want it as it stood", before.State, back)
		}
		if _, err := called.apply(round, undo, t0.Add(UndoCallWindow+time.Second), "organizer"); ErrorCode(err) != CodeClockUndoLate {
			t.Errorf("undo on a %s clock after the window = %v, want %s", before.State, err, CodeClockUndoLate)
		}
		if _, err := called.apply(&Round{Number: 1, ResultsSinceCall: 1}, undo, t0.Add(time.Minute), "organizer"); ErrorCode(err) != CodeClockUndoGamesEnded {
			t.Errorf("undo on a %s clock after a game ended = %v, want %s", before.State, err, CodeClockUndoGamesEnded)
		}
		if _, err := before.apply(round, undo, t0, "organizer"); ErrorCode(err) != CodeClockState {
			t.Errorf("undo on a %s clock before any call = %v, want %s", before.State, err, CodeClockState)
		}
	}
	for _, act := range []ClockAction{{Action: ClockUndoCall}, {Action: ClockUndoCall, Reason: "  "}, {Action: ClockUndoCall, Reason: string(make([]byte, MaxReason+1))}} {
		if err := act.check(); ErrorCode(err) != "invalid_reason" {
			t.Errorf("check(undo with reason of %d bytes) = %v, want invalid_reason", len(act.Reason), err)
		}
	}
	if err := (ClockAction{Action: ClockUndoCall, Reason: "x", Minutes: 3}).check(); ErrorCode(err) != "invalid_minutes" {
		t.Errorf("check(undo with minutes) = %v, want invalid_minutes", err)
	}
}
