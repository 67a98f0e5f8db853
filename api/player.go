package api

import (
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/transfer"
)

// playerRoutes registers the players of a tournament.
func (s *Server) playerRoutes(g *echo.Group) {
	g.POST("/tournaments/:tid/players", s.addPlayer, s.require(tournament.RoleOrganizer, tournament.RoleAdmin))
	g.POST("/tournaments/:tid/players\\:import", s.importPlayers, s.require(tournament.RoleOrganizer, tournament.RoleAdmin))
	g.GET("/tournaments/:tid/players", s.listPlayers, s.require(tournament.RolePublic))
	g.PATCH("/tournaments/:tid/players/:pid", s.updatePlayer, s.require(tournament.RoleOrganizer, tournament.RoleAdmin))
	g.DELETE("/tournaments/:tid/players/:pid", s.deletePlayer, s.require(tournament.RoleOrganizer, tournament.RoleAdmin))
}

// playerJSON is a player as the API shows it.
type playerJSON struct {
	ID           string    `json:"id"`
	Name         string    `json:"name"`
	Club         string    `json:"club"`
	Status       string    `json:"status"`
	RegisteredAt time.Time `json:"registered_at"`
	Person       string    `json:"person,omitempty"`
}

func toPlayer(p tournament.Player) playerJSON {
	return playerJSON{ID: p.ID, Name: p.Name, Club: p.Club, Status: string(p.Status), RegisteredAt: p.CreatedAt,
		Person: p.PersonID}
}

func toPlayers(ps []tournament.Player) []playerJSON {
	out := make([]playerJSON, len(ps))
	for i, p := range ps {
		out[i] = toPlayer(p)
	}
	return out
}

// playerRequest is the body of POST …/players.
type playerRequest struct {
	Name string `json:"name"`
	Club string `json:"club"`
	// Person picks the player's entry in the register; none adds one.
	Person string `json:"person"`
}

// playerUpdateRequest is the body of PATCH …/players/{pid}.
type playerUpdateRequest struct {
	Name   *string `json:"name"`
	Club   *string `json:"club"`
	Status *string `json:"status"`
}

func (r playerUpdateRequest) toUpdate() tournament.PlayerUpdate {
	u := tournament.PlayerUpdate{Name: r.Name, Club: r.Club}
	if r.Status != nil {
		st := tournament.PlayerStatus(*r.Status)
		u.Status = &st
	}
	return u
}

// playersJSON is the list of a tournament's players.
type playersJSON struct {
	Players []playerJSON `json:"players"`
}

func (s *Server) addPlayer(c echo.Context) error {
	var req playerRequest
	if err := httpx.DecodeJSON(c, &req); err != nil {
		return err
	}
	r, err := s.console.AddPlayers(c.Request().Context(), app.AddPlayers{Actor: actorOf(c), Tournament: c.Param("tid"),
		Players: []tournament.NewPlayer{{Name: req.Name, Club: req.Club, Person: req.Person}}})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, toPlayer(r.Players[0]))
}

// importPlayers takes a CSV (name,club) and registers every row, or none
// when any row is bad.
func (s *Server) importPlayers(c echo.Context) error {
	if err := requireCSV(c.Request()); err != nil {
		return err
	}
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return httpx.BodyReadError(err)
	}
	rows, err := transfer.ParsePlayersCSV(strings.NewReader(string(body)))
	if err != nil {
		return err
	}
	r, err := s.console.AddPlayers(c.Request().Context(), app.AddPlayers{Actor: actorOf(c), Tournament: c.Param("tid"), Players: rows})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, playersJSON{Players: toPlayers(r.Players)})
}

// requireCSV answers 415 unless the body is declared text/csv.
func requireCSV(r *http.Request) error {
	mt, _, err := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
	if err == nil && mt == "text/csv" {
		return nil
	}
	return echo.NewHTTPError(http.StatusUnsupportedMediaType,
		"the body must be CSV (name,club) with Content-Type: text/csv")
}

func (s *Server) listPlayers(c echo.Context) error {
	svc := s.deps.Tournaments
	ps, err := svc.Players(c.Request().Context(), c.Param("tid"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, playersJSON{Players: toPlayers(ps)})
}

func (s *Server) updatePlayer(c echo.Context) error {
	var req playerUpdateRequest
	if err := httpx.DecodeJSON(c, &req); err != nil {
		return err
	}
	u, err := s.console.UpdatePlayer(c.Request().Context(), app.UpdatePlayer{Actor: actorOf(c), Tournament: c.Param("tid"),
		Player: c.Param("pid"), Update: req.toUpdate()})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toPlayer(*u.Result))
}

// deletePlayer removes a player registered by mistake, before round 1 is
// drawn.
func (s *Server) deletePlayer(c echo.Context) error {
	if _, err := s.console.DeletePlayer(c.Request().Context(), app.DeletePlayer{Actor: actorOf(c), Tournament: c.Param("tid"), Player: c.Param("pid")}); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
