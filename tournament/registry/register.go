package registry

import (
	"context"
	"strings"
	"time"

	"github.com/revisor-sm/revisor/tournament"
)

// Person is someone in the server's register of players: one identity
// across tournaments, which ratings and season standings follow. A player
// of a tournament names their person; registering without one adds a new
// person, and the admin merges duplicates later.
type Person struct {
	ID         string // "P<seq>"
	Name       string
	Club       string
	Membership string // a club's or federation's membership number; "" when none
	MergedInto string // set once this entry was merged into another as its duplicate
	CreatedAt  time.Time
}

// NewPerson is an entry for the register.
type NewPerson struct {
	Name, Club, Membership string
}

// Change is one line of the register's log: who changed what,
// when and why. The log is append-only.
type Change struct {
	ID     int64
	At     time.Time
	Actor  string
	Action string // RegisterCreate, RegisterMerge, SeriesCreate, SeriesAdd
	Person string
	Other  string // merge: the person merged into
	Series string
	Reason string
}

// The actions of the register's log.
const (
	RegisterCreate = "create"
	RegisterMerge  = "merge"
	SeriesCreate   = "series_create"
	SeriesAdd      = "series_add"
)

// Limits of the register.
const (
	maxMembership   = 40
	maxPeopleListed = 500
	maxSeriesNights = 200
)

// Store keeps the register of people and the series. Each method is
// one transaction; every change also writes its line of the register's log.
type Store interface {
	// AddPerson stores a new person; a conflict when another person holds
	// the membership number.
	AddPerson(ctx context.Context, n NewPerson, actor string, now time.Time) (Person, error)
	// Person returns one entry (merged or not); not_found when there is none.
	Person(ctx context.Context, id string) (Person, error)
	// PeopleByID returns the entries named by ids (merged or not) in one
	// read; not_found when one of them has no entry.
	PeopleByID(ctx context.Context, ids []string) (map[string]Person, error)
	// People lists the entries not merged away whose name, club or
	// membership contains query (all when query is ""), by name, at most limit.
	People(ctx context.Context, query string, limit int) ([]Person, error)
	// MergePeople merges from into into: from's results count as into's.
	MergePeople(ctx context.Context, from, into, actor, reason string, now time.Time) error
	// Canonical maps every merged person to the entry it ended in.
	Canonical(ctx context.Context) (map[string]string, error)
	// RegisterLog returns the log lines about a person (or every line for "").
	RegisterLog(ctx context.Context, person string) ([]Change, error)

	// CreateSeries stores a new series.
	CreateSeries(ctx context.Context, s *Series, actor string, now time.Time) error
	// Series returns a series with its tournaments.
	Series(ctx context.Context, id string) (*Series, error)
	// ListSeries returns every series, newest first.
	ListSeries(ctx context.Context) ([]Series, error)
	// AddSeriesTournament adds a tournament to a series.
	AddSeriesTournament(ctx context.Context, sid, tid, actor string, now time.Time) error

	// PlayedGames returns the effective result of every game of the
	// card game's tournaments (sm and swiss), in the order they were played:
	// tournaments by creation, then round, table and game; with each
	// player's person.
	PlayedGames(ctx context.Context) ([]PlayedGame, error)
}

// PlayedGame is one game's effective result as the register sees it.
type PlayedGame struct {
	Tournament     string
	TournamentName string
	Round          int
	Table          int
	Game           int
	PlayedAt       time.Time
	Places         []PersonPlace
}

// PersonPlace is one player's place in a played game.
type PersonPlace struct {
	Person  string // after merges
	Player  string
	Place   int
	Forfeit bool
}

func (n NewPerson) normalize() (NewPerson, error) {
	n.Name, n.Club, n.Membership = strings.TrimSpace(n.Name), strings.TrimSpace(n.Club), strings.TrimSpace(n.Membership)
	if err := tournament.CheckPlayerName(n.Name); err != nil {
		return n, err
	}
	if err := tournament.CheckClubName(n.Club); err != nil {
		return n, err
	}
	return n, tournament.CheckLine("membership", n.Membership, maxMembership, false)
}

// Service runs the server's register of people, the series and the
// ratings. Changes are the admin's; reading is public (membership numbers
// are the admin's and the organizers' to see).
type Service struct {
	store   Store
	tourns  tournament.Store
	now     func() time.Time
	ratings ratingsCache
}

// New returns the register over its store and the tournaments'.
func New(store Store, tournaments tournament.Store, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{store: store, tourns: tournaments, now: now}
}

func (r *Service) clock() time.Time { return r.now().UTC().Truncate(time.Microsecond) }

func requireAdmin(a tournament.Actor) error {
	switch a.Role {
	case tournament.RoleAdmin:
		return nil
	case tournament.RolePublic:
		return tournament.Errorf(tournament.KindUnauthorized, tournament.CodeTokenRequired, "this needs the admin token")
	}
	return tournament.Errorf(tournament.KindForbidden, tournament.CodeAdminOnly, "only the server's admin may change the register")
}

// AddPerson adds a person to the register (admin).
func (r *Service) AddPerson(ctx context.Context, a tournament.Actor, n NewPerson) (Person, error) {
	if err := requireAdmin(a); err != nil {
		return Person{}, err
	}
	n, err := n.normalize()
	if err != nil {
		return Person{}, err
	}
	return r.store.AddPerson(ctx, n, a.String(), r.clock())
}

// Person returns one entry of the register.
func (r *Service) Person(ctx context.Context, id string) (Person, error) {
	if !tournament.ValidPersonID(id) {
		return Person{}, tournament.Errorf(tournament.KindNotFound, tournament.CodePersonNotFound, "no person %q in the register", id)
	}
	return r.store.Person(ctx, id)
}

// People searches the register.
func (r *Service) People(ctx context.Context, query string, limit int) ([]Person, error) {
	query = strings.TrimSpace(query)
	if err := tournament.CheckLine("q", query, tournament.MaxPlayerName, false); err != nil {
		return nil, err
	}
	if limit < 1 || limit > maxPeopleListed {
		limit = maxPeopleListed
	}
	return r.store.People(ctx, query, limit)
}

// Merge records that from is a duplicate of into (admin, with a reason):
// from's games count as into's from now on, in ratings and series alike.
func (r *Service) Merge(ctx context.Context, a tournament.Actor, from, into, reason string) error {
	if err := requireAdmin(a); err != nil {
		return err
	}
	reason = strings.TrimSpace(reason)
	if err := tournament.CheckLine("reason", reason, tournament.MaxReason, true); err != nil {
		return err
	}
	if from == into {
		return tournament.InvalidField("into", "a person cannot be merged into themself")
	}
	for _, id := range []string{from, into} {
		p, err := r.Person(ctx, id)
		if err != nil {
			return err
		}
		if p.MergedInto != "" {
			return tournament.Errorf(tournament.KindConflict, tournament.CodePersonMerged, "%s (%s) was already merged into %s", p.Name, p.ID, p.MergedInto)
		}
	}
	return r.store.MergePeople(ctx, from, into, a.String(), reason, r.clock())
}

// Log returns the register's log about a person ("" for all).
func (r *Service) Log(ctx context.Context, person string) ([]Change, error) {
	return r.store.RegisterLog(ctx, person)
}
