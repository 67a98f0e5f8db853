package postgres_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/revisor-sm/revisor/tournament"
)

func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

func auditCount(t *testing.T, e *env) int {
	t.Helper()
	var n int
	if err := e.pool.QueryRow(e.ctx, `SELECT count(*) FROM audit_log`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestAuditLogIsAppendOnly tries to change and delete audit entries with
// the application's own connection: the database refuses.
func TestAuditLogIsAppendOnly(t *testing.T) {
	e := newEnv(t)
	e.mustTournament(t, tournament.NewTournament{Name: "T", Format: tournament.FormatSM}, 4)
	before := auditCount(t, e)
	if before < 5 {
		t.Fatalf("audit entries = %d after creating a tournament with 4 players, want ≥ 5", before)
	}
	for _, q := range []string{
		`UPDATE audit_log SET actor_role = 'nobody'`,
		`UPDATE audit_log SET after = NULL WHERE kind = 'registration'`,
		`DELETE FROM audit_log`,
		`DELETE FROM audit_log WHERE id = (SELECT max(id) FROM audit_log)`,
		`TRUNCATE audit_log`,
	} {
		_, err := e.pool.Exec(e.ctx, q)
		if code := pgCode(err); code != "42501" {
			t.Errorf("%s: error %v (code %q), want insufficient_privilege 42501", q, err, code)
		}
	}
	if after := auditCount(t, e); after != before {
		t.Errorf("audit entries = %d after the refused statements, want %d", after, before)
	}
}

// TestAuditNeedsAnActor: a write that does not say who makes it is refused.
func TestAuditNeedsAnActor(t *testing.T) {
	e := newEnv(t)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "T", Format: tournament.FormatSM}, 0)
	_, err := e.pool.Exec(e.ctx, `INSERT INTO players (tournament_id, id, seq, name, status, created_at)
		VALUES ($1, 'p9', 9, 'Sneaky', 'active', now())`, c.Tournament.ID)
	if code := pgCode(err); code != "42501" {
		t.Fatalf("insert without an actor: %v (code %q), want refused with 42501", err, code)
	}
	ps, err := e.svc.Players(e.ctx, c.Tournament.ID)
	if err != nil || len(ps) != 0 {
		t.Errorf("players = %v, %v; want none", ps, err)
	}
}

// TestAuditInSameTransaction: a change that rolls back leaves no entry, and
// each entry names the actor the context carried.
func TestAuditInSameTransaction(t *testing.T) {
	e := newEnv(t)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "T", Format: tournament.FormatSM}, 0)
	tid := c.Tournament.ID
	n := auditCount(t, e)
	// The check refuses after the tournament row is locked: nothing is written.
	_, err := e.store.AddPlayers(e.ctx, tid, func(*tournament.Tournament, int) error {
		return tournament.Errorf(tournament.KindConflict, "closed", "closed")
	}, []tournament.NewPlayer{{Name: "A"}}, t0)
	wantCode(t, "AddPlayers refused", err, "closed")
	if got := auditCount(t, e); got != n {
		t.Errorf("audit entries = %d after a refused write, want %d", got, n)
	}
	ctx := tournament.WithAuditActor(context.Background(), tournament.AuditActor{Role: tournament.RoleReferee, Token: "referee:rx", Reason: "why"})
	if _, err := e.store.AddPlayers(ctx, tid, func(*tournament.Tournament, int) error { return nil }, []tournament.NewPlayer{{Name: "A"}}, t0); err != nil {
		t.Fatal(err)
	}
	es, err := e.store.Audit(e.ctx, tid, tournament.AuditFilter{Kind: "registration", Limit: 10})
	if err != nil || len(es) != 1 {
		t.Fatalf("registration entries = %+v, %v; want 1", es, err)
	}
	if got := es[0]; got.Role != "referee" || got.Token != "referee:rx" || got.Reason != "why" || len(got.Players) != 1 || got.Before != nil {
		t.Errorf("entry = %+v, want by referee:rx with the reason, naming the player, no before", got)
	}
	sys, err := e.store.Audit(e.ctx, tid, tournament.AuditFilter{Limit: 1})
	if err != nil || len(sys) != 1 || sys[0].Kind != "tournament_created" || sys[0].Role != "admin" {
		t.Errorf("first entry = %+v, %v; want the tournament created by the admin", sys, err)
	}
}
