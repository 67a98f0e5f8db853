package referee

import (
	"context"
	"strings"
	"time"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
)

// ResultStatus says whether a round's results can still be disputed.
type ResultStatus string

// The statuses of a round's results.
const (
	ResultsOpen        ResultStatus = "open"        // the round is being played
	ResultsProvisional ResultStatus = "provisional" // closed; disputes can be opened until ClosesAt
	ResultsFinal       ResultStatus = "final"       // only the organizer can reopen them
)

// Reopening is the organizer's reopening of a round's final results for
// disputes, until a time, with a reason.
type Reopening struct {
	ID        int64
	Round     int
	Reason    string
	Until     time.Time
	By        string
	CreatedAt time.Time
}

// Window is the correction window of one round.
type Window struct {
	Round    int
	ClosedAt *time.Time // when the round was closed; nil while it is open
	ClosesAt *time.Time // when disputes stop being taken; nil while the round is open
	Reopened bool       // ClosesAt comes from a reopening
}

// windowOf computes round n's window: closed_at plus the correction
// minutes, or the latest reopening when that ends later.
func windowOf(st *State, n int) Window {
	w := Window{Round: n}
	if n < 1 || n > len(st.Rounds) || st.Rounds[n-1].ClosedAt == nil || st.Rounds[n-1].Status != tournament.RoundClosed {
		return w
	}
	closed := *st.Rounds[n-1].ClosedAt
	ends := closed.Add(time.Duration(st.CorrectionMinutes) * time.Minute)
	w.ClosedAt, w.ClosesAt = &closed, &ends
	for _, ro := range st.Reopenings {
		if ro.Round == n && ro.Until.After(*w.ClosesAt) {
			u := ro.Until
			w.ClosesAt, w.Reopened = &u, true
		}
	}
	return w
}

// Status returns the status of the window's results at now.
func (w Window) Status(now time.Time) ResultStatus {
	switch {
	case w.ClosesAt == nil:
		return ResultsOpen
	case now.Before(*w.ClosesAt):
		return ResultsProvisional
	}
	return ResultsFinal
}

// Left returns the time left to open disputes (0 when final; while the
// round is open, 0 and the window has not started).
func (w Window) Left(now time.Time) time.Duration {
	if w.Status(now) != ResultsProvisional {
		return 0
	}
	return w.ClosesAt.Sub(now)
}

// admits answers 409 correction_window_closed, with the time it closed,
// when the results are final at now.
func (w Window) admits(now time.Time) error {
	if w.Status(now) != ResultsFinal {
		return nil
	}
	at := w.ClosesAt.UTC().Format(time.RFC3339)
	e := tournament.Errorf(tournament.KindConflict, tournament.CodeCorrectionWindowClosed,
		"the results of round %d are final: the correction window closed at %s; only the organizer can reopen them", w.Round, at)
	e.Details = map[string]any{"closed_at": at, "round": w.Round}
	return e
}

// RoundWindow is a round's window with the effective results it covers.
type RoundWindow struct {
	Window
	CorrectionMinutes int // the tournament's setting
	Status            ResultStatus
	Left              time.Duration
	Results           []tournament.GameResult
	Open              map[tournament.GameKey]int // open disputes per game
}

// Window returns round n's correction window and its results' status at
// the service's clock.
func (r *Service) Window(ctx context.Context, tid string, n int) (*RoundWindow, error) {
	st, err := r.store.RefereeState(ctx, tid)
	if err != nil {
		return nil, err
	}
	if _, err := play.FindRound(&st.State, n); err != nil {
		return nil, err
	}
	open, err := r.store.OpenDisputes(ctx, tid, n)
	if err != nil {
		return nil, err
	}
	now := r.svc.Now()
	w := windowOf(st, n)
	out := &RoundWindow{Window: w, CorrectionMinutes: st.CorrectionMinutes, Status: w.Status(now), Left: w.Left(now),
		Open: open}
	for _, res := range st.Results {
		if res.Key.Round == n {
			out.Results = append(out.Results, res)
		}
	}
	return out, nil
}

// SetCorrectionMinutes sets how long closed rounds stay provisional.
func (r *Service) SetCorrectionMinutes(ctx context.Context, a tournament.Actor, tid string, minutes int) error {
	if err := a.RequireOrganizer(); err != nil {
		return err
	}
	if minutes < 0 || minutes > tournament.MaxCorrectionMinutes {
		return tournament.InvalidField("correction_minutes", "correction_minutes must be between 0 and %d", tournament.MaxCorrectionMinutes)
	}
	return r.store.SetCorrectionMinutes(tournament.AuditAs(ctx, a), tid, minutes)
}

// MaxReopenings bounds how often one round's results may be reopened
// (issue 13: every reopening is a row each referee decision reads).
const MaxReopenings = 10

// Reopen reopens round n's results for disputes for minutes, with a
// reason. Only the organizer may, and only for a closed round.
func (r *Service) Reopen(ctx context.Context, a tournament.Actor, tid string, n, minutes int, reason string) (*Reopening, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	reason = strings.TrimSpace(reason)
	if err := tournament.CheckText("reason", reason); err != nil {
		return nil, err
	}
	if minutes < 1 || minutes > tournament.MaxCorrectionMinutes {
		return nil, tournament.InvalidField("minutes", "minutes must be between 1 and %d", tournament.MaxCorrectionMinutes)
	}
	now := r.svc.Now()
	ro := &Reopening{Round: n, Reason: reason, Until: now.Add(time.Duration(minutes) * time.Minute), By: a.AuditName(), CreatedAt: now}
	ctx = tournament.AuditBecause(ctx, a, reason)
	err := r.store.Reopen(ctx, tid, ro, func(st *State) error {
		rd, err := play.FindRound(&st.State, n)
		if err != nil {
			return err
		}
		if rd.Status != tournament.RoundClosed {
			return tournament.Errorf(tournament.KindConflict, tournament.CodeRoundOpen, "round %d is still open; its results are not final", n)
		}
		count := 0
		for _, ro := range st.Reopenings {
			if ro.Round == n {
				count++
			}
		}
		if count >= MaxReopenings {
			return tournament.Errorf(tournament.KindConflict, tournament.CodeTooManyReopenings,
				"round %d was already reopened %d times, the most a round may be; reopen it for longer instead", n, count)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ro, nil
}
