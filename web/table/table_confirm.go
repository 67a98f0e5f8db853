package table

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/referee"
	"github.com/revisor-sm/revisor/web/sheet"
	"github.com/revisor-sm/revisor/web/site"
)

// tableConfirm is one player's line of a finished game's confirmations.
type tableConfirm struct {
	Player sheet.TablePlayer
	At     string // when the player confirmed (HH:MM UTC); "" not yet
}

// readGame reads game g of the session's table as it stands: each deal's
// current version and record, and who has confirmed it. ok is false when
// it does not read: the page then shows no confirmations and offers no
// corrections.
func (h *Handler) readGame(c echo.Context, id tournament.Identity, g int) (*tournament.TableGame, bool) {
	k := tournament.GameKey{TournamentID: id.Tournament, Round: id.Round, Table: id.Table, Game: g}
	tg, err := h.Deps().Table.GameDeals(c.Request().Context(), app.GameDeals{Game: k})
	return tg, err == nil
}

// confirmations lists, for each player, when they confirmed game g.
func confirmations(g *tournament.TableGame, players []sheet.TablePlayer, loc site.Locale) []tableConfirm {
	cs := make([]tableConfirm, len(players))
	for i, pl := range players {
		cs[i].Player = pl
		for _, cf := range g.Confirmations {
			if cf.Player == pl.ID {
				cs[i].At = loc.Time(cf.At)
			}
		}
	}
	return cs
}

// allConfirmed reports whether every player has confirmed.
func allConfirmed(cs []tableConfirm) bool {
	return len(cs) > 0 && !slices.ContainsFunc(cs, func(c tableConfirm) bool { return c.At == "" })
}

// tableConfirmGame records that a player at the table confirms game g.
func (h *Handler) tableConfirmGame(c echo.Context) error {
	code, id, ok := h.TableSession(c)
	if !ok {
		return h.tableGone(c)
	}
	g, err := strconv.Atoi(c.Param("g"))
	if err != nil || g < 1 || g > 100 {
		return h.tableProblem(c, id, http.StatusBadRequest, tableAnswer{Code: tournament.CodeInvalidGame,
			Messages: []sheet.TableMessage{{Text: site.Translate(h.Language(c), "tbl.e.other")}}})
	}
	cmd := app.ConfirmGame{Actor: tableActor(id), Player: c.FormValue("player"),
		Game: tournament.GameKey{TournamentID: id.Tournament, Round: id.Round, Table: id.Table, Game: g}}
	o, err := h.once(c, code, true, "confirm\x00"+cmd.Player, confirmOutcome, func(ctx context.Context, via app.Via) (any, error) {
		cmd.Via = via.Games
		return h.Deps().Table.ConfirmGame(ctx, cmd)
	})
	return h.tableAfter(c, id, g, o, err)
}

// tableDispute opens a dispute about game g for the referees, with the
// disputed deal marked. The description names the player who disputes.
func (h *Handler) tableDispute(c echo.Context) error {
	code, id, ok := h.TableSession(c)
	if !ok {
		return h.tableGone(c)
	}
	g, err := strconv.Atoi(c.Param("g"))
	deal, _ := strconv.Atoi(c.FormValue("deal"))
	if err != nil || g < 1 || g > 100 || deal < 0 || deal > 1000 {
		return h.tableProblem(c, id, http.StatusBadRequest, tableAnswer{Code: tournament.CodeInvalidGame,
			Messages: []sheet.TableMessage{{Text: site.Translate(h.Language(c), "tbl.e.other")}}})
	}
	text := strings.TrimSpace(c.FormValue("description"))
	st, err := h.State(c.Request().Context(), id.Tournament)
	if err != nil {
		return h.Fail(c, err)
	}
	if who, ok := site.PlayerIndex(st)[c.FormValue("player")]; ok {
		text = who.Name + ": " + text
	}
	cmd := app.OpenDispute{Actor: tableActor(id), Tournament: id.Tournament,
		Dispute: referee.NewDispute{Round: id.Round, Table: id.Table, Game: g, Deal: deal, Description: text}}
	o, err := h.once(c, code, true, "dispute\x00"+strconv.Itoa(g)+"\x00"+strconv.Itoa(deal)+"\x00"+text, disputeOutcome,
		func(ctx context.Context, via app.Via) (any, error) {
			cmd.Via = via.Disputes
			return h.Deps().Table.OpenDispute(ctx, cmd)
		})
	return h.tableAfter(c, id, g, o, err)
}

// tableAfter answers a confirmation or a dispute: JSON to the script,
// else back to the game, or the page with the problem in words.
func (h *Handler) tableAfter(c echo.Context, id tournament.Identity, g int, o tableOutcome, err error) error {
	if o.Status >= 300 || err != nil {
		return h.tableRefused(c, nil, id, o, err)
	}
	h.Invalidate(id.Tournament)
	if wantsJSON(c) {
		return c.JSON(o.Status, tableAnswer{OK: true})
	}
	return c.Redirect(http.StatusSeeOther, site.TableURL(id.Tournament)+"?game="+strconv.Itoa(g)+"#confirm")
}
