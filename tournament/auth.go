package tournament

import (
	"context"
	"crypto/sha256"
	"fmt"
	"sync"
	"time"

	"github.com/revisor-sm/revisor/internal/tokens"
)

// Role is what a caller may do: the one role type of the services, the
// API (which guards its routes with roles) and the web pages. RoleReferee
// is beside the referees (referee.go).
type Role string

// The roles (docs/api.md). RolePublic is the caller without a token.
const (
	RolePublic    Role = "public"
	RoleAdmin     Role = "admin"
	RoleOrganizer Role = "organizer"
	RoleTable     Role = "table"
)

// Actor is an authenticated caller within one tournament.
type Actor struct {
	Role  Role
	Round int // table role: the round and table the code belongs to
	Table int
	// TokenID names the token in the audit log when String does not (a
	// referee's "referee:<id>"); never the token itself.
	TokenID string
}

// String names the actor for the record of who did what; it never holds a
// token.
func (a Actor) String() string {
	if a.Role == RoleTable {
		return fmt.Sprintf("table:%d/%d", a.Round, a.Table)
	}
	return string(a.Role)
}

// Organizes reports whether the actor may act as the tournament's organizer.
// The server's admin may too.
func (a Actor) Organizes() bool { return a.Role == RoleOrganizer || a.Role == RoleAdmin }

// RequireOrganizer answers 401 for the public and 403 for everyone else
// without the organizer's rights.
func (a Actor) RequireOrganizer() error {
	switch {
	case a.Organizes():
		return nil
	case a.Role == RolePublic:
		return Errorf(KindUnauthorized, CodeTokenRequired, "this needs the organizer's token")
	default:
		return Errorf(KindForbidden, CodeOrganizerOnly, "only the tournament's organizer may do this")
	}
}

// RequireTable admits the organizer and the code of table t in round n.
func (a Actor) RequireTable(n, t int) error {
	switch {
	case a.Organizes(), a.Role == RoleTable && a.Round == n && a.Table == t:
		return nil
	case a.Role == RolePublic:
		return Errorf(KindUnauthorized, CodeTokenRequired, "this needs the table's code or the organizer's token")
	case a.Role == RoleTable:
		return Errorf(KindForbidden, CodeWrongTable, "this code belongs to table %d of round %d, not table %d of round %d", a.Table, a.Round, t, n)
	default:
		return Errorf(KindForbidden, CodeTableOnly, "only the table's code or the organizer may do this")
	}
}

// Where is the table a request names (zero when it names none), so that a
// table code is checked against it first.
type Where struct{ Round, Table int }

// Identity is who holds a tournament-scoped token.
type Identity struct {
	Role       Role   // RoleOrganizer or RoleTable
	Tournament string // the tournament the token belongs to
	Round      int    // table codes: the round and table of the code
	Table      int
}

// Identify finds who holds token. Organizer tokens are found by their
// hash wherever they are presented (so another tournament's organizer is
// told 403, not 401); a table code is recognized within tournament tid
// among the tables of its latest round, the only round that takes results.
// Anything else is 401 unknown_token.
func (s *Service) Identify(ctx context.Context, tid, token string, _ Where) (Identity, error) {
	code := tokens.NormalizeCode(token)
	if tokens.LooksLikeCode(code) {
		return s.identifyCode(ctx, tid, code)
	}
	hash := sha256.Sum256([]byte(token))
	if id, ok := s.organizers.get(hash, time.Now()); ok {
		return Identity{Role: RoleOrganizer, Tournament: id}, nil
	}
	id, err := s.store.TournamentByTokenHash(ctx, hash[:])
	if ErrorKind(err) == KindNotFound {
		return Identity{}, UnknownToken()
	}
	if err != nil {
		return Identity{}, err
	}
	// The index found the hash; compare once more in constant time.
	sec, err := s.store.Secrets(ctx, id)
	if err != nil {
		return Identity{}, err
	}
	if !tokens.TokenMatches(token, sec.OrganizerTokenHash) {
		return Identity{}, UnknownToken()
	}
	s.organizers.put(hash, id, time.Now())
	return Identity{Role: RoleOrganizer, Tournament: id}, nil
}

// organizerCache remembers the organizer tokens verified lately, by the
// token's hash (never the token), for organizerCacheFor, so that the
// console's and an organizer's requests do not each cost two reads.
// Organizer tokens never change and tournaments are not deleted, so an
// entry cannot go wrong; the bounds keep it small all the same.
type organizerCache struct {
	mu      sync.Mutex
	entries map[[sha256.Size]byte]organizerEntry
}

type organizerEntry struct {
	tournament string
	until      time.Time
}

// The organizer cache's bounds: how long a verified token is taken
// without asking the store again, and how many are kept (past it, the
// cache starts over).
const (
	organizerCacheFor   = time.Minute
	maxCachedOrganizers = 1024
)

func (c *organizerCache) get(hash [sha256.Size]byte, now time.Time) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[hash]
	if !ok || !now.Before(e.until) {
		return "", false
	}
	return e.tournament, true
}

func (c *organizerCache) put(hash [sha256.Size]byte, tid string, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= maxCachedOrganizers {
		c.entries = map[[sha256.Size]byte]organizerEntry{}
	}
	c.entries[hash] = organizerEntry{tournament: tid, until: now.Add(organizerCacheFor)}
}

// IdentifyCached is Identify for a token verified lately (an organizer
// token in the last organizerCacheFor, a code of the cached latest round
// of tid), without the store; false for any other token, which Identify
// must then look up. A hit cannot be a guess, so the server does not
// count it against the caller's budget of wrong tokens.
func (s *Service) IdentifyCached(tid, token string) (Identity, bool) {
	if code := tokens.NormalizeCode(token); tokens.LooksLikeCode(code) {
		s.codes.mu.Lock()
		rc := s.codes.entries[tid]
		s.codes.mu.Unlock()
		if table, ok := rc.lookup(code); ok && tid != "" {
			return Identity{Role: RoleTable, Tournament: tid, Round: rc.round, Table: table}, true
		}
		return Identity{}, false
	}
	if id, ok := s.organizers.get(sha256.Sum256([]byte(token)), time.Now()); ok {
		return Identity{Role: RoleOrganizer, Tournament: id}, true
	}
	return Identity{}, false
}

// lookup finds the table of a code among the round's (rc may be nil).
func (rc *roundCodes) lookup(code string) (int, bool) {
	if rc == nil {
		return 0, false
	}
	table, ok := rc.tables[code]
	return table, ok
}

// identifyCode finds the table of the latest round whose code is code.
func (s *Service) identifyCode(ctx context.Context, tid, code string) (Identity, error) {
	if tid == "" {
		return Identity{}, UnknownToken()
	}
	// Codes are derived and never change: a code found among the cached
	// codes of a round is good without asking the database. (If a later
	// round was drawn since, the code's round is closed and takes nothing.)
	s.codes.mu.Lock()
	rc := s.codes.entries[tid]
	s.codes.mu.Unlock()
	// The map holds exactly the round's derived codes, so a hit is the
	// match (deriving the code again per request cost an HMAC); Go's maps
	// hash with a random seed per process, so the lookup's time does not
	// tell how much of a guess was right.
	if table, ok := rc.lookup(code); ok {
		return Identity{Role: RoleTable, Tournament: tid, Round: rc.round, Table: table}, nil
	}
	gen := s.codes.generation()
	t, err := s.store.Tournament(ctx, tid)
	if err != nil {
		return Identity{}, err
	}
	if t.CurrentRound == 0 {
		return Identity{}, UnknownToken()
	}
	rc, err = s.roundCodes(ctx, tid, t.CurrentRound, gen)
	if err != nil {
		return Identity{}, err
	}
	table, ok := rc.tables[code]
	if !ok {
		return Identity{}, UnknownToken()
	}
	return Identity{Role: RoleTable, Tournament: tid, Round: t.CurrentRound, Table: table}, nil
}

// codeCache remembers the table codes of the latest round of each
// tournament. Codes never change (they are derived from the tournament's
// key), so an entry is only ever replaced by a later round's.
type codeCache struct {
	mu      sync.Mutex
	entries map[string]*roundCodes
	gen     uint64 // forgets so far
}

// roundCodes are the codes of one round: code → table number.
type roundCodes struct {
	round  int
	tables map[string]int
}

// ForgetTableCodes drops what the service remembers of tournament tid's
// table codes: a new draw (package play) changes them.
func (s *Service) ForgetTableCodes(tid string) { s.codes.forget(tid) }

// forget drops tid's cached codes: a round was drawn.
func (c *codeCache) forget(tid string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, tid)
	c.gen++
}

// generation counts the forgets: a lookup that began before one must not
// cache what it read.
func (c *codeCache) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// Heard tells the service of a change heard from the database (every
// process LISTENs, postgres.Listener): a round drawn in any process ends
// the old round's codes here at once, rather than when this process next
// looks a code up (issue 25, point 4); an event naming no tournament (the
// listener reconnected and may have missed some) forgets every cached
// code.
func (s *Service) Heard(e Event) {
	switch {
	case e.Tournament == "":
		s.codes.mu.Lock()
		clear(s.codes.entries)
		s.codes.gen++
		s.codes.mu.Unlock()
	case e.Kind == "rounds":
		// Any change of a round (drawn, deleted, closed): rare, and the
		// next code looks the round up again.
		s.codes.forget(e.Tournament)
	}
}

// maxCachedTournaments bounds the cache; past it, it starts over.
const maxCachedTournaments = 1000

func (s *Service) roundCodes(ctx context.Context, tid string, n int, gen uint64) (*roundCodes, error) {
	s.codes.mu.Lock()
	rc := s.codes.entries[tid]
	s.codes.mu.Unlock()
	if rc != nil && rc.round == n {
		return rc, nil
	}
	sec, err := s.store.Secrets(ctx, tid)
	if err != nil {
		return nil, err
	}
	r, err := s.store.Round(ctx, tid, n)
	if err != nil {
		return nil, err
	}
	rc = &roundCodes{round: n, tables: make(map[string]int, len(r.Tables))}
	for _, tb := range r.Tables {
		rc.tables[tokens.TableCode(sec.CodeKey, n, tb.Number)] = tb.Number
	}
	s.codes.mu.Lock()
	defer s.codes.mu.Unlock()
	if s.codes.gen != gen {
		return rc, nil // a round changed meanwhile: good for this request, not for the cache
	}
	if s.codes.entries == nil || len(s.codes.entries) >= maxCachedTournaments {
		s.codes.entries = map[string]*roundCodes{}
	}
	s.codes.entries[tid] = rc
	return rc, nil
}

func UnknownToken() error {
	return Errorf(KindUnauthorized, CodeUnknownToken, "the token is not known")
}

// RoleReferee is the role of a referee token: rulings, corrections and the
// audit log of one tournament.
const RoleReferee Role = "referee"

// RequireReferee admits referees and the organizer.
func (a Actor) RequireReferee() error {
	switch {
	case a.Organizes(), a.Role == RoleReferee:
		return nil
	case a.Role == RolePublic:
		return Errorf(KindUnauthorized, CodeTokenRequired, "this needs a referee's or the organizer's token")
	default:
		return Errorf(KindForbidden, CodeRefereeOnly, "only a referee or the organizer may do this")
	}
}
