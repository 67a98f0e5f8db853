package tournament

import (
	"context"
	"strings"
	"time"
)

// ClockAction is what the organizer does to a round's clock.
type ClockAction struct {
	Action  string
	Minutes int    // start: the round's time; add: the minutes added (negative takes time away)
	Reason  string // undo_call_time: why (kept in the audit log)
}

// apply returns the clock of round r after action at now, or a conflict
// when the action does not fit the clock's state.
func (c Clock) apply(r *Round, act ClockAction, now time.Time, by string) (*Clock, error) {
	wrong := func() error {
		return Errorf(KindConflict, CodeClockState, "the clock of round %d is %s; %s is not possible now", c.Round, c.State, act.Action)
	}
	next := Clock{Round: c.Round, Action: act.Action, Minutes: act.Minutes, UpdatedBy: by, UpdatedAt: now}
	switch act.Action {
	case ClockStart:
		if c.State != ClockIdle {
			return nil, wrong()
		}
		ends := now.Add(time.Duration(act.Minutes) * time.Minute)
		next.State, next.EndsAt = ClockRunning, &ends
	case ClockPause:
		if c.State != ClockRunning {
			return nil, wrong()
		}
		next.State, next.Remaining = ClockPaused, c.RemainingAt(now).Truncate(time.Millisecond)
	case ClockResume:
		if c.State != ClockPaused {
			return nil, wrong()
		}
		ends := now.Add(c.Remaining)
		next.State, next.EndsAt = ClockRunning, &ends
	case ClockAdd:
		d := time.Duration(act.Minutes) * time.Minute
		switch c.State {
		case ClockRunning:
			ends := c.EndsAt.Add(d)
			if ends.Before(now) {
				ends = now
			}
			next.State, next.EndsAt = ClockRunning, &ends
		case ClockPaused:
			next.State, next.Remaining = ClockPaused, max(c.Remaining+d, 0)
		default:
			return nil, wrong()
		}
		// The time left stays within a round's longest time: two adds of
		// a day once left 172,800 s on the clock (issue 25).
		if left := next.RemainingAt(now); left > MaxClockMinutes*time.Minute {
			return nil, InvalidField("minutes", "the round's time left would be %d minutes; at most %d", int(left.Minutes()), MaxClockMinutes)
		}
	case ClockCallTime:
		if c.State == ClockTimeCalled {
			return nil, wrong()
		}
		prior := Clock{State: c.State, EndsAt: c.EndsAt, Remaining: c.Remaining}
		next.State, next.CalledAt, next.Prior = ClockTimeCalled, &now, &prior
	case ClockUndoCall:
		if c.State != ClockTimeCalled || c.Prior == nil {
			return nil, wrong()
		}
		if since := now.Sub(*c.CalledAt); since > UndoCallWindow {
			return nil, Errorf(KindConflict, CodeClockUndoLate, "time was called in round %d %d minutes ago; a call can be undone for %d minutes",
				c.Round, int(since.Minutes()), int(UndoCallWindow.Minutes()))
		}
		if r.ResultsSinceCall > 0 {
			return nil, Errorf(KindConflict, CodeClockUndoGamesEnded, "%d games of round %d have ended since time was called; the call stands",
				r.ResultsSinceCall, c.Round)
		}
		next.State, next.EndsAt, next.Remaining = c.Prior.State, c.Prior.EndsAt, c.Prior.Remaining
	}
	return &next, nil
}

// check validates an action as sent.
func (act ClockAction) check() error {
	switch act.Action {
	case ClockStart:
		if act.Minutes < 1 || act.Minutes > MaxClockMinutes {
			return InvalidField("minutes", "minutes must be 1 to %d for start, not %d", MaxClockMinutes, act.Minutes)
		}
	case ClockAdd:
		if act.Minutes == 0 || act.Minutes < -MaxClockMinutes || act.Minutes > MaxClockMinutes {
			return InvalidField("minutes", "minutes must be -%d to %d and not 0 for add, not %d", MaxClockMinutes, MaxClockMinutes, act.Minutes)
		}
	case ClockPause, ClockResume, ClockCallTime, ClockUndoCall:
		if act.Minutes != 0 {
			return InvalidField("minutes", "%s takes no minutes", act.Action)
		}
	default:
		return InvalidField("action", "action must be start, pause, resume, add, call_time or undo_call_time, not %q", act.Action)
	}
	if r := strings.TrimSpace(act.Reason); act.Action == ClockUndoCall && (r == "" || len(r) > MaxReason) {
		return InvalidField("reason", "undoing a call of time needs a reason of 1 to %d characters", MaxReason)
	}
	return nil
}

// RoundClock returns the clock of round n (idle before the organizer first
// starts it). Public.
func (s *Service) RoundClock(ctx context.Context, tid string, n int) (*Clock, error) {
	return s.store.RoundClock(ctx, tid, n)
}

// SetRoundClock applies the organizer's action to the clock of round n,
// which must be open.
func (s *Service) SetRoundClock(ctx context.Context, a Actor, tid string, n int, act ClockAction) (*Clock, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	if err := act.check(); err != nil {
		return nil, err
	}
	now := s.clock()
	ctx = AuditBecause(ctx, a, strings.TrimSpace(act.Reason))
	return s.store.SetRoundClock(ctx, tid, n, func(r *Round, c *Clock) (*Clock, error) {
		if err := roundOpen(r); err != nil {
			return nil, err
		}
		return c.apply(r, act, now, a.String())
	})
}

// Now is the service's time: the server time the clock is read in.
func (s *Service) Now() time.Time { return s.clock() }
