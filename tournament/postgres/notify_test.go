package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/revisor-sm/revisor/tournament"
)

// TestNotifyPayloads checks the payload that revisor_notify_change
// (migration 000010, reused by 000021) sends for a change of each table it
// watches: the tables of 000010 read their columns directly, later tables
// take the generic branch; both must give the same JSON the listener
// decodes.
func TestNotifyPayloads(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, ps := e.mustTournament(t, tournament.NewTournament{Name: "Notify", Format: tournament.FormatSwiss, Rounds: intp(2)}, 12)
	tid := c.Tournament.ID
	e.mustDraw(t, tid, 1)
	conn, err := e.pool.Acquire(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	if _, err := conn.Exec(e.ctx, "LISTEN revisor_events"); err != nil {
		t.Fatal(err)
	}
	var disputeID, rulingID int64
	tests := []struct {
		change string
		sql    string
		args   []any
		want   string // the payload, keys sorted
	}{
		{"tournament updated", `UPDATE tournaments SET name = name || '!' WHERE id = $1`, []any{tid},
			`{"kind":"tournaments","round":null,"table":null,"tournament":"%s"}`},
		{"player updated", `UPDATE players SET name = name || '!' WHERE tournament_id = $1 AND id = $2`, []any{tid, ps[0].ID},
			`{"kind":"players","round":null,"table":null,"tournament":"%s"}`},
		{"round updated", `UPDATE rounds SET number = number WHERE tournament_id = $1 AND number = 1`, []any{tid},
			`{"kind":"rounds","round":1,"table":null,"tournament":"%s"}`},
		{"deal entered", `INSERT INTO game_deals (tournament_id, round, table_no, game, seq, deal, created_at)
			VALUES ($1, 1, 2, 1, 0, '{}', now())`, []any{tid},
			`{"kind":"game_deals","round":1,"table":2,"tournament":"%s"}`},
		{"result stored", `INSERT INTO game_results (tournament_id, round, table_no, game, kind, record, record_hash, result, places, submitted_by, created_at)
			VALUES ($1, 1, 3, 1, 'submission', '{"big":"record"}', '\x00', '{}', '[]', 'test', now())`, []any{tid},
			`{"kind":"game_results","round":1,"table":3,"tournament":"%s"}`},
		{"tie resolved", `INSERT INTO tie_resolutions (tournament_id, round, players, method, decided_by, created_at)
			VALUES ($1, 1, ARRAY[$2, $3], 'lot', 'test', now())`, []any{tid, ps[0].ID, ps[1].ID},
			`{"kind":"tie_resolutions","round":1,"table":null,"tournament":"%s"}`},
		{"dispute opened (000021)", `INSERT INTO disputes (tournament_id, round, table_no, game, description, status, opened_role, opened_by, created_at)
			VALUES ($1, 1, 2, 1, 'x', 'open', 'table', 'test', now()) RETURNING id`, []any{tid},
			`{"kind":"disputes","round":1,"table":2,"tournament":"%s"}`},
		{"adjustment (000021)", `INSERT INTO adjustments (tournament_id, ruling_id, round, table_no, game, player_id, points, scale, reason, created_at)
			VALUES ($1, $2, 1, 2, 1, $3, 5, 'game_points', 'x', now())`, []any{tid, &rulingID, ps[0].ID},
			`{"kind":"adjustments","round":1,"table":2,"tournament":"%s"}`},
		{"round reopened (000021)", `INSERT INTO round_reopenings (tournament_id, round, reason, until, opened_by, created_at)
			VALUES ($1, 1, 'x', now(), 'test', now())`, []any{tid},
			`{"kind":"round_reopenings","round":1,"table":null,"tournament":"%s"}`},
	}
	for _, tt := range tests {
		if tt.change == "adjustment (000021)" { // an adjustment belongs to a ruling
			rulingID = mustExec(t, e, `INSERT INTO rulings (tournament_id, dispute_id, decision, reason, ruled_role, ruled_by, created_at)
				VALUES ($1, $2, 'upheld', 'x', 'referee', 'test', now()) RETURNING id`, tid, disputeID)
			drain(t, conn.Conn())
		}
		id := mustExec(t, e, tt.sql, tt.args...)
		if tt.change == "dispute opened (000021)" {
			disputeID = id
		}
		n, err := waitNotification(e.ctx, conn.Conn())
		if err != nil {
			t.Fatalf("%s: no notification: %v", tt.change, err)
		}
		var p map[string]any
		if err := json.Unmarshal([]byte(n), &p); err != nil {
			t.Fatalf("%s: payload %q is not JSON: %v", tt.change, n, err)
		}
		got, _ := json.Marshal(p)
		if want := fmt.Sprintf(tt.want, tid); string(got) != want {
			t.Errorf("%s: payload = %s, want %s", tt.change, got, want)
		}
	}
}

// mustExec runs sql in a transaction with an actor (the audit trigger asks
// for one) and returns the id it returns, if any.
func mustExec(t *testing.T, e *env, sql string, args ...any) int64 {
	t.Helper()
	var id int64
	err := pgx.BeginFunc(e.ctx, e.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(e.ctx, `SELECT set_config('revisor.actor_role', 'admin', true)`); err != nil {
			return err
		}
		rows, err := tx.Query(e.ctx, sql, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			if err := rows.Scan(&id); err != nil {
				return err
			}
		}
		return rows.Err()
	})
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return id
}

func waitNotification(ctx context.Context, conn *pgx.Conn) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	n, err := conn.WaitForNotification(ctx)
	if err != nil {
		return "", err
	}
	return n.Payload, nil
}

// drain reads the notifications already sent.
func drain(t *testing.T, conn *pgx.Conn) {
	t.Helper()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		_, err := conn.WaitForNotification(ctx)
		cancel()
		if err != nil {
			return
		}
	}
}
