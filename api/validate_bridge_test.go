package api_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/server"
)

// TestValidateBridge posts the bridge examples to /validate/bridge and to
// /validate/game (which dispatches on the record's "game").
func TestValidateBridge(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("..", "engine", "bridge", "testdata", "examples", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no bridge examples: %v", err)
	}
	s := startServer(t, api.Config{}, server.Deps{})
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
				Errors []struct {
					Code string `json:"code"`
				} `json:"errors"`
			} `json:"expect"`
		}
		if err := json.Unmarshal(data, &ex); err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{"/api/v1/validate/bridge", "/api/v1/validate/game"} {
			resp, body := s.postJSON(t, path, string(ex.Record))
			var got struct {
				Game   string           `json:"game"`
				Valid  bool             `json:"valid"`
				Errors []engine.Problem `json:"errors"`
				Totals map[string]int   `json:"totals"`
			}
			if err := json.Unmarshal(body, &got); err != nil || resp.StatusCode != http.StatusOK || got.Game == "" ||
				got.Valid != ex.Expect.Valid || len(got.Errors) != len(ex.Expect.Errors) {
				t.Errorf("%s %s = %d %s", path, filepath.Base(f), resp.StatusCode, body)
				continue
			}
			for k, v := range ex.Expect.Totals {
				if got.Totals[k] != v {
					t.Errorf("%s %s: totals %v, want %v", path, filepath.Base(f), got.Totals, ex.Expect.Totals)
				}
			}
			for i, e := range ex.Expect.Errors {
				if got.Errors[i].Code != e.Code || got.Errors[i].Path == "" {
					t.Errorf("%s %s: errors %+v", path, filepath.Base(f), got.Errors)
				}
			}
		}
	}
}

// TestValidateBridgeBadInput: not JSON and wrong types are 400 problems; a
// record that is no bridge match is a 200 result with unknown_game.
func TestValidateBridgeBadInput(t *testing.T) {
	t.Parallel()
	s := startServer(t, api.Config{}, server.Deps{})
	resp, body := s.postJSON(t, "/api/v1/validate/bridge", `{"game":"bridge_chicago",`)
	wantProblem(t, "not JSON", resp, body, http.StatusBadRequest, "malformed_json")
	resp, body = s.postJSON(t, "/api/v1/validate/bridge", `{"game":"bridge_chicago","players":"anna","first_dealer":"anna","deals":[]}`)
	wantProblem(t, "players a string", resp, body, http.StatusBadRequest, "invalid_field_type")
	resp, body = s.postJSON(t, "/api/v1/validate/game", `{"game":"draw_bridge","players":["a","b"],"first_dealer":"a","deals":[{"auction":[7]}]}`)
	wantProblem(t, "a call as a number", resp, body, http.StatusBadRequest, "invalid_field_type")
	for path, in := range map[string]string{
		"/api/v1/validate/bridge": `{"game":"chess","players":["a","b"],"first_dealer":"a","deals":[]}`,
	} {
		resp, body := s.postJSON(t, path, in)
		var got struct {
			Valid  bool             `json:"valid"`
			Errors []engine.Problem `json:"errors"`
		}
		if err := json.Unmarshal(body, &got); err != nil || resp.StatusCode != http.StatusOK || got.Valid || !hasCode(got.Errors, "unknown_game") {
			t.Errorf("POST %s %s = %d %s, want 200 with unknown_game", path, in, resp.StatusCode, body)
		}
	}
}
