package bridge_test

import (
	"testing"

	"github.com/revisor-sm/revisor/engine/bridge"
)

func TestGameOf(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{"game":"bridge_chicago","players":[]}`:             bridge.GameChicago,
		` {"deals":[],"game":"draw_bridge"}`:                 bridge.GameDraw,
		`{"players":["bridge_chicago"],"deals":[]}`:          "",
		`{"x":{"game":"bridge_chicago"}}`:                    "",
		`{"game":"bridge_chicago"`:                           "",
		`["bridge_chicago"]`:                                 "",
		`{"game":"Bridge_Chicago","note":"bridge_chicago"}`:  "",
		`{"players":["a","b","c"],"dealer":"a","hands":{}}`:  "",
		`{"game":"draw_bridge","game":"bridge_chicago"}`:     bridge.GameChicago,
		`{"game":["draw_bridge"],"players":["draw_bridge"]}`: "",
	} {
		if got := bridge.GameOf([]byte(in)); got != want {
			t.Errorf("GameOf(%s) = %q, want %q", in, got, want)
		}
	}
}
