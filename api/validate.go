package api

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/bridge"
	"github.com/revisor-sm/revisor/tournament"
)

// validateRoutes registers the public record checks; nothing is stored.
func (s *Server) validateRoutes(g *echo.Group) {
	g.POST("/validate/deal", s.validateDeal)
	g.POST("/validate/game", s.validateGame)
	g.POST("/validate/bridge", s.validateBridge)
}

// validateDeal checks and scores one deal record: 200 with the engine's
// result, also when the record is not valid.
func (s *Server) validateDeal(c echo.Context) error {
	body, err := httpx.ReadJSONBody(c)
	if err != nil {
		return err
	}
	rec, err := engine.DecodeDeal(body)
	if err != nil {
		derr, err := decodeProblem(err)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, derr.DealResult())
	}
	return c.JSON(http.StatusOK, engine.CheckDeal(rec))
}

// validateGame checks and scores one game record; ?in_progress=true accepts
// a game that is still being played.
func (s *Server) validateGame(c echo.Context) error {
	var opt engine.GameOptions
	if q := c.QueryParam("in_progress"); q != "" {
		b, err := strconv.ParseBool(q)
		if err != nil {
			return tournament.Errorf(tournament.KindInvalid, tournament.CodeInvalidQuery, "in_progress must be true or false, not %q", q)
		}
		opt.InProgress = b
	}
	body, err := httpx.ReadJSONBody(c)
	if err != nil {
		return err
	}
	if bridge.GameOf(body) != "" {
		return checkBridge(c, body)
	}
	rec, err := engine.DecodeGame(body)
	if err != nil {
		derr, err := decodeProblem(err)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, derr.GameResult())
	}
	return c.JSON(http.StatusOK, engine.CheckGame(rec, opt))
}

// validateBridge checks and scores one bridge match (docs/bridge.md).
func (s *Server) validateBridge(c echo.Context) error {
	body, err := httpx.ReadJSONBody(c)
	if err != nil {
		return err
	}
	return checkBridge(c, body)
}

// checkBridge answers with the bridge engine's result: 200 also when the
// record is not valid, 400 for a body that is not JSON or a field of the
// wrong type (decodeProblem).
func checkBridge(c echo.Context, body []byte) error {
	res, derr := bridge.Validate(body)
	if derr != nil {
		if _, err := decodeProblem(derr); err != nil {
			return err
		}
	}
	return c.JSONBlob(http.StatusOK, res.AppendJSON(nil))
}

// decodeProblem sorts the engine's decoding error: a body that is not JSON,
// or a field of the wrong JSON type, is a 400 whose errors list the
// problems; any other problem (a misspelt card, a missing list, an unknown
// rule) is part of a 200 result with valid false, as docs/records.md says.
func decodeProblem(err error) (*engine.DecodeError, error) {
	var derr *engine.DecodeError
	if !errors.As(err, &derr) {
		return nil, err
	}
	if derr.Syntax {
		return nil, tournament.Errorf(tournament.KindInvalid, tournament.CodeMalformedJSON,
			"the body is not valid JSON: %s", derr.Error()).WithProblems(derr.Problems)
	}
	if derr.WrongTypes > 0 {
		return nil, tournament.Errorf(tournament.KindInvalid, tournament.CodeInvalidFieldType,
			"%d field(s) have the wrong JSON type; the first problem: %s", derr.WrongTypes, derr.Error()).WithProblems(derr.Problems)
	}
	return derr, nil
}
