package bridge

import (
	"bytes"
	"encoding/json"
)

// GameOf returns the game a record names in its top-level "game" member
// when that is a bridge game (GameChicago or GameDraw), and "" for anything
// else: the card game's records, which have no such member, and input that
// is not a JSON object. Readers of both games dispatch on it; it costs a
// substring search for records that do not mention a bridge game.
func GameOf(data []byte) string {
	if !bytes.Contains(data, []byte(GameChicago)) && !bytes.Contains(data, []byte(GameDraw)) {
		return ""
	}
	var top struct {
		Game json.RawMessage `json:"game"`
	}
	if json.Unmarshal(data, &top) != nil {
		return ""
	}
	switch string(top.Game) {
	case `"` + GameChicago + `"`:
		return GameChicago
	case `"` + GameDraw + `"`:
		return GameDraw
	}
	return ""
}
