package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/transfer"
)

// tournamentRoutes registers the tournament resource.
func (s *Server) tournamentRoutes(g *echo.Group) {
	g.POST("/tournaments", s.createTournament, s.require(tournament.RoleAdmin))
	g.GET("/tournaments/:tid", s.getTournament, s.require(tournament.RolePublic))
	g.PATCH("/tournaments/:tid", s.updateSettings, s.require(tournament.RoleOrganizer, tournament.RoleAdmin))
}

// actorOf turns the request's principal into the tournament's actor.
func actorOf(c echo.Context) tournament.Actor {
	p := PrincipalOf(c)
	switch p.Role {
	case tournament.RoleAdmin:
		return tournament.Actor{Role: tournament.RoleAdmin}
	case tournament.RoleOrganizer:
		return tournament.Actor{Role: tournament.RoleOrganizer}
	case tournament.RoleTable:
		return tournament.Actor{Role: tournament.RoleTable, Round: p.Round, Table: p.Table}
	case tournament.RolePublic:
		return tournament.Actor{Role: tournament.RolePublic}
	}
	return tournament.Actor{Role: p.Role}
}

// tournamentTokens resolves organizer tokens and table codes through the
// tournament service.
type tournamentTokens struct{ svc Identities }

// NewTokenResolver returns the TokenResolver for organizer tokens and table
// codes, for Deps.Tokens.
func NewTokenResolver(svc Identities) TokenResolver { return tournamentTokens{svc} }

// ResolveToken implements TokenResolver. A table code is looked for among
// the tables of the tournament's latest round.
func (r tournamentTokens) ResolveToken(ctx context.Context, tid, token string) (Principal, error) {
	id, err := r.svc.Identify(ctx, tid, token, tournament.Where{})
	if err != nil {
		return Principal{}, err
	}
	return identityPrincipal(id), nil
}

// CachedToken implements cachedTokens.
func (r tournamentTokens) CachedToken(tid, token string) (Principal, bool) {
	id, ok := r.svc.IdentifyCached(tid, token)
	if !ok {
		return Principal{}, false
	}
	return identityPrincipal(id), true
}

func identityPrincipal(id tournament.Identity) Principal {
	p := Principal{Role: id.Role, Tournament: id.Tournament, Round: id.Round, Table: id.Table}
	p.TokenID = tournament.Actor{Role: id.Role, Round: id.Round, Table: id.Table}.String()
	return p
}

// tournamentRequest is the body of POST /tournaments.
type tournamentRequest struct {
	Name            string             `json:"name"`
	Format          string             `json:"format"`
	Rules           json.RawMessage    `json:"rules,omitempty"`
	GamesPerRound   *int               `json:"games_per_round,omitempty"`
	PlacementPoints []int              `json:"placement_points,omitempty"`
	AdvancePerTable transfer.IntOrList `json:"advance_per_table,omitempty"`
	Rounds          *int               `json:"rounds,omitempty"`
	FinalSize       *int               `json:"final_size,omitempty"`
	FinalGames      *int               `json:"final_games,omitempty"`
	DayBreaks       []int              `json:"day_breaks,omitempty"`
	Tiebreaks       []string           `json:"tiebreaks,omitempty"`
	Seating         string             `json:"seating,omitempty"`
	Language        string             `json:"language,omitempty"`
	TimeZone        string             `json:"time_zone,omitempty"`
	// CorrectionMinutes is the correction window (default 30).
	CorrectionMinutes *int `json:"correction_minutes,omitempty"`
	// Public, Venue and Date: how visitors find it (the home page's list).
	Public bool   `json:"public,omitempty"`
	Venue  string `json:"venue,omitempty"`
	Date   string `json:"date,omitempty"` // YYYY-MM-DD
}

func (r tournamentRequest) toNew() (tournament.NewTournament, error) {
	n := tournament.NewTournament{Name: r.Name, Format: tournament.Format(r.Format), Rules: r.Rules,
		GamesPerRound: r.GamesPerRound, PlacementPoints: r.PlacementPoints, AdvancePerTable: r.AdvancePerTable,
		Rounds: r.Rounds, FinalSize: r.FinalSize, FinalGames: r.FinalGames, DayBreaks: r.DayBreaks,
		Tiebreaks: r.Tiebreaks, Seating: r.Seating, Language: r.Language, TimeZone: r.TimeZone,
		CorrectionMinutes: r.CorrectionMinutes, Listing: tournament.Listing{Public: r.Public, Venue: r.Venue}}
	if r.Date != "" {
		d, err := time.Parse(time.DateOnly, r.Date)
		if err != nil {
			return n, tournament.InvalidField("date", "date must be a day written 2026-12-31, not %q", r.Date)
		}
		n.Listing.Date = d
	}
	return n, nil
}

// tournamentJSON is a tournament as the API shows it.
type tournamentJSON struct {
	ID              string             `json:"id"`
	Name            string             `json:"name"`
	Format          string             `json:"format"`
	Rules           json.RawMessage    `json:"rules"`
	GamesPerRound   int                `json:"games_per_round"`
	PlacementPoints []int              `json:"placement_points"`
	AdvancePerTable transfer.IntOrList `json:"advance_per_table"`
	Rounds          int                `json:"rounds"`
	FinalSize       int                `json:"final_size"`
	FinalGames      int                `json:"final_games"`
	DayBreaks       []int              `json:"day_breaks"`
	Tiebreaks       []string           `json:"tiebreaks"`
	Seating         string             `json:"seating"`
	Language        string             `json:"language,omitempty"`
	TimeZone        string             `json:"time_zone"`
	// CorrectionMinutes is how long closed rounds stay provisional.
	CorrectionMinutes int       `json:"correction_minutes"`
	Status            string    `json:"status"`
	CurrentRound      int       `json:"current_round"`
	Champion          string    `json:"champion,omitempty"`
	CreatedAt         time.Time `json:"created_at"`
	OrganizerToken    string    `json:"organizer_token,omitempty"`
	// Public, ShortCode, Venue and Date: how visitors find it.
	Public    bool   `json:"public"`
	ShortCode string `json:"short_code"`
	Venue     string `json:"venue,omitempty"`
	Date      string `json:"date,omitempty"`
}

func toTournament(t *tournament.Tournament) tournamentJSON {
	st := t.Settings
	rules := st.Rules
	if rules == nil {
		rules = json.RawMessage(`{"preset":"sm"}`)
	}
	out := tournamentJSON{ID: t.ID, Name: t.Name, Format: string(t.Format), Rules: rules,
		GamesPerRound: st.GamesPerRound, PlacementPoints: st.PlacementPoints, AdvancePerTable: st.AdvancePerTable,
		Rounds: st.Rounds, FinalSize: st.FinalSize, FinalGames: st.GamesIn(true), DayBreaks: st.DayBreaks,
		Tiebreaks: st.Tiebreaks, Seating: st.Seating, Language: st.Language, TimeZone: st.TimeZone,
		CorrectionMinutes: st.CorrectionMinutes, Status: string(t.Status), CurrentRound: t.CurrentRound, Champion: t.Champion, CreatedAt: t.CreatedAt,
		Public: t.Public, ShortCode: t.ShortCode, Venue: t.Venue}
	if !t.Date.IsZero() {
		out.Date = t.Date.Format(time.DateOnly)
	}
	return out
}

func (s *Server) createTournament(c echo.Context) error {
	svc := s.deps.Tournaments
	var req tournamentRequest
	if err := httpx.DecodeJSON(c, &req); err != nil {
		return err
	}
	nt, err := req.toNew()
	if err != nil {
		return err
	}
	created, err := svc.CreateTournament(c.Request().Context(), actorOf(c), nt)
	if err != nil {
		return err
	}
	out := toTournament(created.Tournament)
	out.OrganizerToken = created.OrganizerToken
	c.Response().Header().Set(echo.HeaderLocation, "/api/v1/tournaments/"+out.ID)
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, out)
}

func (s *Server) getTournament(c echo.Context) error {
	svc := s.deps.Tournaments
	t, err := svc.Tournament(c.Request().Context(), c.Param("tid"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toTournament(t))
}

// settingsRequest is the body of PATCH /tournaments/{tid}: the fields
// to change (left out or null: unchanged) and why.
type settingsRequest struct {
	Name              *string            `json:"name"`
	GamesPerRound     *int               `json:"games_per_round"`
	PlacementPoints   []int              `json:"placement_points"`
	AdvancePerTable   transfer.IntOrList `json:"advance_per_table"`
	Rounds            *int               `json:"rounds"`
	FinalSize         *int               `json:"final_size"`
	FinalGames        *int               `json:"final_games"`
	DayBreaks         []int              `json:"day_breaks"`
	Tiebreaks         []string           `json:"tiebreaks"`
	Seating           *string            `json:"seating"`
	Language          *string            `json:"language"`
	TimeZone          *string            `json:"time_zone"`
	CorrectionMinutes *int               `json:"correction_minutes"`
	Reason            string             `json:"reason"`
	// Format and Rules are read only to refuse them: they stay as created.
	Format json.RawMessage `json:"format"`
	Rules  json.RawMessage `json:"rules"`
}

func (r settingsRequest) toChange() tournament.SettingsChange {
	return tournament.SettingsChange{Name: r.Name, GamesPerRound: r.GamesPerRound, PlacementPoints: r.PlacementPoints,
		AdvancePerTable: r.AdvancePerTable, Rounds: r.Rounds, FinalSize: r.FinalSize, FinalGames: r.FinalGames,
		DayBreaks: r.DayBreaks, Tiebreaks: r.Tiebreaks, Seating: r.Seating, Language: r.Language, TimeZone: r.TimeZone,
		CorrectionMinutes: r.CorrectionMinutes, Reason: r.Reason}
}

// updateSettings changes a tournament's settings until round 1 is drawn.
func (s *Server) updateSettings(c echo.Context) error {
	var req settingsRequest
	if err := httpx.DecodeJSON(c, &req); err != nil {
		return err
	}
	if req.Format != nil || req.Rules != nil {
		field := map[bool]string{true: "format", false: "rules"}[req.Format != nil]
		return tournament.InvalidField(field, "the %s is fixed when the tournament is created; create a new tournament for another", field)
	}
	u, err := s.console.UpdateSettings(c.Request().Context(), app.UpdateSettings{Actor: actorOf(c), Tournament: c.Param("tid"), Change: req.toChange()})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toTournament(u.Result))
}

// intParam reads a positive path parameter; anything else names no
// resource and is the 404 notFound makes of it.
func intParam(c echo.Context, name string, notFound func(param string) *tournament.Error) (int, error) {
	n, err := strconv.Atoi(c.Param(name))
	if err != nil || n < 1 || n > 1_000_000 {
		return 0, notFound(c.Param(name))
	}
	return n, nil
}

// roundParam reads the round number {n} of a path.
func roundParam(c echo.Context) (int, error) {
	return intParam(c, "n", tournament.RoundParamNotFound)
}

// roundBody reads the round number {n} of a path and the request's JSON
// body into req: the first steps of every write to a round.
func roundBody[T any](c echo.Context, req *T) (int, error) {
	n, err := roundParam(c)
	if err != nil {
		return 0, err
	}
	return n, httpx.DecodeJSON(c, req)
}

// readRound reads the round number {n} of a path and reads the round with
// read: the first steps of the reads of a round.
func readRound[T any](c echo.Context, read func(ctx context.Context, tid string, n int) (T, error)) (int, T, error) {
	n, err := roundParam(c)
	if err != nil {
		var zero T
		return 0, zero, err
	}
	v, err := read(c.Request().Context(), c.Param("tid"), n)
	return n, v, err
}

// readAs reads a parameter of the request with param and reads with read,
// as the actor a, in the path's tournament: the first steps of the reads
// that take an actor.
func readAs[P, T any](c echo.Context, a tournament.Actor, param func(echo.Context) (P, error),
	read func(ctx context.Context, a tournament.Actor, tid string, p P) (T, error)) (T, error) {
	p, err := param(c)
	if err != nil {
		var zero T
		return zero, err
	}
	return read(c.Request().Context(), a, c.Param("tid"), p)
}

// tableNotFound and gameNotFound are the 404s of the table and game path
// parameters (tournament.RoundParamNotFound is the round's).
func tableNotFound(param string) *tournament.Error {
	return tournament.Errorf(tournament.KindNotFound, tournament.CodeTableNotFound, "table %q not found", param)
}

func gameNotFound(param string) *tournament.Error {
	return tournament.Errorf(tournament.KindNotFound, tournament.CodeGameNotFound, "game %q not found", param)
}
