package referee

import (
	"context"

	"github.com/revisor-sm/revisor/tournament"
)

// SeeDispute returns dispute id as Dispute does and records, the first
// time a referee or the organizer opens it, that it was seen: the table
// that sent it is told so (docs/table-protocol.md, "On a dispute").
func (r *Service) SeeDispute(ctx context.Context, a tournament.Actor, tid string, id int64) (*Dispute, error) {
	if err := a.RequireReferee(); err != nil {
		return nil, err
	}
	return r.store.SeeDispute(tournament.AuditAs(ctx, a), tid, id, a.AuditName(), r.svc.Now())
}

// TableDisputes returns the disputes of table t of round n, oldest first,
// with their rulings: what the table's page shows of the disputes it sent.
// The table itself, a referee and the organizer may read them.
func (r *Service) TableDisputes(ctx context.Context, a tournament.Actor, tid string, n, t int) ([]Dispute, error) {
	if a.Role != tournament.RoleReferee {
		if err := a.RequireTable(n, t); err != nil {
			return nil, err
		}
	}
	return r.store.TableDisputes(ctx, tid, n, t)
}

// OpenDisputeTables counts the open disputes of each table of round n:
// the room view and the console mark them.
func (r *Service) OpenDisputeTables(ctx context.Context, a tournament.Actor, tid string, n int) (map[int]int, error) {
	if err := a.RequireReferee(); err != nil {
		return nil, err
	}
	open, err := r.store.OpenDisputes(ctx, tid, n)
	if err != nil {
		return nil, err
	}
	out := map[int]int{}
	for k, c := range open {
		out[k.Table] += c
	}
	return out, nil
}
