package api

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/referee"
)

// refereeRoutes registers referee tokens: the organizer creates, lists and
// revokes them.
func (s *Server) refereeRoutes(g *echo.Group) {
	org := s.require(tournament.RoleOrganizer, tournament.RoleAdmin)
	g.POST("/tournaments/:tid/referees", s.createReferee, org)
	g.GET("/tournaments/:tid/referees", s.listReferees, org)
	g.DELETE("/tournaments/:tid/referees/:rid", s.revokeReferee, org)
}

// refereeActorOf is actorOf with the token's id, which the audit log and
// the referee records name.
func refereeActorOf(c echo.Context) tournament.Actor {
	a := actorOf(c)
	a.TokenID = PrincipalOf(c).TokenID
	return a
}

// refereeTokens resolves referee tokens and hands every other token to next.
type refereeTokens struct {
	next TokenResolver
	refs RefereeIdentities
}

// NewRefereeTokenResolver returns a TokenResolver that knows referee
// tokens ("ref_…") and asks next about every other token.
func NewRefereeTokenResolver(next TokenResolver, refs RefereeIdentities) TokenResolver {
	return refereeTokens{next: next, refs: refs}
}

// ResolveToken implements TokenResolver.
func (r refereeTokens) ResolveToken(ctx context.Context, tid, token string) (Principal, error) {
	if !referee.LooksLikeRefereeToken(token) {
		return r.next.ResolveToken(ctx, tid, token)
	}
	t, err := r.refs.Identify(ctx, token)
	if err != nil {
		return Principal{}, err
	}
	return Principal{Role: tournament.RoleReferee, TokenID: "referee:" + t.ID, Tournament: t.TournamentID}, nil
}

// CachedToken implements cachedTokens: referee tokens are looked up every
// time (they can be revoked); the others are next's.
func (r refereeTokens) CachedToken(tid, token string) (Principal, bool) {
	next, ok := r.next.(cachedTokens)
	if !ok || referee.LooksLikeRefereeToken(token) {
		return Principal{}, false
	}
	return next.CachedToken(tid, token)
}

// refereeRequest is the body of POST …/referees.
type refereeRequest struct {
	Name string `json:"name"`
}

// refereeJSON is a referee token as listed: never its secret.
type refereeJSON struct {
	ID        string     `json:"id"`
	Name      string     `json:"name"`
	CreatedBy string     `json:"created_by"`
	CreatedAt time.Time  `json:"created_at"`
	RevokedAt *time.Time `json:"revoked_at,omitempty"`
	Token     string     `json:"token,omitempty"` // only in the answer that creates it
}

func toReferee(t *referee.RefereeToken) refereeJSON {
	return refereeJSON{ID: t.ID, Name: t.Name, CreatedBy: t.CreatedBy, CreatedAt: t.CreatedAt, RevokedAt: t.RevokedAt}
}

func (s *Server) createReferee(c echo.Context) error {
	refs := s.deps.Referees
	var req refereeRequest
	if c.Request().ContentLength != 0 {
		if err := httpx.DecodeJSON(c, &req); err != nil {
			return err
		}
	}
	t, err := refs.IssueToken(c.Request().Context(), refereeActorOf(c), c.Param("tid"), req.Name)
	if err != nil {
		return err
	}
	out := toReferee(&t.RefereeToken)
	out.Token = t.Token
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, out)
}

// refereesJSON lists referee tokens.
type refereesJSON struct {
	Referees []refereeJSON `json:"referees"`
}

func (s *Server) listReferees(c echo.Context) error {
	refs := s.deps.Referees
	ts, err := refs.Tokens(c.Request().Context(), refereeActorOf(c), c.Param("tid"))
	if err != nil {
		return err
	}
	out := refereesJSON{Referees: make([]refereeJSON, len(ts))}
	for i := range ts {
		out.Referees[i] = toReferee(&ts[i])
	}
	return c.JSON(http.StatusOK, out)
}

func (s *Server) revokeReferee(c echo.Context) error {
	refs := s.deps.Referees
	t, err := refs.RevokeToken(c.Request().Context(), refereeActorOf(c), c.Param("tid"), c.Param("rid"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toReferee(t))
}
