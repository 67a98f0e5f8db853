package web

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/tournament"
)

// tableConfirm is one player's line of a finished game's confirmations.
type tableConfirm struct {
	Player tablePlayer
	At     string // when the player confirmed (HH:MM UTC); "" not yet
}

// playedGame is a game of the table as the API holds it (GET …/deals):
// each deal's current version and record, and who has confirmed it.
type playedGame struct {
	Deals []struct {
		Deal    int             `json:"deal"`
		Version int             `json:"version"`
		Record  json.RawMessage `json:"record"`
	} `json:"deals"`
	Confirmations []struct {
		Player      string    `json:"player"`
		ConfirmedAt time.Time `json:"confirmed_at"`
	} `json:"confirmations"`
}

// readGame reads game g of the session's table through the API. ok is
// false when the API does not answer it: the page then shows no
// confirmations and offers no corrections.
func (h *Handler) readGame(c echo.Context, code string, id tournament.Identity, g int) (*playedGame, bool) {
	a := h.callAPI(c, http.MethodGet, gamePath(id, g)+"/deals", code, nil)
	if a.status != http.StatusOK {
		return nil, false
	}
	var out playedGame
	if json.Unmarshal(a.body.Bytes(), &out) != nil {
		return nil, false
	}
	return &out, true
}

// confirmations lists, for each player, when they confirmed the game.
func (pg *playedGame) confirmations(players []tablePlayer, loc locale) []tableConfirm {
	cs := make([]tableConfirm, len(players))
	for i, pl := range players {
		cs[i].Player = pl
		for _, cf := range pg.Confirmations {
			if cf.Player == pl.ID {
				cs[i].At = loc.Time(cf.ConfirmedAt)
			}
		}
	}
	return cs
}

// allConfirmed reports whether every player has confirmed.
func allConfirmed(cs []tableConfirm) bool {
	return len(cs) > 0 && !slices.ContainsFunc(cs, func(c tableConfirm) bool { return c.At == "" })
}

// tableConfirmGame records that a player at the table confirms game g
// (POST …/confirmations through the API).
func (h *Handler) tableConfirmGame(c echo.Context) error {
	code, id, ok := h.tableSession(c)
	if !ok {
		return h.tableGone(c)
	}
	g, err := strconv.Atoi(c.Param("g"))
	if err != nil || g < 1 || g > 100 {
		return h.tableProblem(c, id, http.StatusBadRequest, tableAnswer{Code: tournament.CodeInvalidGame,
			Messages: []tableMessage{{Text: translate(h.language(c), "tbl.e.other")}}})
	}
	body, _ := json.Marshal(map[string]string{"player": c.FormValue("player")})
	a := h.callAPI(c, http.MethodPost, gamePath(id, g)+"/confirmations", code, body)
	return h.tableAfter(c, id, g, a)
}

// tableDispute opens a dispute about game g for the referees, with the
// disputed deal marked (POST /disputes through the API). The description
// names the player who disputes.
func (h *Handler) tableDispute(c echo.Context) error {
	code, id, ok := h.tableSession(c)
	if !ok {
		return h.tableGone(c)
	}
	g, err := strconv.Atoi(c.Param("g"))
	deal, _ := strconv.Atoi(c.FormValue("deal"))
	if err != nil || g < 1 || g > 100 || deal < 0 || deal > 1000 {
		return h.tableProblem(c, id, http.StatusBadRequest, tableAnswer{Code: tournament.CodeInvalidGame,
			Messages: []tableMessage{{Text: translate(h.language(c), "tbl.e.other")}}})
	}
	text := strings.TrimSpace(c.FormValue("description"))
	st, err := h.state(c.Request().Context(), id.Tournament)
	if err != nil {
		return h.fail(c, err)
	}
	if who, ok := playerIndex(st)[c.FormValue("player")]; ok {
		text = who.Name + ": " + text
	}
	body, _ := json.Marshal(map[string]any{"round": id.Round, "table": id.Table, "game": g, "deal": deal, "description": text})
	a := h.callAPI(c, http.MethodPost, "/api/v1/tournaments/"+urlPathEscape(id.Tournament)+"/disputes", code, body)
	return h.tableAfter(c, id, g, a)
}

// tableAfter answers a confirmation or a dispute: JSON to the script,
// else back to the game, or the page with the problem in words.
func (h *Handler) tableAfter(c echo.Context, id tournament.Identity, g int, a *apiAnswer) error {
	if a.status >= 300 {
		st, err := h.state(c.Request().Context(), id.Tournament)
		if err != nil {
			return h.fail(c, err)
		}
		t, _ := roundOf(st, id.Round).Table(id.Table)
		return h.tableProblem(c, id, a.status, problemAnswer(h.newPage(c, "tbl.title"), a, t, playerIndex(st)))
	}
	h.cache.invalidate(id.Tournament)
	if wantsJSON(c) {
		return c.JSON(a.status, tableAnswer{OK: true})
	}
	return c.Redirect(http.StatusSeeOther, tableURL(id.Tournament)+"?game="+strconv.Itoa(g)+"#confirm")
}
