package api

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/internal/tokens"
	"github.com/revisor-sm/revisor/tournament"
)

// Principal is who made a request, as far as its token says.
type Principal struct {
	Role tournament.Role
	// TokenID identifies the token in the audit log; never the token itself.
	// "admin" for the admin token, empty for the public.
	TokenID string
	// Tournament is the tournament a scoped token belongs to; empty for the
	// admin and the public.
	Tournament string
	// Round and Table locate a table code's table; zero for other roles.
	Round, Table int
}

// TokenResolver finds who holds a tournament-scoped token (organizer,
// referee, table code). The tournament engineer implements it over the
// tournament service.
type TokenResolver interface {
	// ResolveToken returns the principal of token within the tournament
	// tournamentID (the route's {tid}; empty on routes without one). An
	// unknown token is a tournament error of kind unauthorized; the server
	// then counts a failure against the client's address.
	ResolveToken(ctx context.Context, tournamentID, token string) (Principal, error)
}

// cachedTokens is a TokenResolver that knows the tokens it verified
// lately without a lookup (organizer tokens, table codes).
type cachedTokens interface {
	CachedToken(tid, token string) (Principal, bool)
}

// HashToken is the hash under which tokens are stored and compared: the
// tournament's (SHA-256; tokens are long random strings, so a fast hash
// suffices).
func HashToken(token string) []byte { return tokens.HashToken(token) }

// principalKey is the echo context key of the request's Principal.
const principalKey = "revisor.principal"

// PrincipalOf returns the caller of a request that passed require; the
// public principal on routes without it.
func PrincipalOf(c echo.Context) Principal {
	if p, ok := c.Get(principalKey).(Principal); ok {
		return p
	}
	return Principal{Role: tournament.RolePublic}
}

// require returns middleware that admits only callers with one of roles,
// and stores the caller for PrincipalOf. Listing tournament.RolePublic admits requests
// without a token; a token that is given must still be valid. A scoped token
// is only good for its own tournament (the route's :tid).
//
//	g.POST("/tournaments/:tid/players", s.addPlayer, s.require(tournament.RoleOrganizer))
func (s *Server) require(roles ...tournament.Role) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			p, err := s.authenticate(c)
			if err != nil {
				return err
			}
			if err := permit(p, roles, c.Param("tid")); err != nil {
				return err
			}
			c.Set(principalKey, p)
			return next(c)
		}
	}
}

// Authenticate verifies the request's Authorization header, if any, on
// the one path of credentials (httpx.Verify): package server calls it on
// every route, so that a wrong token is counted wherever it is sent; the
// routes' require then finds the outcome kept.
func (s *Server) Authenticate(c echo.Context) (Principal, error) { return s.authenticate(c) }

// authenticate reads the bearer token and finds its principal through the
// one path of credentials (httpx.Verify), which takes a try from the
// address's budget of wrong tokens before the lookup.
func (s *Server) authenticate(c echo.Context) (Principal, error) {
	token, err := bearerToken(c.Request().Header.Get(echo.HeaderAuthorization))
	if err != nil || token == "" {
		return Principal{Role: tournament.RolePublic}, err
	}
	tid := c.Param("tid")
	code := tokens.LooksLikeCode(tokens.NormalizeCode(token))
	if tid == "" && code {
		// Not a guess, not counted: a code is looked up only within its
		// tournament.
		return Principal{}, tournament.Errorf(tournament.KindUnauthorized, tournament.CodeTournamentRequired,
			"a table code belongs to one tournament: present it on that tournament's paths (/api/v1/tournaments/{tid}/whoami)")
	}
	var done func()
	defer func() {
		if done != nil {
			done()
		}
	}()
	check := httpx.Check[Principal]{
		Cached: func() (Principal, bool) {
			p, ok, lead := s.cachedToken(c, tid, token, code)
			if lead {
				done = func() { s.codeLookups.done(tid) }
			}
			return p, ok
		},
		Lookup: func(ctx context.Context) (Principal, error) { return s.resolve(ctx, tid, token) },
	}
	if code {
		check.Tournament = tid
	}
	return httpx.Verify(s.door, c, httpx.CarrierHeader, token, check)
}

// cachedToken finds a token verified lately: it is no guess, takes
// nothing from the budgets (many tables behind one address, each sending
// at once, would otherwise spend them), and costs no lookup. A new round's
// codes are not cached yet: when its tables all send at once from one
// address (a club's network), one looks the codes up (lead: it must end
// the lookup with codeLookups.done) and the others wait for it and find
// theirs cached, instead of each spending a try on a good code.
func (s *Server) cachedToken(c echo.Context, tid, token string, code bool) (p Principal, ok, lead bool) {
	cached, can := s.deps.Tokens.(cachedTokens)
	if !can {
		return Principal{}, false, false
	}
	if p, ok := cached.CachedToken(tid, token); ok {
		return p, true, false
	}
	if !code {
		return Principal{}, false, false
	}
	wait, lead := s.codeLookups.join(tid)
	if lead {
		return Principal{}, false, true
	}
	select {
	case <-wait:
		p, ok := cached.CachedToken(tid, token)
		return p, ok, false
	case <-c.Request().Context().Done():
		return Principal{}, false, false
	}
}

// resolve finds the principal of a token: the admin, or a tournament's.
func (s *Server) resolve(ctx context.Context, tid, token string) (Principal, error) {
	if len(s.cfg.AdminTokenHash) > 0 && tokens.TokenMatches(token, s.cfg.AdminTokenHash) {
		return Principal{Role: tournament.RoleAdmin, TokenID: "admin"}, nil
	}
	return s.deps.Tokens.ResolveToken(ctx, tid, token)
}

// bearerToken extracts the token of an "Authorization: Bearer <token>"
// header; "" when there is no header.
func bearerToken(header string) (string, error) {
	if header == "" {
		return "", nil
	}
	scheme, token, ok := strings.Cut(header, " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", tournament.Errorf(tournament.KindUnauthorized, tournament.CodeInvalidAuthorization,
			"the Authorization header must be \"Bearer <token>\"")
	}
	return token, nil
}

// permit checks a principal against a route's roles and tournament.
func permit(p Principal, roles []tournament.Role, tid string) error {
	if p.Role == tournament.RolePublic && !slices.Contains(roles, tournament.RolePublic) {
		return tournament.Errorf(tournament.KindUnauthorized, tournament.CodeMissingToken,
			"this needs a token: send \"Authorization: Bearer <token>\"")
	}
	if !slices.Contains(roles, p.Role) && !slices.Contains(roles, tournament.RolePublic) {
		return tournament.Errorf(tournament.KindForbidden, tournament.CodeForbidden,
			"this needs the role %s; the token has the role %s", joinRoles(roles), p.Role)
	}
	if p.Tournament != "" && tid != "" && p.Tournament != tid {
		return tournament.Errorf(tournament.KindForbidden, tournament.CodeWrongTournament,
			"the token belongs to another tournament")
	}
	return nil
}

func joinRoles(roles []tournament.Role) string {
	s := make([]string, len(roles))
	for i, r := range roles {
		s[i] = string(r)
	}
	return strings.Join(s, " or ")
}

// codeLookups are the lookups of tournaments' table codes in flight, by
// tournament: the first request with an uncached code of a tournament
// leads (it looks the code up, which caches the round's codes), and the
// requests with codes of the same tournament that arrive meanwhile wait
// for it. An entry lives only while its lookup runs.
type codeLookups struct {
	mu       sync.Mutex
	inFlight map[string]chan struct{}
}

// join returns lead true when no lookup of tid's codes is in flight: the
// caller leads one and must call done. Otherwise it returns the channel
// closed when the lookup in flight is done.
func (l *codeLookups) join(tid string) (wait <-chan struct{}, lead bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if ch, ok := l.inFlight[tid]; ok {
		return ch, false
	}
	if l.inFlight == nil {
		l.inFlight = map[string]chan struct{}{}
	}
	l.inFlight[tid] = make(chan struct{})
	return nil, true
}

// done ends the lookup of tid's codes that the caller led.
func (l *codeLookups) done(tid string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	close(l.inFlight[tid])
	delete(l.inFlight, tid)
}
