// Reads of a tournament's whole state, a round's clock and one table's
// results, for the pages and the score sheets.

package tournament

import "context"

// Snapshot returns a consistent read of everything a tournament holds that
// the public may see (no secrets): the tournament, players, rounds with
// their tables, effective results, outcomes and tie resolutions. The web
// pages build each view from one snapshot.
func (s *Service) Snapshot(ctx context.Context, tid string) (*State, error) {
	return s.store.State(ctx, tid)
}

// RoundClock returns the clock of round n, for the pages that show it
// beside a snapshot (the big screen reads both on the pages' own pool;
// package play sets the clock).
func (s *Service) RoundClock(ctx context.Context, tid string, n int) (*Clock, error) {
	return s.store.RoundClock(ctx, tid, n)
}

// TableResultReader is a store that reads one table's results without the
// rest of the round's (a score sheet or a result page needs only those).
// tournament/postgres implements it beside Store.
type TableResultReader interface {
	TableResults(ctx context.Context, tid string, n, table int) ([]GameResult, error)
}

// TableResults returns the effective results, records included, of the
// games of table t in round n.
func (s *Service) TableResults(ctx context.Context, tid string, n, t int) ([]GameResult, error) {
	if r, ok := s.store.(TableResultReader); ok {
		return r.TableResults(ctx, tid, n, t)
	}
	all, err := s.store.Results(ctx, tid, n)
	if err != nil {
		return nil, err
	}
	var out []GameResult
	for _, res := range all {
		if res.Key.Table == t {
			out = append(out, res)
		}
	}
	return out, nil
}
