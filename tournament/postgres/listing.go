package postgres

import (
	"context"

	"github.com/revisor-sm/revisor/tournament"
)

// listOrder sorts tournaments as tournament.ListBefore does: in progress,
// upcoming (soonest first), finished (latest first), by the day they are
// played or else the day they were made, then the newest first.
const listOrder = `CASE t.status WHEN 'running' THEN 0 WHEN 'registration' THEN 1 ELSE 2 END,
	CASE WHEN t.status = 'registration' THEN coalesce(t.play_date, (t.created_at AT TIME ZONE 'UTC')::date) END,
	coalesce(t.play_date, (t.created_at AT TIME ZONE 'UTC')::date) DESC, t.created_at DESC, t.id`

// ListTournaments returns the tournaments f chooses, current first.
func (s *Store) ListTournaments(ctx context.Context, f tournament.ListFilter) ([]tournament.Tournament, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+TournamentColumns+` FROM tournaments t
		WHERE t.public OR $1 ORDER BY `+listOrder+` OFFSET $2 LIMIT $3`, f.Private, f.Offset, f.Limit)
	if err != nil {
		return nil, MapError(err, "tournament")
	}
	defer rows.Close()
	var out []tournament.Tournament
	for rows.Next() {
		t, err := ScanTournament(rows)
		if err != nil {
			return nil, MapError(err, "tournament")
		}
		out = append(out, *t)
	}
	return out, MapError(rows.Err(), "tournament")
}

// TournamentByShortCode returns the ID of the tournament with the code.
func (s *Store) TournamentByShortCode(ctx context.Context, code string) (string, error) {
	var id string
	err := s.pool.QueryRow(ctx, `SELECT id FROM tournaments WHERE short_code = $1`, code).Scan(&id)
	return id, MapError(err, "tournament")
}
