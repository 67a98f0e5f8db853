package tournament

import (
	"context"
	"fmt"
	"sync"
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

// requireOrganizer answers 401 for the public and 403 for everyone else
// without the organizer's rights.
func (a Actor) requireOrganizer() error {
	switch {
	case a.Organizes():
		return nil
	case a.Role == RolePublic:
		return Errorf(KindUnauthorized, CodeTokenRequired, "this needs the organizer's token")
	default:
		return Errorf(KindForbidden, CodeOrganizerOnly, "only the tournament's organizer may do this")
	}
}

// requireTable admits the organizer and the code of table t in round n.
func (a Actor) requireTable(n, t int) error {
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
	code := NormalizeCode(token)
	if LooksLikeCode(code) {
		return s.identifyCode(ctx, tid, code)
	}
	id, err := s.store.TournamentByTokenHash(ctx, HashToken(token))
	if ErrorKind(err) == KindNotFound {
		return Identity{}, unknownToken()
	}
	if err != nil {
		return Identity{}, err
	}
	// The index found the hash; compare once more in constant time.
	sec, err := s.store.Secrets(ctx, id)
	if err != nil {
		return Identity{}, err
	}
	if !TokenMatches(token, sec.OrganizerTokenHash) {
		return Identity{}, unknownToken()
	}
	return Identity{Role: RoleOrganizer, Tournament: id}, nil
}

// identifyCode finds the table of the latest round whose code is code.
func (s *Service) identifyCode(ctx context.Context, tid, code string) (Identity, error) {
	if tid == "" {
		return Identity{}, unknownToken()
	}
	// Codes are derived and never change: a code found among the cached
	// codes of a round is good without asking the database. (If a later
	// round was drawn since, the code's round is closed and takes nothing.)
	s.codes.mu.Lock()
	rc := s.codes.entries[tid]
	s.codes.mu.Unlock()
	if rc != nil {
		if table, ok := rc.tables[code]; ok && CodeMatches(rc.key, rc.round, table, code) {
			return Identity{Role: RoleTable, Tournament: tid, Round: rc.round, Table: table}, nil
		}
	}
	t, err := s.store.Tournament(ctx, tid)
	if err != nil {
		return Identity{}, err
	}
	if t.CurrentRound == 0 {
		return Identity{}, unknownToken()
	}
	rc, err = s.roundCodes(ctx, tid, t.CurrentRound)
	if err != nil {
		return Identity{}, err
	}
	table, ok := rc.tables[code]
	// The map finds the candidate; the code is then checked in constant time.
	if !ok || !CodeMatches(rc.key, t.CurrentRound, table, code) {
		return Identity{}, unknownToken()
	}
	return Identity{Role: RoleTable, Tournament: tid, Round: t.CurrentRound, Table: table}, nil
}

// codeCache remembers the table codes of the latest round of each
// tournament. Codes never change (they are derived from the tournament's
// key), so an entry is only ever replaced by a later round's.
type codeCache struct {
	mu      sync.Mutex
	entries map[string]*roundCodes
}

// roundCodes are the codes of one round: code → table number.
type roundCodes struct {
	round  int
	key    []byte
	tables map[string]int
}

// maxCachedTournaments bounds the cache; past it, it starts over.
const maxCachedTournaments = 1000

func (s *Service) roundCodes(ctx context.Context, tid string, n int) (*roundCodes, error) {
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
	rc = &roundCodes{round: n, key: sec.CodeKey, tables: make(map[string]int, len(r.Tables))}
	for _, tb := range r.Tables {
		rc.tables[TableCode(sec.CodeKey, n, tb.Number)] = tb.Number
	}
	s.codes.mu.Lock()
	defer s.codes.mu.Unlock()
	if s.codes.entries == nil || len(s.codes.entries) >= maxCachedTournaments {
		s.codes.entries = map[string]*roundCodes{}
	}
	s.codes.entries[tid] = rc
	return rc, nil
}

func unknownToken() error {
	return Errorf(KindUnauthorized, CodeUnknownToken, "the token is not known")
}
