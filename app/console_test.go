package app_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/referee"
)

// draws is a round store that counts its draws, closes and ties
// resolved and refuses, as the domain does, any actor but the organizer.
type draws struct {
	n, closed, ties int
	swaps           int // a swap done again swaps back
	left            map[string]bool
}

func (d *draws) WithdrawDuringGame(_ context.Context, a tournament.Actor, _ string, n, t int, w play.Withdrawal) (*tournament.GameWithdrawal, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	if d.left[w.Player] {
		return nil, tournament.Errorf(tournament.KindConflict, "player_left", "%s has left", w.Player)
	}
	if d.left == nil {
		d.left = map[string]bool{}
	}
	d.left[w.Player] = true
	return &tournament.GameWithdrawal{Player: w.Player, Round: n, Table: t}, nil
}

// rulings rules each dispute once; a second ruling is refused.
type rulings struct{ ruled map[int64]bool }

func (r *rulings) Rule(_ context.Context, _ tournament.Actor, _ string, id int64, _ referee.NewRuling) (*referee.RulingChange, error) {
	if r.ruled[id] {
		return nil, tournament.Errorf(tournament.KindConflict, "dispute_ruled", "dispute %d is ruled", id)
	}
	if r.ruled == nil {
		r.ruled = map[int64]bool{}
	}
	r.ruled[id] = true
	return &referee.RulingChange{}, nil
}

func (d *draws) ReseatTable(_ context.Context, a tournament.Actor, _ string, n int, rs play.Reseat) (*tournament.Round, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	d.swaps++
	return &tournament.Round{Number: n}, nil
}

func (d *draws) ResolveTie(_ context.Context, a tournament.Actor, _ string, n int, players []string, method, note string) (*tournament.TieResolution, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	if len(players) < 2 {
		return nil, tournament.InvalidField("players", "a tie has two players or more")
	}
	d.ties++
	return &tournament.TieResolution{ID: int64(100 + d.ties), Round: n, Players: players, Method: method, Note: note}, nil
}

// registry registers players and counts them.
type registry struct {
	players []tournament.Player
	rounds  int // the settings' rounds
}

func (r *registry) AddPlayers(_ context.Context, a tournament.Actor, _ string, ps []tournament.NewPlayer) ([]tournament.Player, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	var out []tournament.Player
	for _, p := range ps {
		if p.Name == "" {
			return nil, tournament.InvalidField("name", "a player has a name")
		}
		out = append(out, tournament.Player{ID: p.Name, Name: p.Name})
	}
	r.players = append(r.players, out...)
	return out, nil
}

func (r *registry) DeletePlayer(_ context.Context, a tournament.Actor, _, pid string) error {
	if err := a.RequireOrganizer(); err != nil {
		return err
	}
	for i, p := range r.players {
		if p.ID == pid {
			r.players = append(r.players[:i], r.players[i+1:]...)
			return nil
		}
	}
	return tournament.Errorf(tournament.KindNotFound, tournament.CodePlayerNotFound, "player %q not found", pid)
}

func (r *registry) UpdatePlayer(_ context.Context, a tournament.Actor, _, pid string, u tournament.PlayerUpdate) (tournament.Player, error) {
	if err := a.RequireOrganizer(); err != nil {
		return tournament.Player{}, err
	}
	for i, p := range r.players {
		if p.ID == pid {
			if u.Status != nil {
				r.players[i].Status = *u.Status
			}
			return r.players[i], nil
		}
	}
	return tournament.Player{}, tournament.Errorf(tournament.KindNotFound, tournament.CodePlayerNotFound, "player %q not found", pid)
}

func (r *registry) UpdateSettings(_ context.Context, a tournament.Actor, tid string, c tournament.SettingsChange) (*tournament.Tournament, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	r.rounds = *c.Rounds
	return &tournament.Tournament{ID: tid, Settings: tournament.Settings{Rounds: r.rounds}}, nil
}

// clock adds the minutes of each action to its total.
type clock struct{ minutes, actions int }

func (k *clock) SetRoundClock(_ context.Context, a tournament.Actor, _ string, _ int, act play.ClockAction) (*tournament.Clock, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	k.minutes += act.Minutes
	k.actions++
	return &tournament.Clock{}, nil
}

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
	c := app.NewConsole(app.ConsoleServices{Rounds: d}, app.NewOnce(newMemKeys(), nil))
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
	c := app.NewConsole(app.ConsoleServices{Rounds: d}, app.NewOnce(newMemKeys(), nil))
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

// TestConsoleCommandsOnce: registering players, resolving a tie, swapping
// two players, a withdrawal, a ruling and adding time, each sent twice under one key, are done once and the second is
// answered as the first (Replayed, without what the call did); without a
// key the same command is done again; a refusal is answered again under
// its key and does nothing.
func TestConsoleCommandsOnce(t *testing.T) {
	ctx := context.Background()
	d, reg, clk := &draws{}, &registry{}, &clock{}
	rul := &rulings{}
	c := app.NewConsole(app.ConsoleServices{Rounds: d, Clock: clk, Players: reg, Rulings: rul}, app.NewOnce(newMemKeys(), nil))
	org := tournament.Actor{Role: tournament.RoleOrganizer}
	key := func(k string) *app.Key { return &app.Key{Scope: "console", Key: k, Fingerprint: []byte(k)} }
	add := func(name string, k *app.Key) (*app.Registered, error) {
		return c.AddPlayers(ctx, app.AddPlayers{Actor: org, Tournament: "t", Players: []tournament.NewPlayer{{Name: name}, {Name: name + "2"}}, Key: k})
	}
	for try, replayed := range []bool{false, true} {
		t.Run("", func(t *testing.T) {
			r, err := add("Ann", key("add"))
			if err != nil || r.Count != 2 || r.Replayed != replayed || (r.Players != nil) == replayed {
				t.Fatalf("players, try %d = %+v, %v; want 2, replayed %v", try+1, r, err, replayed)
			}
			tie, err := c.ResolveTie(ctx, app.ResolveTie{Actor: org, Tournament: "t", Round: 1, Players: []string{"a", "b"}, Method: "lot", Key: key("tie")})
			if err != nil || tie.ID != 101 || tie.Replayed != replayed || (tie.Record != nil) == replayed {
				t.Fatalf("tie, try %d = %+v, %v; want resolution 101, replayed %v", try+1, tie, err, replayed)
			}
			rs, err := c.Reseat(ctx, app.Reseat{Actor: org, Tournament: "t", Round: 1, Reseat: play.Reseat{Player: "a", With: "b"}, Key: key("swap")})
			if err != nil || rs.Replayed != replayed || (rs.Result != nil) == replayed {
				t.Fatalf("swap, try %d = %+v, %v; want replayed %v", try+1, rs, err, replayed)
			}
			w, err := c.Withdraw(ctx, app.Withdraw{Actor: org, Tournament: "t", Round: 1, Table: 2,
				Withdrawal: play.Withdrawal{Player: "a", Handling: "forfeit", Reason: "ill"}, Key: key("withdraw")})
			if err != nil || w.Replayed != replayed || (w.Result != nil) == replayed {
				t.Fatalf("withdraw, try %d = %+v, %v; want replayed %v", try+1, w, err, replayed)
			}
			ru, err := c.Rule(ctx, app.Rule{Actor: org, Tournament: "t", Dispute: 7, Ruling: referee.NewRuling{Decision: "rejected", Reason: "as played"}, Key: key("rule")})
			if err != nil || ru.Replayed != replayed || (ru.Result != nil) == replayed {
				t.Fatalf("ruling, try %d = %+v, %v; want replayed %v", try+1, ru, err, replayed)
			}
			set, err := c.SetClock(ctx, app.SetClock{Actor: org, Tournament: "t", Round: 1, Action: play.ClockAction{Action: "add", Minutes: 5}, Key: key("clock")})
			if err != nil || set.Replayed != replayed || (set.Result != nil) == replayed {
				t.Fatalf("clock, try %d = %+v, %v; want replayed %v", try+1, set, err, replayed)
			}
		})
	}
	if len(reg.players) != 2 || d.ties != 1 || d.swaps != 1 || clk.minutes != 5 {
		t.Errorf("sent twice under their keys: %d players, %d ties, %d swaps, %d minutes; want 2, 1, 1, 5", len(reg.players), d.ties, d.swaps, clk.minutes)
	}
	if _, err := add("Bo", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.SetClock(ctx, app.SetClock{Actor: org, Tournament: "t", Round: 1, Action: play.ClockAction{Action: "add", Minutes: 5}}); err != nil {
		t.Fatal(err)
	}
	if len(reg.players) != 4 || clk.minutes != 10 {
		t.Errorf("again without keys: %d players, %d minutes; want 4, 10", len(reg.players), clk.minutes)
	}
	// A deletion sent again under its key is answered as the first; without
	// it, the player is not found.
	for try, replayed := range []bool{false, true} {
		if got, err := c.DeletePlayer(ctx, app.DeletePlayer{Actor: org, Tournament: "t", Player: "Bo", Key: key("delete")}); err != nil || got != replayed {
			t.Errorf("delete, try %d = %v, %v; want replayed %v", try+1, got, err, replayed)
		}
	}
	if _, err := c.DeletePlayer(ctx, app.DeletePlayer{Actor: org, Tournament: "t", Player: "Bo"}); tournament.ErrorCode(err) != tournament.CodePlayerNotFound {
		t.Errorf("delete again without the key = %v, want %s", err, tournament.CodePlayerNotFound)
	}
	if len(reg.players) != 3 {
		t.Errorf("%d players after one of 4 deleted, want 3", len(reg.players))
	}
	for try := range 2 {
		_, err := add("", key("bad"))
		if te, ok := err.(*tournament.Error); !ok || te.Field() != "name" || te.Kind != tournament.KindInvalid {
			t.Errorf("a player without a name, try %d = %v; want invalid on the field name", try+1, err)
		}
		_, err = c.SetClock(ctx, app.SetClock{Actor: tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: 1}, Tournament: "t", Round: 1,
			Action: play.ClockAction{Action: "add", Minutes: 5}, Key: key("table")})
		if te, ok := err.(*tournament.Error); !ok || te.Kind != tournament.KindForbidden {
			t.Errorf("a table's clock, try %d = %v; want forbidden", try+1, err)
		}
	}
	if len(reg.players) != 3 || clk.actions != 2 {
		t.Errorf("after the refusals: %d players, %d clock actions; want 3, 2", len(reg.players), clk.actions)
	}
}

// TestConsoleSetsOnce: a player's status and the settings sent again late
// under their form's key are answered as the first time and do not set
// back a change made since under another key; without a key, they would.
func TestConsoleSetsOnce(t *testing.T) {
	ctx := context.Background()
	reg := &registry{players: []tournament.Player{{ID: "ann", Name: "Ann", Status: tournament.PlayerActive}}}
	c := app.NewConsole(app.ConsoleServices{Players: reg}, app.NewOnce(newMemKeys(), nil))
	org := tournament.Actor{Role: tournament.RoleOrganizer}
	key := func(k string) *app.Key { return &app.Key{Scope: "console", Key: k, Fingerprint: []byte(k)} }
	status := func(s tournament.PlayerStatus, k *app.Key) (*app.PlayerUpdated, error) {
		return c.UpdatePlayer(ctx, app.UpdatePlayer{Actor: org, Tournament: "t", Player: "ann", Update: tournament.PlayerUpdate{Status: &s}, Key: k})
	}
	rounds := func(n int, k *app.Key) (*app.SettingsUpdated, error) {
		return c.UpdateSettings(ctx, app.UpdateSettings{Actor: org, Tournament: "t", Change: tournament.SettingsChange{Rounds: &n}, Key: k})
	}
	if u, err := status(tournament.PlayerWithdrawn, key("out")); err != nil || u.Replayed || u.Result.Status != tournament.PlayerWithdrawn {
		t.Fatalf("withdrawn = %+v, %v", u, err)
	}
	if _, err := status(tournament.PlayerActive, key("back")); err != nil {
		t.Fatal(err)
	}
	if u, err := status(tournament.PlayerWithdrawn, key("out")); err != nil || !u.Replayed || reg.players[0].Status != tournament.PlayerActive {
		t.Errorf("the first form sent again late = %+v, %v, the player %s; want it replayed and the player active", u, err, reg.players[0].Status)
	}
	if _, err := rounds(5, key("five")); err != nil {
		t.Fatal(err)
	}
	if _, err := rounds(7, key("seven")); err != nil {
		t.Fatal(err)
	}
	if u, err := rounds(5, key("five")); err != nil || !u.Replayed || reg.rounds != 7 {
		t.Errorf("the first settings sent again late = %+v, %v, %d rounds; want it replayed and 7 rounds", u, err, reg.rounds)
	}
	if _, err := rounds(5, nil); err != nil || reg.rounds != 5 {
		t.Errorf("without a key: %v, %d rounds; want 5", err, reg.rounds)
	}
}

// referees issues referee tokens, each with a new secret.
type referees struct{ issued []referee.IssuedRefereeToken }

func (r *referees) IssueToken(_ context.Context, _ tournament.Actor, tid, name string) (*referee.IssuedRefereeToken, error) {
	if name == "" {
		return nil, tournament.InvalidField("name", "a referee needs a name")
	}
	tok := referee.IssuedRefereeToken{RefereeToken: referee.RefereeToken{ID: fmt.Sprint(len(r.issued) + 1), TournamentID: tid, Name: name},
		Token: fmt.Sprintf("secret-%d", len(r.issued)+1)}
	r.issued = append(r.issued, tok)
	return &tok, nil
}

// TestConsoleIssuesRefereeTokenOnce: the referee-token form sent twice
// under its key makes one token and shows its secret both times; the
// answer kept opens only with the session's credential (the secret is not
// in it in the clear), so the same key from another session is refused;
// a key without a credential is refused before anything is made.
func TestConsoleIssuesRefereeTokenOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	refs := &referees{}
	keys := newMemKeys()
	c := app.NewConsole(app.ConsoleServices{Referees: refs}, app.NewOnce(keys, nil))
	org := tournament.Actor{Role: tournament.RoleOrganizer}
	issue := func(name string, k *app.Key) (*app.RefereeTokenIssued, error) {
		return c.IssueRefereeToken(ctx, app.IssueRefereeToken{Actor: org, Tournament: "t", Name: name, Key: k})
	}
	key := func(cred string) *app.Key {
		return &app.Key{Scope: "console", Key: "k1", Fingerprint: []byte("name=Domaren"), Credential: cred}
	}
	first, err := issue("Domaren", key("session-a"))
	if err != nil || first.Replayed || first.Result.Token != "secret-1" {
		t.Fatalf("first = %+v, %v; want secret-1 made now", first, err)
	}
	again, err := issue("Domaren", key("session-a"))
	if err != nil || !again.Replayed || again.Result.Token != "secret-1" || again.Result.Name != "Domaren" {
		t.Errorf("sent again = %+v, %v; want secret-1 replayed", again, err)
	}
	if len(refs.issued) != 1 {
		t.Errorf("%d tokens made by the form sent twice, want 1", len(refs.issued))
	}
	kept := keys.claims["console k1"].answer
	if kept == nil || bytes.Contains(kept, []byte("secret-1")) || bytes.Contains(kept, []byte("Domaren")) {
		t.Errorf("the kept answer %q holds the token in the clear", kept)
	}
	if got, err := issue("Domaren", key("session-b")); got != nil || err == nil {
		t.Errorf("the key from another session = %+v, %v; want it refused", got, err)
	}
	if got, err := issue("Domaren", &app.Key{Scope: "console", Key: "k2", Fingerprint: []byte("x")}); got != nil || err == nil {
		t.Errorf("a key without a credential = %+v, %v; want it refused", got, err)
	}
	for try := range 2 {
		got, err := issue("", &app.Key{Scope: "console", Key: "k3", Fingerprint: []byte("name="), Credential: "session-a"})
		if te, ok := err.(*tournament.Error); got != nil || !ok || te.Field() != "name" {
			t.Errorf("no name, try %d = %+v, %v; want refused on the field name", try+1, got, err)
		}
	}
	if len(refs.issued) != 1 {
		t.Errorf("%d tokens made in all, want 1", len(refs.issued))
	}
}
