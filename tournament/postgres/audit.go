package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/revisor-sm/revisor/tournament"
)

// auditActorSelect returns the SELECT that sets the transaction-local
// settings the audit triggers read (migration 000020): the actor's role,
// token id and reason, from the three parameters $first, $first+1 and
// $first+2 of the statement that embeds it. withAuditActor gives their
// values.
func auditActorSelect(first int) string {
	return fmt.Sprintf(`SELECT set_config('revisor.actor_role', $%d, true),
			set_config('revisor.actor_token', $%d, true), set_config('revisor.reason', $%d, true)`, first, first+1, first+2)
}

// withAuditActor returns args followed by the values of auditActorSelect's
// parameters for the actor ctx carries (tournament.AuditActorFrom).
func withAuditActor(ctx context.Context, args ...any) []any {
	a := tournament.AuditActorFrom(ctx)
	return append(args, string(a.Role), a.Token, a.Reason)
}

// setActorSQL sets the audit actor from the parameters $1 to $3.
var setActorSQL = auditActorSelect(1)

// setAuditActor tells the database who writes in tx: the actor ctx carries
// (tournament.AuditActorFrom). The audit triggers refuse a write without one.
func setAuditActor(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, setActorSQL, withAuditActor(ctx)...)
	return err
}

// Audit returns the audit entries of a tournament that f selects, oldest
// first.
func (s *Store) Audit(ctx context.Context, tid string, f tournament.AuditFilter) ([]tournament.AuditEntry, error) {
	var (
		where = []string{"tournament_id = $1", "id > $2"}
		args  = []any{tid, f.After}
	)
	add := func(cond string, v any) {
		args = append(args, v)
		where = append(where, fmt.Sprintf(cond, len(args)))
	}
	if f.Round != 0 {
		add("round = $%d", f.Round)
	}
	if f.Table != 0 {
		add("table_no = $%d", f.Table)
	}
	if f.Player != "" {
		add("players @> ARRAY[$%d::text]", f.Player)
	}
	if f.Kind != "" {
		add("kind = $%d", f.Kind)
	}
	args = append(args, f.Limit)
	q := `SELECT id, tournament_id, at, actor_role, actor_token, reason, kind, subject, operation,
		coalesce(round, 0), coalesce(table_no, 0), players, before, after FROM audit_log
		WHERE ` + strings.Join(where, " AND ") + fmt.Sprintf(` ORDER BY id LIMIT $%d`, len(args))
	rows, err := s.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, MapError(err, "audit")
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (tournament.AuditEntry, error) {
		var (
			e             tournament.AuditEntry
			before, after []byte
		)
		err := r.Scan(&e.ID, &e.Tournament, &e.At, &e.Role, &e.Token, &e.Reason, &e.Kind, &e.Subject, &e.Operation,
			&e.Round, &e.Table, &e.Players, &before, &after)
		e.At, e.Before, e.After = e.At.UTC(), before, after
		return e, err
	})
	return out, MapError(err, "audit")
}
