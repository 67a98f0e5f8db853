package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateBridgeExamples runs revisor validate on each bridge example
// (a file, then standard input) and compares the fields the examples name.
func TestValidateBridgeExamples(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../../engine/bridge/testdata/examples/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no bridge examples: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var ex struct {
			Record json.RawMessage `json:"record"`
			Expect struct {
				Valid  bool           `json:"valid"`
				Totals map[string]int `json:"totals"`
				Winner *string        `json:"winner"`
			} `json:"expect"`
		}
		if err := json.Unmarshal(data, &ex); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "r.json")
		if err := os.WriteFile(path, ex.Record, 0o600); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"validate", path}, {"validate", "-"}} {
			out, errOut, code := runCmd(t, string(ex.Record), args...)
			wantCode := 0
			if !ex.Expect.Valid {
				wantCode = 1
			}
			var got struct {
				Game   string         `json:"game"`
				Valid  bool           `json:"valid"`
				Totals map[string]int `json:"totals"`
				Winner *string        `json:"winner"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil || code != wantCode || got.Valid != ex.Expect.Valid ||
				(ex.Expect.Valid && (!mapsEqual(got.Totals, ex.Expect.Totals) || (got.Winner == nil) != (ex.Expect.Winner == nil))) {
				t.Errorf("%s %v: exit %d (want %d), stderr %q, result %s", filepath.Base(f), args, code, wantCode, errOut, out)
			}
			if got.Game == "" {
				t.Errorf("%s: the result does not name the game: %s", filepath.Base(f), out)
			}
		}
	}
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestValidateLinesBridgeMixed streams card-game deals and bridge matches
// together: one result per line in order, exit 1 for the broken match.
func TestValidateLinesBridgeMixed(t *testing.T) {
	t.Parallel()
	chicago, _, code := runCmd(t, "", "sim", "--game", "bridge_chicago", "--games", "5", "--play", "--seed", "4")
	if code != 0 {
		t.Fatalf("sim --game bridge_chicago: exit %d", code)
	}
	draw, _, code := runCmd(t, "", "sim", "--game", "draw_bridge", "--games", "5", "--vulnerability", "non_dealer")
	if code != 0 {
		t.Fatalf("sim --game draw_bridge: exit %d", code)
	}
	deals, _, _ := runCmd(t, "", "sim", "--deals", "5")
	in := chicago + deals + draw
	out, errOut, code := runCmd(t, in, "validate", "--lines", "-")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || len(lines) != 15 {
		t.Fatalf("validate --lines: exit %d, %d results, stderr %q", code, len(lines), errOut)
	}
	for i, l := range lines {
		bridgeLine := i < 5 || i >= 10
		if strings.HasPrefix(l, `{"game":"`) != bridgeLine || !strings.Contains(l, `"valid":true`) {
			t.Errorf("result %d: %.200s", i, l)
		}
	}
	broken := strings.Replace(strings.SplitN(chicago, "\n", 2)[0], `"auction":["`, `"auction":["XX","`, 1)
	out, _, code = runCmd(t, deals+broken+"\n", "validate", "--lines", "-")
	if code != 1 || !strings.Contains(out, `"code":"invalid_redouble"`) {
		t.Errorf("a broken match: exit %d, results %.400s", code, out)
	}
	for _, args := range [][]string{
		{"--game", "bridge"}, {"--game", "draw_bridge", "--deals", "3"}, {"--game", "bridge_chicago", "--games", "1", "--vulnerability", "all"},
	} {
		if _, _, code := runCmd(t, "", append([]string{"sim"}, args...)...); code != 2 {
			t.Errorf("sim %q: exit %d, want 2", args, code)
		}
	}
}
