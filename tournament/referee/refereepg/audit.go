package refereepg

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/postgres"
)

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
	rows, err := s.db.Pool().Query(ctx, q, args...)
	if err != nil {
		return nil, postgres.MapError(err, "audit")
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
	return out, postgres.MapError(err, "audit")
}
