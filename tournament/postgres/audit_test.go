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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	es, err := e.referees.Audit(e.ctx, tid, tournament.AuditFilter{Kind: "registration", Limit: 10})
	if err != nil || len(es) != 1 {
		t.Fatalf("registration entries = %+v, %v; want 1", es, err)
	}
	if got := es[0]; got.Role != "referee" || got.Token != "referee:rx" || got.Reason != "why" || len(got.Players) != 1 || got.Before != nil {
		t.Errorf("entry = %+v, want by referee:rx with the reason, naming the player, no before", got)
	}
	sys, err := e.referees.Audit(e.ctx, tid, tournament.AuditFilter{Limit: 1})
	if err != nil || len(sys) != 1 || sys[0].Kind != "tournament_created" || sys[0].Role != "admin" {
		t.Errorf("first entry = %+v, %v; want the tournament created by the admin", sys, err)
	}
}

// TestDealAuditEntry: a deal's entry, written by its own trigger
// (migration 000300), is the entry the generic audit function writes for
// any other row: the same actor, kind, subject, operation, place, players
// and images, with the deal as stored but without its running state. A
// deal without an actor is refused as every other write.
func TestDealAuditEntry(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "T", Format: tournament.FormatSwiss, Rounds: intp(1)}, 4)
	tid := c.Tournament.ID
	r := e.mustDraw(t, tid, 1)
	k := tournament.GameKey{TournamentID: tid, Round: 1, Table: r.Tables[0].Number, Game: 1}
	ctx := tournament.WithAuditActor(e.ctx, tournament.AuditActor{Role: tournament.RoleTable, Token: "table:1", Reason: "entered"})
	e.mustAppendDeal(t, ctx, k, 0, `{"sheet":{"x":[2,0]}}`, `{"deals":1}`)
	// The same insert audited by the generic function, for comparison.
	for _, q := range []string{`ALTER TABLE game_deals DISABLE TRIGGER revisor_audit_insert`,
		`CREATE TRIGGER generic_insert AFTER INSERT ON game_deals FOR EACH ROW EXECUTE FUNCTION revisor_audit()`} {
		if _, err := e.pool.Exec(e.ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	e.mustAppendDeal(t, ctx, k, 1, `{"sheet":{"x":[2,0]}}`, `{"deals":2}`)
	var same, asStored bool
	var n int
	err := e.pool.QueryRow(e.ctx, `SELECT count(*),
		bool_and(row(a.tournament_id, a.actor_role, a.actor_token, a.reason, a.kind, a.subject, a.operation, a.round, a.table_no, a.players, a.before)
			IS NOT DISTINCT FROM row(g.tournament_id, g.actor_role, g.actor_token, g.reason, g.kind, g.subject, g.operation, g.round, g.table_no, g.players, g.before)
			AND a.after - 'seq' = g.after - 'seq'),
		bool_and(a.after = (SELECT to_jsonb(d) - 'state' FROM game_deals d WHERE d.tournament_id = $1 AND d.seq = 0)
			AND g.after = (SELECT to_jsonb(d) - 'state' FROM game_deals d WHERE d.tournament_id = $1 AND d.seq = 1))
		FROM audit_log a, audit_log g
		WHERE a.tournament_id = $1 AND g.tournament_id = $1 AND a.subject = 'game_deals' AND g.subject = 'game_deals'
			AND (a.after->>'seq')::int = 0 AND (g.after->>'seq')::int = 1`, tid).Scan(&n, &same, &asStored)
	if err != nil || n != 1 || !same || !asStored {
		t.Errorf("deal entries: %d pair(s), the same as the generic function's %v, the deal as stored without its state %v (%v); want 1, true, true",
			n, same, asStored, err)
	}
	es, err := e.referees.Audit(e.ctx, tid, tournament.AuditFilter{Kind: "deal", Limit: 10})
	if err != nil || len(es) != 2 || es[0].Role != "table" || es[0].Token != "table:1" || es[0].Reason != "entered" || es[0].Before != nil {
		t.Errorf("deal entries = %+v, %v; want 2, the first by table:1 with its reason", es, err)
	}
	_, err = e.pool.Exec(e.ctx, `INSERT INTO game_deals (tournament_id, round, table_no, game, seq, deal, created_at)
		VALUES ($1, 1, $2, 1, 2, '{}', now())`, tid, k.Table)
	if code := pgCode(err); code != "42501" {
		t.Errorf("a deal without an actor: %v (code %q), want refused with 42501", err, code)
	}
}
