package app_test

import (
	"context"
	"testing"

	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
)

// draws is a round store that counts its draws and closes and refuses,
// as the domain does, any actor but the organizer.
type draws struct{ n, closed int }

func (d *draws) CloseRound(_ context.Context, a tournament.Actor, _ string, n int, _ ...play.CloseOption) (*tournament.RoundChange, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	if n <= d.closed {
		return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeRoundClosed, "round %d is closed", n)
	}
	d.closed = n
	return &tournament.RoundChange{}, nil
}

func (d *draws) DrawRoundWith(_ context.Context, a tournament.Actor, _ string, o tournament.DrawOptions) (*tournament.Round, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	if seed := o.Seed; seed != nil && *seed < 0 {
		return nil, tournament.InvalidField("seed", "seed must be between 0 and 2^53-1")
	}
	d.n++
	return &tournament.Round{Number: d.n}, nil
}

// TestDrawRoundOnce: a draw sent twice under its key draws once and is
// answered as the first time; a refusal (a bad seed, the wrong role) is
// kept under its key and answered again as the domain's typed error, with
// its kind, code and field.
func TestDrawRoundOnce(t *testing.T) {
	ctx := context.Background()
	d := &draws{}
	c := app.NewConsole(d, app.NewOnce(newMemKeys(), nil))
	org := tournament.Actor{Role: tournament.RoleOrganizer}
	seed := int64(42)
	key := func(k string) *app.Key { return &app.Key{Scope: "console", Key: k, Fingerprint: []byte(k)} }
	for try, replayed := range []bool{false, true} {
		got, err := c.DrawRound(ctx, app.DrawRound{Actor: org, Tournament: "t", Options: tournament.DrawOptions{Seed: &seed}, Key: key("draw")})
		if err != nil || got.Round != 1 || got.Replayed != replayed {
			t.Fatalf("draw, try %d = %+v, %v; want round 1, replayed %v", try+1, got, err, replayed)
		}
		if drew := got.Drawn != nil && got.Drawn.Number == 1; drew == replayed {
			t.Errorf("draw, try %d: the round drawn is %+v; want round 1 with its tables when drawn, none when replayed", try+1, got.Drawn)
		}
	}
	if d.n != 1 {
		t.Errorf("%d draws for one sent twice under its key, want 1", d.n)
	}
	if got, err := c.DrawRound(ctx, app.DrawRound{Actor: org, Tournament: "t", Options: tournament.DrawOptions{Seed: &seed}}); err != nil || got.Round != 2 {
		t.Errorf("a draw without a key = %+v, %v; want round 2", got, err)
	}

	bad := int64(-1)
	for try := range 2 {
		_, err := c.DrawRound(ctx, app.DrawRound{Actor: org, Tournament: "t", Options: tournament.DrawOptions{Seed: &bad}, Key: key("bad")})
		if te, ok := err.(*tournament.Error); !ok || te.Code != "invalid_seed" || te.Field() != "seed" || te.Kind != tournament.KindInvalid {
			t.Errorf("a bad seed, try %d = %v, want invalid_seed on the field seed", try+1, err)
		}
	}
	table := tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: 1}
	for try := range 2 {
		_, err := c.DrawRound(ctx, app.DrawRound{Actor: table, Tournament: "t", Key: key("table")})
		if te, ok := err.(*tournament.Error); !ok || te.Kind != tournament.KindForbidden {
			t.Errorf("a table's draw, try %d = %v, want forbidden", try+1, err)
		}
	}
	if d.n != 2 {
		t.Errorf("%d draws, want 2 (the refusals drew nothing)", d.n)
	}
}

// TestCloseRoundOnce: a close sent twice under its key closes once and is
// answered as the first time (without the key, the second is refused:
// the round is closed); the wrong role is refused.
func TestCloseRoundOnce(t *testing.T) {
	ctx := context.Background()
	d := &draws{}
	c := app.NewConsole(d, app.NewOnce(newMemKeys(), nil))
	org := tournament.Actor{Role: tournament.RoleOrganizer}
	k := &app.Key{Scope: "console", Key: "close", Fingerprint: []byte("close")}
	if _, err := c.CloseRound(ctx, app.CloseRound{Actor: tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: 1},
		Tournament: "t", Round: 1, Key: &app.Key{Scope: "console", Key: "table"}}); tournament.ErrorCode(err) == "" {
		t.Errorf("a table's close = %v, want a refusal", err)
	}
	for try, replayed := range []bool{false, true} {
		got, err := c.CloseRound(ctx, app.CloseRound{Actor: org, Tournament: "t", Round: 1, AskLots: true, Key: k})
		if err != nil || got.Round != 1 || got.Replayed != replayed {
			t.Fatalf("close, try %d = %+v, %v; want round 1, replayed %v", try+1, got, err, replayed)
		}
		if (got.Change != nil) == replayed {
			t.Errorf("close, try %d: the change is %+v; want what the close decided when closed, none when replayed", try+1, got.Change)
		}
	}
	if _, err := c.CloseRound(ctx, app.CloseRound{Actor: org, Tournament: "t", Round: 1}); tournament.ErrorCode(err) != tournament.CodeRoundClosed {
		t.Errorf("closing again without the key = %v, want %s", err, tournament.CodeRoundClosed)
	}
}
