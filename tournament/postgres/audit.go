package postgres

import (
	"context"
	"fmt"

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
