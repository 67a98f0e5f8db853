package api

import (
	"math"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
)

// roomGameJSON is one game in the room view.
type roomGameJSON struct {
	Game          int                `json:"game"`
	Deals         int                `json:"deals"`
	Scores        map[string]int     `json:"scores"`
	LastEntryAt   *time.Time         `json:"last_entry_at"`
	MinutesIdle   *int               `json:"minutes_since_last_entry"`
	Over          bool               `json:"over"`
	Confirmed     bool               `json:"confirmed"`
	Waiting       bool               `json:"waiting_for_confirmation"`
	Confirmations []confirmationJSON `json:"confirmations"`
}

// roomTableJSON is one table in the room view.
type roomTableJSON struct {
	Table   int            `json:"table"`
	Players []string       `json:"players"`
	Games   []roomGameJSON `json:"games"`
}

// roomJSON is GET …/rounds/{n}/room.
type roomJSON struct {
	Round  int             `json:"round"`
	Status string          `json:"status"`
	Clock  httpx.Clock     `json:"clock"`
	Tables []roomTableJSON `json:"tables"`
}

func (s *Server) getRoom(c echo.Context) error {
	room, err := readAs(c, actorOf(c), roundParam, s.deps.Room.Room)
	if err != nil {
		return err
	}
	out := roomJSON{Round: room.Round.Number, Status: string(room.Round.Status), Clock: toClock(room.Clock, room.Now),
		Tables: make([]roomTableJSON, len(room.Tables))}
	for i, t := range room.Tables {
		rt := roomTableJSON{Table: t.Table.Number, Players: t.Table.Players, Games: make([]roomGameJSON, len(t.Games))}
		for j, g := range t.Games {
			rg := roomGameJSON{Game: g.Game, Deals: g.Deals, Scores: g.Scores, LastEntryAt: g.LastEntry, Over: g.Over,
				Confirmed: g.Confirmed, Waiting: g.Waiting, Confirmations: toConfirmations(g.Confirmations)}
			if g.LastEntry != nil {
				m := int(math.Floor(room.Now.Sub(*g.LastEntry).Minutes()))
				rg.MinutesIdle = &m
			}
			rt.Games[j] = rg
		}
		out.Tables[i] = rt
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	return c.JSON(http.StatusOK, out)
}
