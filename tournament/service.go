package tournament

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"io"
	"strings"
	"time"

	"github.com/revisor-sm/revisor/internal/tokens"
)

// Service runs tournaments: it applies the rules of the formats to what the
// store holds. Time and randomness are injected.
type Service struct {
	store      Store
	now        func() time.Time
	rand       io.Reader
	codes      codeCache
	organizers organizerCache // organizer tokens verified lately (auth.go)
	maxPlayers int
}

// Limits on the players of one tournament. A draw's memory and time grow
// with its field (about 11 KB and 0.13 ms of CPU per player: 110 MB and
// 1.3 s for 10,000 players), so a server bounds the field; the default
// holds every Chicago tournament we know of several times over.
const (
	DefaultMaxPlayers = 2000
	MaxPlayersLimit   = 10_000 // the most a server may be configured to allow
)

// Option configures a Service.
type Option func(*Service)

// WithClock makes the service read the time from now.
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// WithRand makes the service draw secrets, IDs and seeds from r.
func WithRand(r io.Reader) Option { return func(s *Service) { s.rand = r } }

// WithMaxPlayers sets how many players one tournament may register (all
// statuses counted), at most MaxPlayersLimit; DefaultMaxPlayers when not
// given (or n < 1).
func WithMaxPlayers(n int) Option {
	return func(s *Service) {
		if n >= 1 {
			s.maxPlayers = min(n, MaxPlayersLimit)
		}
	}
}

// NewService returns a service over store, using the real clock and
// crypto/rand unless told otherwise.
func NewService(store Store, opts ...Option) *Service {
	s := &Service{store: store, now: time.Now, rand: rand.Reader, maxPlayers: DefaultMaxPlayers}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Rand is where the service draws its secrets from (crypto/rand unless
// WithRand said otherwise), for the subdomains' own tokens.
func (s *Service) Rand() io.Reader { return s.rand }

func (s *Service) clock() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

// Now is the service's time: the server time the clock is read in.
func (s *Service) Now() time.Time { return s.clock() }

// Created is a new tournament with its organizer token, which is shown
// once and never again.
type Created struct {
	Tournament     *Tournament
	OrganizerToken string
}

// CreateTournament creates a tournament. Only the admin may.
func (s *Service) CreateTournament(ctx context.Context, a Actor, n NewTournament) (*Created, error) {
	if a.Role != RoleAdmin {
		if a.Role == RolePublic {
			return nil, Errorf(KindUnauthorized, CodeTokenRequired, "creating a tournament needs the admin token")
		}
		return nil, Errorf(KindForbidden, CodeAdminOnly, "only the server's admin creates tournaments")
	}
	settings, err := n.Settings()
	if err != nil {
		return nil, err
	}
	if err := n.Listing.validate(); err != nil {
		return nil, err
	}
	if err := CheckRules(n.Format, settings.Rules); err != nil {
		return nil, err
	}
	t := &Tournament{Name: strings.TrimSpace(n.Name), Format: n.Format, Settings: settings,
		Status: StatusRegistration, CreatedAt: s.clock(), Listing: n.Listing.normalized()}
	return s.Establish(AuditAs(ctx, a), t, s.store.CreateTournament)
}

// Establish makes t a tournament of this server: a new ID, organizer token,
// key of the table codes and short link, stored by write with its secrets
// (a new short link is drawn while write finds the one drawn taken). Both
// creating a tournament and importing one (package transfer) end here.
func (s *Service) Establish(ctx context.Context, t *Tournament, write func(context.Context, *Tournament, Secrets) error) (*Created, error) {
	id, err := s.newID()
	if err != nil {
		return nil, err
	}
	token, hash, err := tokens.NewOrganizerToken(s.rand)
	if err != nil {
		return nil, err
	}
	key, err := tokens.NewSecret(s.rand, tokens.KeyBytes)
	if err != nil {
		return nil, err
	}
	t.ID = id
	if err := s.withShortCode(t, func() error {
		return write(ctx, t, Secrets{OrganizerTokenHash: hash, CodeKey: key})
	}); err != nil {
		return nil, err
	}
	return &Created{Tournament: t, OrganizerToken: token}, nil
}

// newID returns a random tournament ID: 16 lower-case base32 characters.
func (s *Service) newID() (string, error) {
	b, err := tokens.NewSecret(s.rand, 10)
	if err != nil {
		return "", err
	}
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b)), nil
}

// Tournament returns a tournament.
func (s *Service) Tournament(ctx context.Context, id string) (*Tournament, error) {
	return s.store.Tournament(ctx, id)
}

// AddPlayers registers players: before round 1 in any format, and between
// rounds in a Swiss tournament.
func (s *Service) AddPlayers(ctx context.Context, a Actor, tid string, ps []NewPlayer) ([]Player, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	for i := range ps {
		p, err := ps[i].Normalize()
		if err != nil {
			return nil, err
		}
		ps[i] = p
	}
	check := func(t *Tournament, registered int) error {
		if err := registrationOpen(t); err != nil {
			return err
		}
		return s.roomFor(registered, len(ps))
	}
	return s.store.AddPlayers(AuditAs(ctx, a), tid, check, ps, s.clock())
}

// roomFor checks that adding players to the registered ones stays within
// the server's limit.
func (s *Service) roomFor(registered, adding int) error {
	if registered+adding <= s.maxPlayers {
		return nil
	}
	e := Errorf(KindConflict, CodeTooManyPlayers,
		"a tournament holds at most %d players on this server; it has %d, and %d more would make %d",
		s.maxPlayers, registered, adding, registered+adding)
	e.Details = map[string]any{"limit": s.maxPlayers, "registered": registered}
	return e
}

func registrationOpen(t *Tournament) error {
	switch {
	case t.Status == StatusFinished:
		return Errorf(KindConflict, CodeTournamentFinished, "the tournament is finished")
	case t.Format == FormatSM && t.Status != StatusRegistration:
		return Errorf(KindConflict, CodeRegistrationClosed, "an sm tournament takes players only before round 1 is drawn")
	}
	return nil
}

// Players returns a tournament's players.
func (s *Service) Players(ctx context.Context, tid string) ([]Player, error) {
	if _, err := s.store.Tournament(ctx, tid); err != nil {
		return nil, err
	}
	return s.store.Players(ctx, tid)
}

// UpdatePlayer changes a player's name, club or status (withdraw or
// reinstate).
func (s *Service) UpdatePlayer(ctx context.Context, a Actor, tid, pid string, u PlayerUpdate) (Player, error) {
	if err := a.RequireOrganizer(); err != nil {
		return Player{}, err
	}
	return s.store.UpdatePlayer(AuditAs(ctx, a), tid, pid, func(t *Tournament, p Player) (Player, error) {
		if err := u.validate(p.Status); err != nil {
			return p, err
		}
		if u.Status != nil && *u.Status != p.Status {
			if t.Status == StatusFinished {
				return p, Errorf(KindConflict, CodeTournamentFinished, "the tournament is finished")
			}
			// In sm a reinstated player would skip rounds they did not win.
			if *u.Status == PlayerActive && t.Format == FormatSM && t.Status != StatusRegistration {
				return p, Errorf(KindConflict, CodeInvalidStatusChange, "in sm a withdrawn player can be reinstated only before round 1 is drawn")
			}
		}
		return u.apply(p), nil
	})
}

// DeletePlayer removes a player registered by mistake (a typo, a bad
// import). Only before round 1 is drawn: after that the player is in the
// tournament's records, and withdrawing is the way out. The audit log keeps
// the deleted registration.
func (s *Service) DeletePlayer(ctx context.Context, a Actor, tid, pid string) error {
	if err := a.RequireOrganizer(); err != nil {
		return err
	}
	return s.store.DeletePlayer(AuditAs(ctx, a), tid, pid, func(t *Tournament, p Player) error {
		if t.Status != StatusRegistration || t.CurrentRound > 0 {
			return Errorf(KindConflict, CodeRegistrationClosed,
				"%s can be deleted only before round 1 is drawn; withdraw them instead", p.Name)
		}
		return nil
	})
}

// Standings computes the standings from the stored results.
func (s *Service) Standings(ctx context.Context, tid string) (*Tournament, []Standing, error) {
	st, err := s.store.State(ctx, tid)
	if err != nil {
		return nil, nil, err
	}
	return &st.Tournament, Standings(st), nil
}
