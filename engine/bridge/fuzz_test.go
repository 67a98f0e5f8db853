package bridge_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/revisor-sm/revisor/engine/bridge"
	"github.com/revisor-sm/revisor/engine/bridge/sim"
)

// FuzzValidate feeds the record parser and the checker anything: neither
// may panic, the result is always JSON, a valid result has no errors and
// every problem has a code and a JSON Pointer path.
func FuzzValidate(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "examples", "*.json"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		var ex example
		if json.Unmarshal(data, &ex) == nil {
			f.Add([]byte(ex.Record))
		}
	}
	s := sim.New(1, sim.Options{Play: true})
	f.Add(s.Match(bridge.GameChicago, sim.Players(4)).AppendJSON(nil))
	f.Add(s.Match(bridge.GameDraw, sim.Players(2)).AppendJSON(nil))
	f.Add([]byte(`{"game":"draw_bridge","players":["a","b"],"first_dealer":"b","ended_by":"time","deals":[{"auction":["P","P"]}]}`))
	f.Add([]byte(`[1,{"a":null}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, derr := bridge.Validate(data)
		if res == nil || (derr != nil && res.Valid) || (res.Valid != (len(res.Errors) == 0)) {
			t.Fatalf("Validate: result %+v, decode error %v", res, derr)
		}
		for _, p := range res.Errors {
			if p.Code == "" || (p.Path != "" && p.Path[0] != '/') || p.Message == "" {
				t.Fatalf("a problem without code, path or message: %+v", p)
			}
		}
		out, err := json.Marshal(res)
		if err != nil || !json.Valid(out) {
			t.Fatalf("result JSON %q: %v", out, err)
		}
		if derr != nil {
			return
		}
		// A record that decodes reads back the same from its own JSON.
		rec, _ := bridge.Decode(data)
		again, err := bridge.Decode(rec.AppendJSON(nil))
		if err != nil {
			t.Fatalf("Decode(AppendJSON(Decode(%q))) = %v", data, err)
		}
		if a, b := bridge.Check(again).AppendJSON(nil), res.AppendJSON(nil); string(a) != string(b) {
			t.Fatalf("re-encoded record checks as\n%s\nwant\n%s", a, b)
		}
	})
}
