package postgres_test

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/postgres"
)

// TestSubmitResultContract checks SubmitResult against what the Store
// interface says: the store decides under its lock that the round is open;
// closed only words the refusal of a round that is not, and nothing is
// stored then.
func TestSubmitResultContract(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Contract", Format: tournament.FormatSwiss, Rounds: intp(3)}, 8)
	tid := c.Tournament.ID
	rd := e.mustDraw(t, tid, 1)
	ctx := tournament.WithAuditActor(e.ctx, tournament.AuditActor{Role: tournament.RoleOrganizer, Token: "organizer", Reason: "contract"})
	result := func(table int, record string) *tournament.GameResult {
		places := []tournament.GamePlace{}
		for i, p := range rd.Tables[table-1].Players {
			places = append(places, tournament.GamePlace{Player: p, Place: i + 1, Score: 52 - i, Points: 3 - i})
		}
		return &tournament.GameResult{Key: tournament.GameKey{TournamentID: tid, Round: 1, Table: table, Game: 1},
			Kind: tournament.ResultSubmission, Record: []byte(record), RecordHash: []byte(record), Result: []byte(`{"valid":true}`),
			Places: places, SubmittedBy: "organizer", CreatedAt: t0}
	}
	calls := 0
	closed := func(r *tournament.Round) error {
		calls++
		return tournament.Errorf(tournament.KindConflict, tournament.CodeRoundClosed, "round %d is %s", r.Number, r.Status)
	}

	got, created, err := e.store.SubmitResult(ctx, result(1, `{"n":1}`), closed)
	if err != nil || !created || got.ID == 0 || calls != 0 {
		t.Fatalf("first SubmitResult = %+v, %v, %v (closed called %d times), want stored and created", got, created, err, calls)
	}
	again, created, err := e.store.SubmitResult(ctx, result(1, `{"n":2}`), closed)
	if err != nil || created || again.ID != got.ID || strings.ReplaceAll(string(again.Record), " ", "") != `{"n":1}` || calls != 0 {
		t.Fatalf("second SubmitResult = %+v, %v, %v, want the first result, not created, closed not called", again, created, err)
	}
	entries, err := e.referees.Audit(e.ctx, tid, tournament.AuditFilter{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(entries, func(a tournament.AuditEntry) bool { return a.Kind == "submission" })
	if i < 0 || entries[i].Role != "organizer" || entries[i].Token != "organizer" || entries[i].Reason != "contract" {
		t.Fatalf("audit of the submission = %+v, want the actor organizer/organizer/contract", entries)
	}

	setRoundStatus(t, e, tid, 1, "closed")
	_, _, err = e.store.SubmitResult(ctx, result(2, `{"n":3}`), closed)
	wantCode(t, "SubmitResult on a closed round", err, tournament.CodeRoundClosed)
	if calls != 1 || !strings.Contains(err.Error(), "round 1 is closed") {
		t.Errorf("closed called %d times, error %v; want once, with round 1 as read", calls, err)
	}
	_, _, err = e.store.SubmitResult(ctx, result(2, `{"n":3}`), func(*tournament.Round) error { return nil })
	wantCode(t, "SubmitResult on a closed round, closed returning nil", err, tournament.CodeRoundClosed)
	rs, err := e.store.Results(e.ctx, tid, 1)
	if err != nil || len(rs) != 1 {
		t.Errorf("results after refusals = %d, %v; want only the first", len(rs), err)
	}
	_, _, err = e.store.SubmitResult(ctx, func() *tournament.GameResult { r := result(1, `{}`); r.Key.Round = 9; return r }(), closed)
	wantCode(t, "SubmitResult in a round that does not exist", err, tournament.CodeRoundNotFound)
}

// setRoundStatus changes a round's status behind the service's back, as
// the system actor.
func setRoundStatus(t *testing.T, e *env, tid string, n int, status string) {
	t.Helper()
	err := e.store.WriteTx(e.ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(e.ctx, `UPDATE rounds SET status = $3 WHERE tournament_id = $1 AND number = $2`, tid, n, status)
		return err
	})
	if err != nil {
		t.Fatalf("set round %d %s: %v", n, status, err)
	}
}

// TestReadTxIsReadOnly checks that the store's snapshots cannot write (the
// database refuses) and need no audit actor, and that its writes tell the
// database who writes.
func TestReadTxIsReadOnly(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Read only", Format: tournament.FormatSwiss, Rounds: intp(3)}, 0)
	ctx := tournament.WithAuditActor(e.ctx, tournament.AuditActor{Role: tournament.RoleReferee, Token: "referee:7", Reason: "why"})
	err := e.store.ReadTx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE tournaments SET name = 'changed' WHERE id = $1`, c.Tournament.ID)
		return err
	})
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "25006" {
		t.Fatalf("write in ReadTx = %v, want SQLSTATE 25006 (read-only transaction)", err)
	}
	var role, token, reason string
	actor := func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, `SELECT current_setting('revisor.actor_role', true), current_setting('revisor.actor_token', true),
			current_setting('revisor.reason', true)`).Scan(&role, &token, &reason)
	}
	if err := e.store.ReadTx(ctx, actor); err != nil || role != "" {
		t.Errorf("ReadTx actor role = %q, %v; want none set", role, err)
	}
	if err := e.store.WriteTx(ctx, actor); err != nil || role != "referee" || token != "referee:7" || reason != "why" {
		t.Errorf("WriteTx actor = %q %q %q, %v; want referee referee:7 why", role, token, reason, err)
	}
	got, err := e.store.Tournament(e.ctx, c.Tournament.ID)
	if err != nil || got.Name != "Read only" {
		t.Errorf("tournament after the refused write = %+v, %v; want it unchanged", got, err)
	}
}

// TestSubmitResultSQLParameters checks that the submission statement uses
// its own parameters and the audit actor's three after them, each once
// numbered, so the arguments line up.
func TestSubmitResultSQLParameters(t *testing.T) {
	t.Parallel()
	var nums []int
	for _, m := range regexp.MustCompile(`\$(\d+)`).FindAllStringSubmatch(postgres.SubmitResultSQL, -1) {
		n, _ := strconv.Atoi(m[1])
		if !slices.Contains(nums, n) {
			nums = append(nums, n)
		}
	}
	slices.Sort(nums)
	want := make([]int, postgres.SubmitResultParams+3)
	for i := range want {
		want[i] = i + 1
	}
	if !slices.Equal(nums, want) {
		t.Errorf("parameters of the submission statement = %v, want $1..$%d", nums, len(want))
	}
	for i, setting := range []string{"actor_role", "actor_token", "reason"} {
		p := fmt.Sprintf("'revisor.%s', $%d", setting, postgres.SubmitResultParams+1+i)
		if !strings.Contains(postgres.SubmitResultSQL, p) {
			t.Errorf("submission statement does not set %s from $%d", setting, postgres.SubmitResultParams+1+i)
		}
	}
}
