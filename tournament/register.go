package tournament

import (
	"context"
	"strings"
	"time"
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

// RegisterChange is one line of the register's log: who changed what,
// when and why. The log is append-only.
type RegisterChange struct {
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
	MaxReason       = 1000
	maxPeopleListed = 500
	maxSeriesNights = 200
)

// RegisterStore keeps the register of people and the series. Each method is
// one transaction; every change also writes its line of the register's log.
type RegisterStore interface {
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
	RegisterLog(ctx context.Context, person string) ([]RegisterChange, error)

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
	if err := checkPlayerName(n.Name); err != nil {
		return n, err
	}
	if err := checkClubName(n.Club); err != nil {
		return n, err
	}
	return n, CheckLine("membership", n.Membership, maxMembership, false)
}

// Register runs the server's register of people, the series and the
// ratings. Changes are the admin's; reading is public (membership numbers
// are the admin's and the organizers' to see).
type Register struct {
	store   RegisterStore
	tourns  Store
	now     func() time.Time
	ratings ratingsCache
}

// NewRegister returns the register over its store and the tournaments'.
func NewRegister(store RegisterStore, tournaments Store, now func() time.Time) *Register {
	if now == nil {
		now = time.Now
	}
	return &Register{store: store, tourns: tournaments, now: now}
}

func (r *Register) clock() time.Time { return r.now().UTC().Truncate(time.Microsecond) }

func requireAdmin(a Actor) error {
	switch a.Role {
	case RoleAdmin:
		return nil
	case RolePublic:
		return Errorf(KindUnauthorized, CodeTokenRequired, "this needs the admin token")
	}
	return Errorf(KindForbidden, CodeAdminOnly, "only the server's admin may change the register")
}

// AddPerson adds a person to the register (admin).
func (r *Register) AddPerson(ctx context.Context, a Actor, n NewPerson) (Person, error) {
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
func (r *Register) Person(ctx context.Context, id string) (Person, error) {
	if !validPersonID(id) {
		return Person{}, Errorf(KindNotFound, CodePersonNotFound, "no person %q in the register", id)
	}
	return r.store.Person(ctx, id)
}

// People searches the register.
func (r *Register) People(ctx context.Context, query string, limit int) ([]Person, error) {
	query = strings.TrimSpace(query)
	if err := CheckLine("q", query, maxPlayerName, false); err != nil {
		return nil, err
	}
	if limit < 1 || limit > maxPeopleListed {
		limit = maxPeopleListed
	}
	return r.store.People(ctx, query, limit)
}

// Merge records that from is a duplicate of into (admin, with a reason):
// from's games count as into's from now on, in ratings and series alike.
func (r *Register) Merge(ctx context.Context, a Actor, from, into, reason string) error {
	if err := requireAdmin(a); err != nil {
		return err
	}
	reason = strings.TrimSpace(reason)
	if err := CheckLine("reason", reason, MaxReason, true); err != nil {
		return err
	}
	if from == into {
		return InvalidField("into", "a person cannot be merged into themself")
	}
	for _, id := range []string{from, into} {
		p, err := r.Person(ctx, id)
		if err != nil {
			return err
		}
		if p.MergedInto != "" {
			return Errorf(KindConflict, CodePersonMerged, "%s (%s) was already merged into %s", p.Name, p.ID, p.MergedInto)
		}
	}
	return r.store.MergePeople(ctx, from, into, a.String(), reason, r.clock())
}

// Log returns the register's log about a person ("" for all).
func (r *Register) Log(ctx context.Context, person string) ([]RegisterChange, error) {
	return r.store.RegisterLog(ctx, person)
}

// validPersonID is "P" and digits, so that nothing else reaches a query.
func validPersonID(id string) bool {
	if len(id) < 2 || len(id) > 20 || id[0] != 'P' {
		return false
	}
	for _, c := range id[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
