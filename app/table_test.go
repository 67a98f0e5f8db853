package app_test

import (
	"context"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/referee"
)

// games is a fake app.Games that counts what reaches the domain.
type games struct{ calls int }

func (g *games) SubmitGameIn(context.Context, tournament.Wrap, tournament.Actor, tournament.GameKey, []byte) (*play.Submission, error) {
	g.calls++
	return &play.Submission{Created: true}, nil
}
func (g *games) AppendDealIn(context.Context, tournament.Wrap, tournament.Actor, tournament.GameKey, int, []byte) (*tournament.DealProgress, error) {
	g.calls++
	return &tournament.DealProgress{Deal: 1}, nil
}
func (g *games) CorrectDealIn(context.Context, tournament.Wrap, tournament.Actor, tournament.GameKey, int, []byte, string) (*tournament.CorrectedDeal, error) {
	g.calls++
	return &tournament.CorrectedDeal{Version: 2}, nil
}
func (g *games) ConfirmGameIn(context.Context, tournament.Wrap, tournament.Actor, tournament.GameKey, string) (*tournament.Confirmed, error) {
	g.calls++
	return &tournament.Confirmed{}, nil
}
func (g *games) TableGame(context.Context, tournament.GameKey) (*tournament.TableGame, error) {
	return &tournament.TableGame{}, nil
}
func (g *games) RoundClock(context.Context, string, int) (*tournament.Clock, error) {
	end := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	return &tournament.Clock{Round: 1, State: tournament.ClockRunning, EndsAt: &end}, nil
}
func (g *games) Now() time.Time { return time.Date(2026, 1, 1, 11, 58, 59, 500_000_000, time.UTC) }

type disputes struct{ calls int }

func (d *disputes) OpenDisputeVia(context.Context, referee.OpenVia, tournament.Actor, string, referee.NewDispute) (*referee.Dispute, error) {
	d.calls++
	return &referee.Dispute{}, nil
}

// TestTableChecksText: text PostgreSQL cannot store, or that decoding
// would change, is refused before it reaches the domain, whichever adapter
// built the command.
func TestTableChecksText(t *testing.T) {
	g, d := &games{}, &disputes{}
	tb := app.NewTable(g, d)
	ctx := context.Background()
	bad := []byte(`{"sheet":{"p1":{"hand1":2}},"note":"a\u0000b"}`)
	if _, err := tb.EnterDeal(ctx, app.EnterDeal{Data: bad}); tournament.ErrorCode(err) != tournament.CodeInvalidText {
		t.Errorf("EnterDeal(NUL) = %v, want %s", err, tournament.CodeInvalidText)
	}
	if _, err := tb.CorrectDeal(ctx, app.CorrectDeal{Data: bad, Reason: "typo"}); tournament.ErrorCode(err) != tournament.CodeInvalidText {
		t.Errorf("CorrectDeal(NUL) = %v, want %s", err, tournament.CodeInvalidText)
	}
	if _, err := tb.SubmitGame(ctx, app.SubmitGame{Record: bad}); tournament.ErrorCode(err) != tournament.CodeInvalidText {
		t.Errorf("SubmitGame(NUL) = %v, want %s", err, tournament.CodeInvalidText)
	}
	if _, err := tb.OpenDispute(ctx, app.OpenDispute{Dispute: referee.NewDispute{Record: bad}}); tournament.ErrorCode(err) != tournament.CodeInvalidText {
		t.Errorf("OpenDispute(NUL) = %v, want %s", err, tournament.CodeInvalidText)
	}
	if g.calls != 0 || d.calls != 0 {
		t.Errorf("%d and %d calls reached the domain, want none", g.calls, d.calls)
	}
	good := []byte(`{"sheet":{"p1":{"hand1":2}}}`)
	if _, err := tb.EnterDeal(ctx, app.EnterDeal{Data: good}); err != nil || g.calls != 1 {
		t.Errorf("EnterDeal(good) = %v after %d calls, want it entered", err, g.calls)
	}
}

// TestCorrectDealNeedsADeal: a correction without a deal is refused.
func TestCorrectDealNeedsADeal(t *testing.T) {
	g := &games{}
	tb := app.NewTable(g, &disputes{})
	for _, data := range []string{"", "null"} {
		if _, err := tb.CorrectDeal(context.Background(), app.CorrectDeal{Data: []byte(data), Reason: "typo"}); tournament.ErrorCode(err) != tournament.CodeInvalidDeal {
			t.Errorf("CorrectDeal(%q) = %v, want %s", data, err, tournament.CodeInvalidDeal)
		}
	}
	if g.calls != 0 {
		t.Errorf("%d corrections reached the domain, want none", g.calls)
	}
}

// TestRoundClockReading: the seconds left are counted at the server's
// time, rounded up.
func TestRoundClockReading(t *testing.T) {
	r, err := app.NewTable(&games{}, &disputes{}).RoundClock(context.Background(), app.RoundClock{Tournament: "t", Round: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.RemainingSeconds(); got != 61 {
		t.Errorf("RemainingSeconds() = %d, want 61 (60.5 s rounded up)", got)
	}
}
