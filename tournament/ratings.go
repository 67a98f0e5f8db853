package tournament

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/revisor-sm/revisor/tournament/rating"
)

// RatedPerson is one line of the rating list.
type RatedPerson struct {
	Person Person
	Rating rating.Rating
	Games  int
	Last   time.Time // when the last rated game was played
}

// RatingChange is one rated game of a person's history.
type RatingChange struct {
	Tournament     string
	TournamentName string
	Round, Table   int
	Game           int
	PlayedAt       time.Time
	Place          int
	Players        int // how many played the game
	Forfeit        bool
	Before, After  rating.Rating
}

// ratingState is the result of replaying every game.
type ratingState struct {
	ratings map[string]rating.Rating
	games   map[string]int
	last    map[string]time.Time
	history map[string][]RatingChange // only for the person asked about
}

// Ratings returns the rating list: every person with a rated game, best
// Ordinal first. Ratings are never stored: they are recomputed from the
// stored results, game by game in the order they were played (tournaments
// by creation, then round, table and game), so the same results always give
// the same ratings (docs/tournaments.md, "Ratings").
func (r *Register) Ratings(ctx context.Context) ([]RatedPerson, error) {
	rs, err := r.replay(ctx, "")
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(rs.ratings))
	for pid := range rs.ratings {
		ids = append(ids, pid)
	}
	people, err := r.store.PeopleByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]RatedPerson, 0, len(rs.ratings))
	for pid, rt := range rs.ratings {
		out = append(out, RatedPerson{Person: people[pid], Rating: rt, Games: rs.games[pid], Last: rs.last[pid]})
	}
	slices.SortFunc(out, func(a, b RatedPerson) int {
		if c := cmp.Compare(b.Rating.Ordinal(), a.Rating.Ordinal()); c != 0 {
			return c
		}
		return cmp.Compare(a.Person.ID, b.Person.ID)
	})
	return out, nil
}

// RatingHistory returns a person's rating now and every rated game that
// moved it, oldest first. A merged entry answers for the entry it became.
func (r *Register) RatingHistory(ctx context.Context, id string) (Person, *RatedPerson, []RatingChange, error) {
	p, err := r.Person(ctx, id)
	if err != nil {
		return Person{}, nil, nil, err
	}
	canon, err := r.store.Canonical(ctx)
	if err != nil {
		return Person{}, nil, nil, err
	}
	if c := resolvePerson(canon, id); c != id {
		if p, err = r.store.Person(ctx, c); err != nil {
			return Person{}, nil, nil, err
		}
	}
	rs, err := r.replay(ctx, p.ID)
	if err != nil {
		return Person{}, nil, nil, err
	}
	rt, ok := rs.ratings[p.ID]
	if !ok {
		return p, nil, nil, nil
	}
	return p, &RatedPerson{Person: p, Rating: rt, Games: rs.games[p.ID], Last: rs.last[p.ID]}, rs.history[p.ID], nil
}

// replay rates every played game in order; it keeps the history of one
// person (none when follow is "").
func (r *Register) replay(ctx context.Context, follow string) (*ratingState, error) {
	games, err := r.store.PlayedGames(ctx)
	if err != nil {
		return nil, err
	}
	m := rating.Default()
	rs := &ratingState{ratings: map[string]rating.Rating{}, games: map[string]int{}, last: map[string]time.Time{},
		history: map[string][]RatingChange{}}
	for _, g := range games {
		rateGame(m, rs, g, follow)
	}
	return rs, nil
}

// rateGame applies one game. A game is rated when at least two people
// played it and nobody appears twice (a wrong merge); forfeits count with
// the place the engine gave them (last).
func rateGame(m rating.Model, rs *ratingState, g PlayedGame, follow string) {
	if len(g.Places) < 2 {
		return
	}
	before := make([]rating.Rating, len(g.Places))
	places := make([]int, len(g.Places))
	seen := map[string]bool{}
	for i, p := range g.Places {
		if p.Person == "" || seen[p.Person] {
			return
		}
		seen[p.Person] = true
		rt, ok := rs.ratings[p.Person]
		if !ok {
			rt = m.New()
		}
		before[i], places[i] = rt, p.Place
	}
	after := m.Rate(before, places)
	for i, p := range g.Places {
		rs.ratings[p.Person] = after[i]
		rs.games[p.Person]++
		rs.last[p.Person] = g.PlayedAt
		if p.Person == follow {
			rs.history[p.Person] = append(rs.history[p.Person], RatingChange{Tournament: g.Tournament,
				TournamentName: g.TournamentName, Round: g.Round, Table: g.Table, Game: g.Game, PlayedAt: g.PlayedAt,
				Place: p.Place, Players: len(g.Places), Forfeit: p.Forfeit, Before: before[i], After: after[i]})
		}
	}
}
