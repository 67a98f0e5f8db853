package registry

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/revisor-sm/revisor/tournament"
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
//
// The list is kept while the store's ratings version stands
// (RatingsVersioner), so that a read costs the same whatever the history:
// the version's read and a copy, not a replay of every game (issue 25:
// 0.7 s per read with 2,000 games).
func (r *Service) Ratings(ctx context.Context) ([]RatedPerson, error) {
	c, err := r.ratings.get(ctx, r)
	if err != nil {
		return nil, err
	}
	return slices.Clone(c.list), nil
}

// ratingsList makes the rating list of a replay.
func (r *Service) ratingsList(ctx context.Context, rs *ratingState) ([]RatedPerson, error) {
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

// RatingsVersioner is a Store that tells the version of what the
// ratings are computed from (registrypg.Store: a sequence the database's
// triggers advance): the register keeps the ratings while it stands. A store
// without it has its ratings computed on every read.
type RatingsVersioner interface {
	RatingsVersion(ctx context.Context) (int64, error)
}

// ratingsCache keeps the last replay, with every person's history, and
// its rating list, under the version they were computed at. One reader at
// a time holds the turn, so that readers arriving together replay once
// (one connection), the others waiting without one, up to ratingsWait.
type ratingsCache struct {
	heard   atomic.Int64 // changes heard after their commit (Service.Heard)
	once    sync.Once
	turn    chan struct{} // the one replay's turn (a mutex a reader can stop waiting for)
	version [2]int64      // the store's version and heard, when state was replayed
	state   *ratingState
	list    []RatedPerson
}

// cachedRatings is one replay and its list.
type cachedRatings struct {
	state *ratingState
	list  []RatedPerson
}

func (c *ratingsCache) get(ctx context.Context, r *Service) (cachedRatings, error) {
	vs, ok := r.store.(RatingsVersioner)
	if !ok {
		rs, err := r.replay(ctx, allHistories)
		if err != nil {
			return cachedRatings{}, err
		}
		list, err := r.ratingsList(ctx, rs)
		return cachedRatings{rs, list}, err
	}
	c.once.Do(func() { c.turn = make(chan struct{}, 1) })
	wait := time.NewTimer(ratingsWait)
	defer wait.Stop()
	select {
	case c.turn <- struct{}{}:
		defer func() { <-c.turn }()
	case <-wait.C:
		return cachedRatings{}, tournament.Errorf(tournament.KindUnavailable, tournament.CodeBusy,
			"the ratings are being computed again; try again in a few seconds")
	case <-ctx.Done():
		return cachedRatings{}, ctx.Err()
	}
	// The version is read before the replay: a change committed during
	// the replay moves it past the one kept, and the next read replays.
	dbv, err := vs.RatingsVersion(ctx)
	if err != nil {
		return cachedRatings{}, err
	}
	v := [2]int64{dbv, c.heard.Load()}
	if c.state != nil && c.version == v {
		return cachedRatings{c.state, c.list}, nil
	}
	rs, err := r.replay(ctx, allHistories)
	if err != nil {
		return cachedRatings{}, err
	}
	list, err := r.ratingsList(ctx, rs)
	if err != nil {
		return cachedRatings{}, err
	}
	c.version, c.state, c.list = v, rs, list
	return cachedRatings{rs, list}, nil
}

// ratingsWait is how long a reader waits for the replay of another before
// it is told 503 (with Retry-After): readers never queue without bound.
const ratingsWait = 3 * time.Second

// Heard tells the register of a change heard from the database after its
// commit (postgres.Listener, wired in cmd/revisor): a result, a player or
// a tournament changed, or events may have been missed. The version's
// sequence moves before a writer commits, so a replay that read it then
// and the data just before the commit would be kept stale; the change's
// notification, sent at commit, ends it.
func (r *Service) Heard(e tournament.Event) {
	switch e.Kind {
	case "game_results", "players", "tournaments", "rounds", "resync", "":
		r.ratings.heard.Add(1)
	}
}

// allHistories asks replay to keep every person's history.
const allHistories = "*"

// RatingHistory returns a person's rating now and every rated game that
// moved it, oldest first. A merged entry answers for the entry it became.
func (r *Service) RatingHistory(ctx context.Context, id string) (Person, *RatedPerson, []RatingChange, error) {
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
	c, err := r.ratings.get(ctx, r)
	if err != nil {
		return Person{}, nil, nil, err
	}
	rs := c.state
	rt, ok := rs.ratings[p.ID]
	if !ok {
		return p, nil, nil, nil
	}
	return p, &RatedPerson{Person: p, Rating: rt, Games: rs.games[p.ID], Last: rs.last[p.ID]}, slices.Clone(rs.history[p.ID]), nil
}

// replay rates every played game in order; it keeps the history of one
// person (none when follow is "", everyone's when it is allHistories).
func (r *Service) replay(ctx context.Context, follow string) (*ratingState, error) {
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
		if p.Person == follow || follow == allHistories {
			rs.history[p.Person] = append(rs.history[p.Person], RatingChange{Tournament: g.Tournament,
				TournamentName: g.TournamentName, Round: g.Round, Table: g.Table, Game: g.Game, PlayedAt: g.PlayedAt,
				Place: p.Place, Players: len(g.Places), Forfeit: p.Forfeit, Before: before[i], After: after[i]})
		}
	}
}
