package tournament

import (
	"context"
	"fmt"
)

// Role is what a caller may do.
type Role string

// The roles of api.md that tournaments know.
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
		return Errorf(KindUnauthorized, "token_required", "this needs the organizer's token")
	default:
		return Errorf(KindForbidden, "organizer_only", "only the tournament's organizer may do this")
	}
}

// requireTable admits the organizer and the code of table t in round n.
func (a Actor) requireTable(n, t int) error {
	switch {
	case a.Organizes(), a.Role == RoleTable && a.Round == n && a.Table == t:
		return nil
	case a.Role == RolePublic:
		return Errorf(KindUnauthorized, "token_required", "this needs the table's code or the organizer's token")
	case a.Role == RoleTable:
		return Errorf(KindForbidden, "wrong_table", "this code belongs to table %d of round %d, not table %d of round %d", a.Table, a.Round, t, n)
	default:
		return Errorf(KindForbidden, "table_only", "only the table's code or the organizer may do this")
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
// among the tables of the round the request names (the table it names
// first), else of the latest round, the only round that takes results.
// Anything else is 401 unknown_token.
func (s *Service) Identify(ctx context.Context, tid, token string, at Where) (Identity, error) {
	id, err := s.store.TournamentByTokenHash(ctx, HashToken(token))
	switch {
	case err == nil:
		// The index found the hash; compare once more in constant time.
		sec, err := s.store.Secrets(ctx, id)
		if err != nil {
			return Identity{}, err
		}
		if TokenMatches(token, sec.OrganizerTokenHash) {
			return Identity{Role: RoleOrganizer, Tournament: id}, nil
		}
		return Identity{}, unknownToken()
	case ErrorKind(err) != KindNotFound:
		return Identity{}, err
	}
	code := NormalizeCode(token)
	if tid == "" || !LooksLikeCode(code) {
		return Identity{}, unknownToken()
	}
	sec, err := s.store.Secrets(ctx, tid)
	if err != nil {
		return Identity{}, err
	}
	if at.Round > 0 && at.Table > 0 && CodeMatches(sec.CodeKey, at.Round, at.Table, code) {
		return Identity{Role: RoleTable, Tournament: tid, Round: at.Round, Table: at.Table}, nil
	}
	n := at.Round
	if n == 0 {
		t, err := s.store.Tournament(ctx, tid)
		if err != nil {
			return Identity{}, err
		}
		n = t.CurrentRound
	}
	r, err := s.store.Round(ctx, tid, n)
	if ErrorKind(err) == KindNotFound {
		return Identity{}, unknownToken()
	}
	if err != nil {
		return Identity{}, err
	}
	match := 0
	for _, tb := range r.Tables {
		if CodeMatches(sec.CodeKey, r.Number, tb.Number, code) {
			match = tb.Number // no early exit: the time does not tell which table
		}
	}
	if match == 0 {
		return Identity{}, unknownToken()
	}
	return Identity{Role: RoleTable, Tournament: tid, Round: r.Number, Table: match}, nil
}

func unknownToken() error {
	return Errorf(KindUnauthorized, "unknown_token", "the token is not known")
}
