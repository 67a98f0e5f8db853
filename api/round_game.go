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
	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/bridge"
	"github.com/revisor-sm/revisor/tournament"
)

// gameRoutes registers the games of a table: submitting a whole record,
// appending deals one by one, and reading the result.
func (s *Server) gameRoutes(g *echo.Group) {
	const game = "/tournaments/:tid/rounds/:n/tables/:t/games/:g"
	put := g.PUT(game, s.submitGame, s.require(tournament.RoleTable, tournament.RoleOrganizer, tournament.RoleAdmin))
	s.storeClaims[put.Path] = true // the store claims the key with the table's read (issue 17)
	g.GET(game, s.getGame, s.require(tournament.RolePublic))
	deals := g.POST(game+"/deals", s.appendDeal, s.require(tournament.RoleTable, tournament.RoleOrganizer, tournament.RoleAdmin))
	s.storeClaims[deals.Path] = true // the store claims the key and stores the answer (issue 17)
}

// placeJSON is one player's place in a game.
type placeJSON struct {
	Player          string `json:"player"`
	Place           int    `json:"place"`
	Score           int    `json:"score"`
	PlacementPoints int    `json:"placement_points"`
	Forfeit         bool   `json:"forfeit,omitempty"`
}

// resultJSON is a game's stored result. Round listings leave out the record
// and the engine's result; the answer to a submission leaves out the record
// (the client just sent it).
type resultJSON struct {
	ID              string         `json:"id"`
	Round           int            `json:"round"`
	Table           int            `json:"table"`
	Game            int            `json:"game"`
	Kind            string         `json:"kind"`
	Places          []placeJSON    `json:"places"`
	PlacementPoints map[string]int `json:"placement_points"`
	SubmittedBy     string         `json:"submitted_by"`
	SubmittedAt     time.Time      `json:"submitted_at"`
	// Confirmations and Confirmed: GET …/games/{g} only.
	Confirmations *[]confirmationJSON `json:"confirmations,omitempty"`
	Confirmed     *bool               `json:"confirmed,omitempty"`
	Record        json.RawMessage     `json:"record,omitempty"`
	Result        json.RawMessage     `json:"result,omitempty"`
}

func toResult(r *tournament.GameResult, record, result bool) resultJSON {
	out := resultJSON{ID: strconv.FormatInt(r.ID, 10), Round: r.Key.Round, Table: r.Key.Table, Game: r.Key.Game, Kind: string(r.Kind),
		Places: make([]placeJSON, len(r.Places)), PlacementPoints: r.PlacementPoints(),
		SubmittedBy: r.SubmittedBy, SubmittedAt: r.CreatedAt}
	for i, p := range r.Places {
		out.Places[i] = placeJSON{Player: p.Player, Place: p.Place, Score: p.Score, PlacementPoints: p.Points, Forfeit: p.Forfeit}
	}
	if record {
		out.Record = r.Record
	}
	if result {
		out.Result = r.Result
	}
	return out
}

// gameKey reads a game's path parameters.
func gameKey(c echo.Context) (tournament.GameKey, error) {
	k := tournament.GameKey{TournamentID: c.Param("tid")}
	var err error
	if k.Round, err = intParam(c, "n", tournament.RoundParamNotFound); err != nil {
		return k, err
	}
	if k.Table, err = intParam(c, "t", tableNotFound); err != nil {
		return k, err
	}
	k.Game, err = intParam(c, "g", gameNotFound)
	return k, err
}

// readGame reads the game of the path and reads it with read: the first
// steps of the reads of a game.
func readGame[T any](c echo.Context, read func(context.Context, tournament.GameKey) (T, error)) (T, error) {
	k, err := gameKey(c)
	if err != nil {
		var zero T
		return zero, err
	}
	return read(c.Request().Context(), k)
}

// gameBody reads the game of the path and the request's JSON body, as
// bytes for the engine to decode.
func gameBody(c echo.Context) (tournament.GameKey, []byte, error) {
	k, err := gameKey(c)
	if err != nil {
		return k, nil, err
	}
	body, err := httpx.ReadJSONBody(c)
	return k, body, err
}

// gameRequest reads the game of the path and decodes the request's JSON
// body into req.
func gameRequest[T any](c echo.Context, req *T) (tournament.GameKey, error) {
	k, err := gameKey(c)
	if err != nil {
		return k, err
	}
	return k, httpx.DecodeJSON(c, req)
}

func (s *Server) submitGame(c echo.Context) error {
	k, body, err := gameBody(c)
	if err != nil {
		return err
	}
	// The key is claimed with the table's read (requestUnit); the answer
	// is stored after the result, which it holds as stored.
	via := unitOf(c, func(echo.Context, string, any) ([]byte, error) { return nil, nil })
	sub, err := s.deps.Table.SubmitGame(c.Request().Context(), app.SubmitGame{Actor: actorOf(c), Game: k, Record: body, Via: via})
	if err != nil {
		return err
	}
	status := http.StatusCreated
	if !sub.Created {
		status = http.StatusOK
	}
	return writeResult(c, status, toResult(sub.Result, false, true))
}

// writeResult writes a result. The record and the engine's result are
// stored JSON, spliced in as they are: encoding/json would re-validate and
// compact every byte of them, the larger part of a submission's CPU time.
func writeResult(c echo.Context, status int, r resultJSON) error {
	record, result := r.Record, r.Result
	r.Record, r.Result = nil, nil
	head, err := json.Marshal(r)
	if err != nil {
		return err
	}
	buf := make([]byte, 0, len(head)+len(record)+len(result)+24)
	buf = append(buf, head[:len(head)-1]...)
	if record != nil {
		buf = append(append(buf, `,"record":`...), record...)
	}
	if result != nil {
		buf = append(append(buf, `,"result":`...), result...)
	}
	buf = append(buf, "}\n"...)
	return c.Blob(status, echo.MIMEApplicationJSON, buf)
}

func (s *Server) getGame(c echo.Context) error {
	v, err := readGame(c, s.deps.Games.GameWithConfirmations)
	if err != nil {
		return err
	}
	out := toResult(v.Result, true, true)
	cs := toConfirmations(v.Confirmations)
	out.Confirmations, out.Confirmed = &cs, &v.Confirmed
	return writeResult(c, http.StatusOK, out)
}

// dealJSON is the answer to an appended deal: the deal's result, the game's
// running scores, and the result when the deal ended the game.
type dealJSON struct {
	Deal     int                `json:"deal"`
	Result   *engine.DealResult `json:"result"`
	Scores   map[string]int     `json:"scores"`
	GameOver bool               `json:"game_over"`
	EndedBy  string             `json:"ended_by,omitempty"` // once over: "target", or "time" when time was called
	Game     *resultJSON        `json:"game,omitempty"`
}

// matchDealJSON is the answer to a deal entered at a bridge table: the
// deal's result, the match as it stands (with next_dealer while it goes
// on) and, when the deal ended it, the table's result.
type matchDealJSON struct {
	Deal     int                `json:"deal"`
	Result   *bridge.DealResult `json:"result"`
	Match    *bridge.Result     `json:"match"`
	GameOver bool               `json:"game_over"`
	Game     *resultJSON        `json:"game,omitempty"`
}

func (s *Server) appendDeal(c echo.Context) error {
	k, body, err := gameBody(c)
	if err != nil {
		return err
	}
	n, err := dealNumber(c)
	if err != nil {
		return err
	}
	// A deal that does not end its game is answered before it is stored
	// (requestUnit): the answer commits with the deal.
	via := unitOf(c, func(c echo.Context, key string, outcome any) ([]byte, error) {
		status, out := dealAnswer(outcome.(*tournament.DealProgress))
		return prepareAnswer(c, key, status, out)
	})
	p, err := s.deps.Table.EnterDeal(c.Request().Context(), app.EnterDeal{Actor: actorOf(c), Game: k, Deal: n, Data: body, Via: via})
	if err != nil {
		return err
	}
	return c.JSON(dealAnswer(p))
}

// dealAnswer is the status and the body of the answer to an entered deal:
// a Chicago table's or a bridge table's.
func dealAnswer(p *tournament.DealProgress) (int, any) {
	status := http.StatusCreated
	if p.Repeat {
		status = http.StatusOK
	}
	if p.Match != nil {
		out := matchDealJSON{Deal: p.Deal, Result: p.MatchDeal, Match: p.Match, GameOver: p.Match.Complete}
		if p.Final != nil {
			g := toResult(p.Final, false, true)
			out.Game = &g
		}
		return status, out
	}
	return status, toDealJSON(p)
}

// dealNumber reads the optional ?deal=n of an appended deal: the number the
// deal must get, so that sending it again is answered, not entered twice
// (0 when absent).
func dealNumber(c echo.Context) (int, error) {
	v := c.QueryParam("deal")
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, tournament.Errorf(tournament.KindInvalid, tournament.CodeInvalidDealNumber,
			"the query parameter deal must be a deal number of 1 or more, not %q", v)
	}
	return n, nil
}
