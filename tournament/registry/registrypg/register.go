package registrypg

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/postgres"
	"github.com/revisor-sm/revisor/tournament/registry"
)

const personColumns = `id, name, club, membership, coalesce(merged_into, ''), created_at`

func scanPerson(row pgx.Row) (registry.Person, error) {
	var p registry.Person
	err := row.Scan(&p.ID, &p.Name, &p.Club, &p.Membership, &p.MergedInto, &p.CreatedAt)
	p.CreatedAt = p.CreatedAt.UTC()
	return p, err
}

// logRegister writes one line of the register's log in tx.
func logRegister(ctx context.Context, tx pgx.Tx, c registry.Change) error {
	_, err := tx.Exec(ctx, `INSERT INTO register_log (at, actor, action, person, other, series, reason)
		VALUES ($1, $2, $3, nullif($4, ''), nullif($5, ''), nullif($6, ''), $7)`,
		c.At, c.Actor, c.Action, c.Person, c.Other, c.Series, c.Reason)
	return err
}

// AddPerson stores a new person and logs it.
func (s *Store) AddPerson(ctx context.Context, n registry.NewPerson, actor string, now time.Time) (registry.Person, error) {
	var p registry.Person
	err := s.db.Write(ctx, "person", func(tx pgx.Tx) error {
		var err error
		if p, err = insertPerson(ctx, tx, n, now); err != nil {
			return err
		}
		return logRegister(ctx, tx, registry.Change{At: now, Actor: actor, Action: registry.RegisterCreate, Person: p.ID})
	})
	return p, err
}

func insertPerson(ctx context.Context, tx pgx.Tx, n registry.NewPerson, now time.Time) (registry.Person, error) {
	return scanPerson(tx.QueryRow(ctx, `INSERT INTO people (name, club, membership, created_at) VALUES ($1, $2, $3, $4)
		RETURNING `+personColumns, n.Name, n.Club, n.Membership, now))
}

// Person returns one entry.
func (s *Store) Person(ctx context.Context, id string) (registry.Person, error) {
	p, err := scanPerson(s.db.Pool().QueryRow(ctx, `SELECT `+personColumns+` FROM people WHERE id = $1`, id))
	return p, postgres.MapError(err, "person")
}

// PeopleByID returns the entries named by ids (merged or not), in one
// query; an id with no entry is not_found.
func (s *Store) PeopleByID(ctx context.Context, ids []string) (map[string]registry.Person, error) {
	rows, err := s.db.Pool().Query(ctx, `SELECT `+personColumns+` FROM people WHERE id = ANY($1)`, ids)
	if err != nil {
		return nil, postgres.MapError(err, "person")
	}
	out := make(map[string]registry.Person, len(ids))
	_, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (struct{}, error) {
		p, err := scanPerson(r)
		out[p.ID] = p
		return struct{}{}, err
	})
	if err != nil {
		return nil, postgres.MapError(err, "person")
	}
	for _, id := range ids {
		if _, ok := out[id]; !ok {
			return nil, tournament.Errorf(tournament.KindNotFound, tournament.CodePersonNotFound, "no person %q in the register", id)
		}
	}
	return out, nil
}

// People lists the entries not merged away that match query.
func (s *Store) People(ctx context.Context, query string, limit int) ([]registry.Person, error) {
	pattern := "%" + strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(strings.ToLower(query)) + "%"
	rows, err := s.db.Pool().Query(ctx, `SELECT `+personColumns+` FROM people
		WHERE merged_into IS NULL AND (lower(name) LIKE $1 OR lower(club) LIKE $1 OR lower(membership) LIKE $1)
		ORDER BY lower(name), id LIMIT $2`, pattern, limit)
	if err != nil {
		return nil, postgres.MapError(err, "person")
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (registry.Person, error) { return scanPerson(r) })
	return out, postgres.MapError(err, "person")
}

// MergePeople merges from into into, both still standing (checked again
// under their row locks), and logs it.
func (s *Store) MergePeople(ctx context.Context, from, into, actor, reason string, now time.Time) error {
	return s.db.Write(ctx, "person", func(tx pgx.Tx) error {
		var standing int
		err := tx.QueryRow(ctx, `SELECT count(*) FROM (SELECT id FROM people WHERE id IN ($1, $2) AND merged_into IS NULL
			ORDER BY id FOR UPDATE) l`, from, into).Scan(&standing)
		if err != nil {
			return err
		}
		if standing != 2 {
			return tournament.Errorf(tournament.KindConflict, tournament.CodePersonMerged, "one of %s and %s is merged already", from, into)
		}
		if _, err := tx.Exec(ctx, `UPDATE people SET merged_into = $2 WHERE id = $1`, from, into); err != nil {
			return err
		}
		return logRegister(ctx, tx, registry.Change{At: now, Actor: actor, Action: registry.RegisterMerge,
			Person: from, Other: into, Reason: reason})
	})
}

// Canonical maps every merged person to the entry it ended in.
func (s *Store) Canonical(ctx context.Context) (map[string]string, error) {
	rows, err := s.db.Pool().Query(ctx, `WITH RECURSIVE chain(id, target) AS (
			SELECT id, merged_into FROM people WHERE merged_into IS NOT NULL
			UNION ALL
			SELECT c.id, p.merged_into FROM chain c JOIN people p ON p.id = c.target WHERE p.merged_into IS NOT NULL
		)
		SELECT DISTINCT ON (c.id) c.id, c.target FROM chain c
		JOIN people p ON p.id = c.target AND p.merged_into IS NULL ORDER BY c.id`)
	if err != nil {
		return nil, postgres.MapError(err, "person")
	}
	out := map[string]string{}
	var id, target string
	_, err = pgx.ForEachRow(rows, []any{&id, &target}, func() error { out[id] = target; return nil })
	return out, postgres.MapError(err, "person")
}

// RegisterLog returns the log lines about a person, or all for "".
func (s *Store) RegisterLog(ctx context.Context, person string) ([]registry.Change, error) {
	rows, err := s.db.Pool().Query(ctx, `SELECT id, at, actor, action, coalesce(person, ''), coalesce(other, ''),
		coalesce(series, ''), reason FROM register_log
		WHERE $1 = '' OR person = $1 OR other = $1 ORDER BY id LIMIT 1000`, person)
	if err != nil {
		return nil, postgres.MapError(err, "register")
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (registry.Change, error) {
		var c registry.Change
		err := r.Scan(&c.ID, &c.At, &c.Actor, &c.Action, &c.Person, &c.Other, &c.Series, &c.Reason)
		c.At = c.At.UTC()
		return c, err
	})
	return out, postgres.MapError(err, "register")
}

// CreateSeries stores a series with its first tournaments.
func (s *Store) CreateSeries(ctx context.Context, sr *registry.Series, actor string, now time.Time) error {
	return s.db.Write(ctx, "series", func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO series (id, name, best_of, min_nights, created_at) VALUES ($1, $2, $3, $4, $5)`,
			sr.ID, sr.Name, sr.Rule.BestOf, sr.Rule.MinNights, sr.CreatedAt)
		if err != nil {
			return err
		}
		if err := logRegister(ctx, tx, registry.Change{At: now, Actor: actor, Action: registry.SeriesCreate, Series: sr.ID}); err != nil {
			return err
		}
		for _, tid := range sr.Tournaments {
			if err := addSeriesTournament(ctx, tx, sr.ID, tid, actor, now); err != nil {
				return err
			}
		}
		return nil
	})
}

func addSeriesTournament(ctx context.Context, tx pgx.Tx, sid, tid, actor string, now time.Time) error {
	tag, err := tx.Exec(ctx, `INSERT INTO series_tournaments (series_id, tournament_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, sid, tid)
	if err != nil || tag.RowsAffected() == 0 {
		return err
	}
	return logRegister(ctx, tx, registry.Change{At: now, Actor: actor, Action: registry.SeriesAdd, Series: sid,
		Reason: "tournament " + tid})
}

// AddSeriesTournament adds a tournament to a series (again: no change).
func (s *Store) AddSeriesTournament(ctx context.Context, sid, tid, actor string, now time.Time) error {
	return s.db.Write(ctx, "series", func(tx pgx.Tx) error {
		return addSeriesTournament(ctx, tx, sid, tid, actor, now)
	})
}

const seriesQuery = `SELECT s.id, s.name, s.best_of, s.min_nights, s.created_at,
	coalesce(array_agg(st.tournament_id ORDER BY t.created_at, t.id) FILTER (WHERE st.tournament_id IS NOT NULL), '{}')
	FROM series s LEFT JOIN series_tournaments st ON st.series_id = s.id
	LEFT JOIN tournaments t ON t.id = st.tournament_id`

func scanSeries(row pgx.Row) (registry.Series, error) {
	var sr registry.Series
	err := row.Scan(&sr.ID, &sr.Name, &sr.Rule.BestOf, &sr.Rule.MinNights, &sr.CreatedAt, &sr.Tournaments)
	sr.CreatedAt = sr.CreatedAt.UTC()
	return sr, err
}

// Series returns a series with its tournaments, oldest first.
func (s *Store) Series(ctx context.Context, id string) (*registry.Series, error) {
	sr, err := scanSeries(s.db.Pool().QueryRow(ctx, seriesQuery+` WHERE s.id = $1 GROUP BY s.id`, id))
	if err != nil {
		return nil, postgres.MapError(err, "series")
	}
	return &sr, nil
}

// ListSeries returns every series, newest first.
func (s *Store) ListSeries(ctx context.Context) ([]registry.Series, error) {
	rows, err := s.db.Pool().Query(ctx, seriesQuery+` GROUP BY s.id ORDER BY s.created_at DESC, s.id LIMIT 1000`)
	if err != nil {
		return nil, postgres.MapError(err, "series")
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (registry.Series, error) { return scanSeries(r) })
	return out, postgres.MapError(err, "series")
}

// PlayedGames returns the effective result of every game of the card
// game's tournaments in the order they were played, each player named by
// the person their entry ended in after merges.
func (s *Store) PlayedGames(ctx context.Context) ([]registry.PlayedGame, error) {
	canon, err := s.Canonical(ctx)
	if err != nil {
		return nil, err
	}
	const q = `SELECT g.tournament_id, t.name, g.round, g.table_no, g.game, g.created_at, g.places,
			(SELECT coalesce(jsonb_object_agg(p.id, coalesce(p.person_id, '')), '{}') FROM players p
			 WHERE p.tournament_id = g.tournament_id AND p.id IN (SELECT x->>'player' FROM jsonb_array_elements(g.places) x))
		FROM (SELECT DISTINCT ON (tournament_id, round, table_no, game) * FROM game_results
			ORDER BY tournament_id, round, table_no, game, id DESC) g
		JOIN tournaments t ON t.id = g.tournament_id
		WHERE t.format IN ('sm', 'swiss')
		ORDER BY t.created_at, t.id, g.round, g.table_no, g.game`
	rows, err := s.db.Pool().Query(ctx, q)
	if err != nil {
		return nil, postgres.MapError(err, "result")
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (registry.PlayedGame, error) {
		var (
			g              registry.PlayedGame
			places, people []byte
		)
		if err := r.Scan(&g.Tournament, &g.TournamentName, &g.Round, &g.Table, &g.Game, &g.PlayedAt, &places, &people); err != nil {
			return g, err
		}
		g.PlayedAt = g.PlayedAt.UTC()
		ps, err := postgres.DecodePlaces(places)
		if err != nil {
			return g, err
		}
		var who map[string]string
		if err := json.Unmarshal(people, &who); err != nil {
			return g, err
		}
		g.Places = make([]registry.PersonPlace, len(ps))
		for i, p := range ps {
			person := who[p.Player]
			if c, ok := canon[person]; ok {
				person = c
			}
			g.Places[i] = registry.PersonPlace{Person: person, Player: p.Player, Place: p.Place, Forfeit: p.Forfeit}
		}
		return g, nil
	})
	return out, postgres.MapError(err, "result")
}

// RatingsVersion is the version of what the ratings are computed from
// (migration 000310): it moves whenever a result, a player's person, a
// tournament or a person changes.
func (s *Store) RatingsVersion(ctx context.Context) (int64, error) {
	var v int64
	var called bool
	err := s.db.Pool().QueryRow(ctx, `SELECT last_value, is_called FROM revisor_ratings_version`).Scan(&v, &called)
	if !called {
		v = 0
	}
	return v, postgres.MapError(err, "ratings version")
}
