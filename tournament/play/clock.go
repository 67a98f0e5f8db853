package play

import (
	"context"
	"strings"
	"time"

	"github.com/revisor-sm/revisor/tournament"
)

// ClockAction is what the organizer does to a round's clock.
type ClockAction struct {
	Action  string
	Minutes int    // start: the round's time; add: the minutes added (negative takes time away)
	Reason  string // undo_call_time: why (kept in the audit log)
}

// applyClock returns the clock of round r after action at now, or a conflict
// when the action does not fit the clock's state.
func applyClock(c tournament.Clock, r *tournament.Round, act ClockAction, now time.Time, by string) (*tournament.Clock, error) {
	wrong := func() error {
		return tournament.Errorf(tournament.KindConflict, tournament.CodeClockState, "the clock of round %d is %s; %s is not possible now", c.Round, c.State, act.Action)
	}
	next := tournament.Clock{Round: c.Round, Action: act.Action, Minutes: act.Minutes, UpdatedBy: by, UpdatedAt: now}
	switch act.Action {
	case tournament.ClockStart:
		if c.State != tournament.ClockIdle {
			return nil, wrong()
		}
		ends := now.Add(time.Duration(act.Minutes) * time.Minute)
		next.State, next.EndsAt = tournament.ClockRunning, &ends
	case tournament.ClockPause:
		if c.State != tournament.ClockRunning {
			return nil, wrong()
		}
		next.State, next.Remaining = tournament.ClockPaused, c.RemainingAt(now).Truncate(time.Millisecond)
	case tournament.ClockResume:
		if c.State != tournament.ClockPaused {
			return nil, wrong()
		}
		ends := now.Add(c.Remaining)
		next.State, next.EndsAt = tournament.ClockRunning, &ends
	case tournament.ClockAdd:
		d := time.Duration(act.Minutes) * time.Minute
		switch c.State {
		case tournament.ClockRunning:
			ends := c.EndsAt.Add(d)
			if ends.Before(now) {
				ends = now
			}
			next.State, next.EndsAt = tournament.ClockRunning, &ends
		case tournament.ClockPaused:
			next.State, next.Remaining = tournament.ClockPaused, max(c.Remaining+d, 0)
		default:
			return nil, wrong()
		}
		// The time left stays within a round's longest time: two adds of
		// a day once left 172,800 s on the clock (issue 25).
		if left := next.RemainingAt(now); left > tournament.MaxClockMinutes*time.Minute {
			return nil, tournament.InvalidField("minutes", "the round's time left would be %d minutes; at most %d", int(left.Minutes()), tournament.MaxClockMinutes)
		}
	case tournament.ClockCallTime:
		if c.State == tournament.ClockTimeCalled {
			return nil, wrong()
		}
		prior := tournament.Clock{State: c.State, EndsAt: c.EndsAt, Remaining: c.Remaining}
		next.State, next.CalledAt, next.Prior = tournament.ClockTimeCalled, &now, &prior
	case tournament.ClockUndoCall:
		if c.State != tournament.ClockTimeCalled || c.Prior == nil {
			return nil, wrong()
		}
		if since := now.Sub(*c.CalledAt); since > tournament.UndoCallWindow {
			return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeClockUndoLate, "time was called in round %d %d minutes ago; a call can be undone for %d minutes",
				c.Round, int(since.Minutes()), int(tournament.UndoCallWindow.Minutes()))
		}
		if r.ResultsSinceCall > 0 {
			return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeClockUndoGamesEnded, "%d games of round %d have ended since time was called; the call stands",
				r.ResultsSinceCall, c.Round)
		}
		next.State, next.EndsAt, next.Remaining = c.Prior.State, c.Prior.EndsAt, c.Prior.Remaining
	}
	return &next, nil
}

// check validates an action as sent.
func (act ClockAction) check() error {
	switch act.Action {
	case tournament.ClockStart:
		if act.Minutes < 1 || act.Minutes > tournament.MaxClockMinutes {
			return tournament.InvalidField("minutes", "minutes must be 1 to %d for start, not %d", tournament.MaxClockMinutes, act.Minutes)
		}
	case tournament.ClockAdd:
		if act.Minutes == 0 || act.Minutes < -tournament.MaxClockMinutes || act.Minutes > tournament.MaxClockMinutes {
			return tournament.InvalidField("minutes", "minutes must be -%d to %d and not 0 for add, not %d", tournament.MaxClockMinutes, tournament.MaxClockMinutes, act.Minutes)
		}
	case tournament.ClockPause, tournament.ClockResume, tournament.ClockCallTime, tournament.ClockUndoCall:
		if act.Minutes != 0 {
			return tournament.InvalidField("minutes", "%s takes no minutes", act.Action)
		}
	default:
		return tournament.InvalidField("action", "action must be start, pause, resume, add, call_time or undo_call_time, not %q", act.Action)
	}
	if r := strings.TrimSpace(act.Reason); act.Action == tournament.ClockUndoCall && (r == "" || len(r) > tournament.MaxReason) {
		return tournament.InvalidField("reason", "undoing a call of time needs a reason of 1 to %d characters", tournament.MaxReason)
	}
	return nil
}

// RoundClock returns the clock of round n (idle before the organizer first
// starts it). Public.
func (s *Service) RoundClock(ctx context.Context, tid string, n int) (*tournament.Clock, error) {
	return s.store.RoundClock(ctx, tid, n)
}

// SetRoundClock applies the organizer's action to the clock of round n,
// which must be open.
func (s *Service) SetRoundClock(ctx context.Context, a tournament.Actor, tid string, n int, act ClockAction) (*tournament.Clock, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	if err := act.check(); err != nil {
		return nil, err
	}
	now := s.clock()
	ctx = tournament.AuditBecause(ctx, a, strings.TrimSpace(act.Reason))
	return s.store.SetRoundClock(ctx, tid, n, func(r *tournament.Round, c *tournament.Clock) (*tournament.Clock, error) {
		if err := roundOpen(r); err != nil {
			return nil, err
		}
		return applyClock(*c, r, act, now, a.String())
	})
}

// Now is the service's time: the server time the clock is read in.
func (s *Service) Now() time.Time { return s.clock() }
