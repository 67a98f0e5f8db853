package postgres_test

import (
	"testing"
	"time"

	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// startListener runs a listener over e's database feeding a broker, until
// the test ends.
func startListener(t *testing.T, e *env) *tournament.Broker {
	t.Helper()
	b := tournament.NewBroker()
	dbtest.Listen(t, e.pool, b.Publish)
	return b
}

// nextEvent waits for an event of kind on ch.
func nextEvent(t *testing.T, ch <-chan tournament.Event, kind string) tournament.Event {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case e := <-ch:
			if e.Kind == kind {
				return e
			}
		case <-deadline:
			t.Fatalf("no %q event within 5s", kind)
		}
	}
}

// TestListenerDeliversChanges checks that the triggers of migration 000010
// announce players, rounds and results, and that a subscriber hears only
// its own tournament.
func TestListenerDeliversChanges(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b := startListener(t, e)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Live", Format: tournament.FormatSM}, 0)
	other, _ := e.mustTournament(t, tournament.NewTournament{Name: "Other", Format: tournament.FormatSM}, 0)
	tid := c.Tournament.ID
	ch, stop := b.Subscribe(tid)
	defer stop()

	if _, err := e.svc.AddPlayers(e.ctx, org, other.Tournament.ID, []tournament.NewPlayer{{Name: "X"}}); err != nil {
		t.Fatal(err)
	}
	_, err := e.svc.AddPlayers(e.ctx, org, tid, []tournament.NewPlayer{{Name: "A"}, {Name: "B"}, {Name: "C"}, {Name: "D"}})
	if err != nil {
		t.Fatal(err)
	}
	if ev := nextEvent(t, ch, "players"); ev.Tournament != tid {
		t.Fatalf("players event tournament = %q, want %q", ev.Tournament, tid)
	}
	select {
	case ev := <-ch:
		t.Fatalf("second event after one import = %+v, want none (one notification per transaction)", ev)
	case <-time.After(200 * time.Millisecond):
	}
	r := e.mustDraw(t, tid, 7)
	if ev := nextEvent(t, ch, "rounds"); ev.Round != 1 {
		t.Fatalf("rounds event round = %d, want 1", ev.Round)
	}
	tb := r.Tables[0]
	rec := tournamenttest.TimedGame(tb.Players, tb.FirstDealer, map[string]map[string]int{tb.Players[0]: {"last_trick": 5}})
	e.mustSubmit(t, tournament.GameKey{TournamentID: tid, Round: 1, Table: 1, Game: 1}, rec)
	ev := nextEvent(t, ch, "game_results")
	if ev.Round != 1 || ev.Table != 1 || ev.Tournament != tid {
		t.Fatalf("game_results event = %+v, want round 1 table 1 of %s", ev, tid)
	}
}

// TestListenerReconnects kills the listener's connection and checks that
// it comes back, announces a resync and delivers later changes.
func TestListenerReconnects(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b := startListener(t, e)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Live", Format: tournament.FormatSM}, 0)
	ch, stop := b.Subscribe(c.Tournament.ID)
	defer stop()
	tag, err := e.pool.Exec(e.ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid() AND query ILIKE 'LISTEN%'`)
	if err != nil {
		t.Fatal(err)
	}
	if tag.RowsAffected() != 1 {
		t.Fatalf("terminated %d listening backends, want 1", tag.RowsAffected())
	}
	nextEvent(t, ch, "resync")
	if _, err := e.svc.AddPlayers(e.ctx, org, c.Tournament.ID, []tournament.NewPlayer{{Name: "A"}}); err != nil {
		t.Fatal(err)
	}
	nextEvent(t, ch, "players")
}
