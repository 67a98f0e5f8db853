package tournament

import (
	"context"
	"strings"
	"time"
)

// Listing is how visitors find a tournament: whether the server's home
// page lists it, its short link, and where and when it is played.
type Listing struct {
	// Public lists the tournament on the home page. A private one is not
	// listed there (the admin's page marks it); its pages are reached by
	// its links, as every tournament's are.
	Public bool
	// ShortCode names its short link, /s/{code} (ShortCodeAlphabet, made
	// when the tournament is created).
	ShortCode string
	// Venue is where it is played, as the organizer writes it; "" when
	// not given.
	Venue string
	// Date is the day it starts (midnight UTC); zero when not given.
	Date time.Time
}

// maxVenueLen bounds a venue like a name.
const maxVenueLen = MaxNameLen

// The years a tournament's date may name, to catch a typed "0226".
const (
	minYear = 2000
	maxYear = 2200
)

func (l Listing) validate() error {
	if err := CheckLine("venue", strings.TrimSpace(l.Venue), maxVenueLen, false); err != nil {
		return err
	}
	if !l.Date.IsZero() && (l.Date.Year() < minYear || l.Date.Year() > maxYear) {
		return InvalidField("date", "date must be a day between the years %d and %d", minYear, maxYear)
	}
	return nil
}

// normalized returns l as stored: the venue trimmed, the date a day.
func (l Listing) normalized() Listing {
	l.Venue = strings.TrimSpace(l.Venue)
	if !l.Date.IsZero() {
		y, m, d := l.Date.Date()
		l.Date = time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	}
	return l
}

// shortCodeTries is how many codes CreateTournament draws before it gives
// up: with 47 million codes a second try is already rare.
const shortCodeTries = 5

// withShortCode gives t a fresh short code and stores it with store,
// drawing another code when the store finds it taken (a conflict).
func (s *Service) withShortCode(t *Tournament, store func() error) error {
	var err error
	for range shortCodeTries {
		if t.ShortCode, err = NewShortCode(s.rand); err != nil {
			return err
		}
		if err = store(); ErrorKind(err) != KindConflict {
			return err
		}
	}
	return err
}

// TournamentListPage is how many tournaments a page of the list holds.
const TournamentListPage = 20

// maxListPage bounds the page number a visitor may ask for.
const maxListPage = 10000

// ListFilter chooses a page of the server's tournaments.
type ListFilter struct {
	// Private includes the tournaments not listed publicly.
	Private bool
	// Offset and Limit choose the page, in the list's order.
	Offset, Limit int
}

// TournamentList is one page of the server's tournaments, current first:
// in progress, then upcoming (soonest first), then finished (latest
// first).
type TournamentList struct {
	Tournaments []Tournament
	Page        int  // 1-based
	More        bool // a next page exists
}

// ListTournaments returns page (1-based) of the server's tournaments: the
// public ones, and for the admin the private ones too.
func (s *Service) ListTournaments(ctx context.Context, a Actor, page int) (*TournamentList, error) {
	if page < 1 || page > maxListPage {
		return nil, InvalidParameter("page", "page must be a whole number from 1 to %d", maxListPage)
	}
	ts, err := s.store.ListTournaments(ctx, ListFilter{Private: a.Role == RoleAdmin,
		Offset: (page - 1) * TournamentListPage, Limit: TournamentListPage + 1})
	if err != nil {
		return nil, err
	}
	l := &TournamentList{Page: page, More: len(ts) > TournamentListPage}
	l.Tournaments = ts[:min(len(ts), TournamentListPage)]
	return l, nil
}

// TournamentByShortCode returns the ID of the tournament whose short link
// is /s/{code} (in any case, see ParseShortCode).
func (s *Service) TournamentByShortCode(ctx context.Context, code string) (string, error) {
	c, err := ParseShortCode(code)
	if err != nil {
		return "", err
	}
	id, err := s.store.TournamentByShortCode(ctx, c)
	if ErrorKind(err) == KindNotFound {
		return "", shortCodeNotFound(code)
	}
	return id, err
}

// listRank orders statuses in the list: in progress, upcoming, finished.
func listRank(s Status) int {
	switch s {
	case StatusRunning:
		return 0
	case StatusRegistration:
		return 1
	}
	return 2
}

// ListBefore reports whether a comes before b in the list of tournaments:
// by status (in progress, upcoming, finished), then upcoming ones by date
// ascending and the others by date descending (the date, else the day of
// creation), then the newest first. Stores that sort in Go use it; the
// PostgreSQL store sorts the same way in SQL.
func ListBefore(a, b *Tournament) bool {
	if ra, rb := listRank(a.Status), listRank(b.Status); ra != rb {
		return ra < rb
	}
	da, db := a.listDay(), b.listDay()
	if !da.Equal(db) {
		return (a.Status == StatusRegistration) == da.Before(db)
	}
	if !a.CreatedAt.Equal(b.CreatedAt) {
		return a.CreatedAt.After(b.CreatedAt)
	}
	return a.ID < b.ID
}

// listDay is the day the list sorts a tournament by.
func (t *Tournament) listDay() time.Time {
	if !t.Date.IsZero() {
		return t.Date
	}
	y, m, d := t.CreatedAt.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
