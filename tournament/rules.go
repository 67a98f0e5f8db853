package tournament

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/bridge"
)

// A tournament's rules, as the engine of its format's game reads them,
// and the errors that word what the engine refused: creating a
// tournament and changing its settings check the rules here, and package
// play judges its games' records with them.

// CheckRules validates a tournament's rules object with the engine of its
// format's game.
func CheckRules(f Format, raw json.RawMessage) error {
	if raw == nil {
		return nil
	}
	if f == FormatBridge {
		_, err := BridgeRules(raw)
		return err
	}
	if _, err := engine.ParseRules(raw); err != nil {
		return DecodeErrorOf(err, CodeInvalidRules, "the rules are not valid")
	}
	return nil
}

// EngineRules returns the tournament's rules as the engine reads them.
func (s Settings) EngineRules() engine.Rules {
	if s.Rules == nil {
		return engine.SM()
	}
	r, err := engine.ParseRules(s.Rules)
	if err != nil { // checked at creation
		return engine.SM()
	}
	return r
}

// DecodeErrorOf turns an engine decode error into a 400 (not JSON, or fields
// of the wrong JSON type: a malformed request, as at /validate) or a 422
// with the engine's problems.
func DecodeErrorOf(err error, code, what string) error {
	var de *engine.DecodeError
	if !errors.As(err, &de) {
		return &Error{Kind: KindInvalid, Code: code, Message: what, Err: err}
	}
	if de.Syntax {
		return &Error{Kind: KindInvalid, Code: CodeMalformedJSON, Message: what + ": " + de.Error(), Err: err}
	}
	if de.WrongTypes > 0 {
		return Errorf(KindInvalid, CodeInvalidFieldType, "%s: %d field(s) have the wrong JSON type; the first problem: %s",
			what, de.WrongTypes, de.Error()).WithProblems(de.Problems)
	}
	return ProblemsError(code, what+": "+de.Error(), de.Problems)
}

// ProblemsError is a 422 that lists problems in the engine's format.
func ProblemsError(code, msg string, ps []engine.Problem) error {
	return Errorf(KindRejected, code, "%s", msg).WithProblems(ps)
}

// bridgeTiebreaks are a bridge tournament's default tiebreaks: matches
// won, then the best single round, then a lot.
var bridgeTiebreaks = []string{TiebreakGamesWon, TiebreakBestGame, TiebreakLot}

// BridgeRules reads a bridge tournament's rules object: only the Chicago's
// vulnerability switch.
func BridgeRules(raw json.RawMessage) (bridge.Rules, error) {
	var r struct {
		Vulnerability string `json:"vulnerability"`
	}
	if raw == nil {
		return bridge.Rules{}, nil
	}
	if err := strictJSON(raw, &r); err != nil {
		return bridge.Rules{}, InvalidField("rules", "a bridge_chicago tournament's rules are {\"vulnerability\": \"dealer\" or \"non_dealer\"}")
	}
	switch r.Vulnerability {
	case "", bridge.VulDealer, bridge.VulNonDealer:
		return bridge.Rules{Vulnerability: r.Vulnerability}, nil
	}
	return bridge.Rules{}, InvalidField("rules", "the vulnerability rule is \"dealer\" or \"non_dealer\", not %q", r.Vulnerability)
}

// strictJSON decodes raw into v, refusing unknown members.
func strictJSON(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
