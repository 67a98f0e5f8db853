package tournament

import (
	"context"
	"fmt"
)

// Role is what a caller may do.
type Role string

// The roles of api.md. RoleStranger is a valid token of another tournament
// (or a table code of another table): known, but without rights here.
const (
	RolePublic    Role = "public"
	RoleAdmin     Role = "admin"
	RoleOrganizer Role = "organizer"
	RoleTable     Role = "table"
	RoleStranger  Role = "stranger"
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

// Where is where a request acts, so a table code can be checked against
// the table it names; zero when the request names no table.
type Where struct{ Round, Table int }

// Authenticate tells who presents token in tournament tid. An empty token
// is the public. A token that is neither this tournament's organizer token
// nor a code of one of its tables is 401; a known token or code without
// rights here is RoleStranger. The admin is recognized by the API, which
// owns the admin token.
func (s *Service) Authenticate(ctx context.Context, tid, token string, at Where) (Actor, error) {
	if token == "" {
		return Actor{Role: RolePublic}, nil
	}
	sec, err := s.store.Secrets(ctx, tid)
	if err != nil {
		return Actor{}, err
	}
	if TokenMatches(token, sec.OrganizerTokenHash) {
		return Actor{Role: RoleOrganizer}, nil
	}
	if code := NormalizeCode(token); LooksLikeCode(code) {
		return s.tableActor(ctx, tid, sec.CodeKey, code, at)
	}
	if _, err := s.store.TournamentByTokenHash(ctx, HashToken(token)); err == nil {
		return Actor{Role: RoleStranger}, nil
	}
	return Actor{}, unknownToken()
}

func unknownToken() error {
	return Errorf(KindUnauthorized, "unknown_token", "the token is not known")
}

// tableActor finds the table a code belongs to: first the table the
// request names, then the other tables of that round (or of the latest
// round), so a code used at the wrong table is 403, not 401.
func (s *Service) tableActor(ctx context.Context, tid string, key []byte, code string, at Where) (Actor, error) {
	if at.Round > 0 && at.Table > 0 && CodeMatches(key, at.Round, at.Table, code) {
		return Actor{Role: RoleTable, Round: at.Round, Table: at.Table}, nil
	}
	n := at.Round
	if n == 0 {
		t, err := s.store.Tournament(ctx, tid)
		if err != nil {
			return Actor{}, err
		}
		n = t.CurrentRound
	}
	if n == 0 {
		return Actor{}, unknownToken()
	}
	r, err := s.store.Round(ctx, tid, n)
	if err != nil {
		if ErrorKind(err) == KindNotFound {
			return Actor{}, unknownToken()
		}
		return Actor{}, err
	}
	for _, tb := range r.Tables {
		if CodeMatches(key, n, tb.Number, code) {
			return Actor{Role: RoleTable, Round: n, Table: tb.Number}, nil
		}
	}
	return Actor{}, unknownToken()
}
