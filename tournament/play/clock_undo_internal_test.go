package play

import (
	"testing"
	"time"

	"github.com/revisor-sm/revisor/tournament"
)

// TestClockUndoCall: a call of time made by mistake is taken back within
// UndoCallWindow, to the clock as it stood (a running clock's end where
// it was, a paused clock's time left); later, after a game has ended since
// the call, before any call, or without a reason, it is refused.
func TestClockUndoCall(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 19, 0, 0, 0, time.UTC)
	ends := t0.Add(30 * time.Minute)
	undo := ClockAction{Action: tournament.ClockUndoCall, Reason: "pressed by mistake"}
	round := &tournament.Round{Number: 1}
	for _, before := range []tournament.Clock{
		{Round: 1, State: tournament.ClockRunning, EndsAt: &ends},
		{Round: 1, State: tournament.ClockPaused, Remaining: 12 * time.Minute},
		{Round: 1, State: tournament.ClockIdle},
	} {
		called, err := applyClock(before, round, ClockAction{Action: tournament.ClockCallTime}, t0, "organizer")
		if err != nil || called.State != tournament.ClockTimeCalled || called.Prior == nil {
			t.Fatalf("call time on a %s clock = %+v, %v", before.State, called, err)
		}
		back, err := applyClock(*called, round, undo, t0.Add(tournament.UndoCallWindow), "organizer")
		if err != nil {
			t.Fatalf("undo on a %s clock at the window's end: %v", before.State, err)
		}
		if back.State != before.State || back.RemainingAt(t0) != before.RemainingAt(t0) || back.CalledAt != nil || back.Prior != nil {
			t.Errorf("undo of a call on a %s clock = %+v, want it as it stood", before.State, back)
		}
		if _, err := applyClock(*called, round, undo, t0.Add(tournament.UndoCallWindow+time.Second), "organizer"); tournament.ErrorCode(err) != tournament.CodeClockUndoLate {
			t.Errorf("undo on a %s clock after the window = %v, want %s", before.State, err, tournament.CodeClockUndoLate)
		}
		if _, err := applyClock(*called, &tournament.Round{Number: 1, ResultsSinceCall: 1}, undo, t0.Add(time.Minute), "organizer"); tournament.ErrorCode(err) != tournament.CodeClockUndoGamesEnded {
			t.Errorf("undo on a %s clock after a game ended = %v, want %s", before.State, err, tournament.CodeClockUndoGamesEnded)
		}
		if _, err := applyClock(before, round, undo, t0, "organizer"); tournament.ErrorCode(err) != tournament.CodeClockState {
			t.Errorf("undo on a %s clock before any call = %v, want %s", before.State, err, tournament.CodeClockState)
		}
	}
	for _, act := range []ClockAction{{Action: tournament.ClockUndoCall}, {Action: tournament.ClockUndoCall, Reason: "  "}, {Action: tournament.ClockUndoCall, Reason: string(make([]byte, tournament.MaxReason+1))}} {
		if err := act.check(); tournament.ErrorCode(err) != "invalid_reason" {
			t.Errorf("check(undo with reason of %d bytes) = %v, want invalid_reason", len(act.Reason), err)
		}
	}
	if err := (ClockAction{Action: tournament.ClockUndoCall, Reason: "x", Minutes: 3}).check(); tournament.ErrorCode(err) != "invalid_minutes" {
		t.Errorf("check(undo with minutes) = %v, want invalid_minutes", err)
	}
}
