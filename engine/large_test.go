package engine_test

import (
	"strings"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/engine"
)

// TestLargeRecords checks that huge records are answered in bounded time
// (nothing quadratic in the size of the input: that would take minutes, so
// the generous bound holds under the race detector on a loaded machine).
func TestLargeRecords(t *testing.T) {
	t.Parallel()
	many := `"` + strings.Repeat(`a","`, 200000) + `b"`
	docs := map[string]string{
		"players":   `{"players":[` + many + `],"dealer":"a","hands":{},"exchanges":[],"announcements":[],"tricks":[]}`,
		"exchanges": `{"players":["a","b","c"],"dealer":"a","hands":{},"exchanges":[[` + strings.Repeat(`{"player":"a","discard":["2c"],"draw":["3c"]},`, 100000) + `{}],[],[]],"announcements":[[],[]],"tricks":[]}`,
		"tricks":    `{"players":["a","b","c"],"dealer":"a","hands":{},"exchanges":[[],[],[]],"announcements":[[],[]],"tricks":[[` + strings.Repeat(`{"player":"a","card":"2c"},`, 100000) + `{"player":"a","card":"2c"}]]}`,
		"keys":      `{"players":["a","b","c"],"dealer":"a","hands":{` + strings.Repeat(`"x":["2c"],`, 100000) + `"y":[]},"exchanges":[[],[],[]],"announcements":[[],[]],"tricks":[]}`,
		"deep":      strings.Repeat("[", 250) + strings.Repeat("]", 250),
	}
	for name, doc := range docs {
		start := time.Now()
		engine.Validate([]byte(doc), engine.GameOptions{})
		if d := time.Since(start); d > 30*time.Second {
			t.Errorf("%s: %v", name, d)
		}
		t.Logf("%s (%d bytes): %v", name, len(doc), time.Since(start))
	}
}
