package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/server"
)

// example is one file of the example records (engine/testdata/examples,
// docs/records.md): a record and the result it must get.
type example struct {
	Kind   string          `json:"kind"`
	Record json.RawMessage `json:"record"`
	Expect json.RawMessage `json:"expect"`
}

// TestValidateExamples posts every example record (the engine's golden
// examples, one copy in the repository) and compares the answer with the
// example's expected result.
func TestValidateExamples(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("..", "engine", "testdata", "examples", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples in ../engine/testdata/examples: %v", err)
	}
	s := startServer(t, api.Config{}, server.Deps{})
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var ex example
		if err := json.Unmarshal(data, &ex); err != nil || (ex.Kind != "deal" && ex.Kind != "game") {
			continue // not a record example
		}
		resp, body := s.postJSON(t, "/api/v1/validate/"+ex.Kind, string(ex.Record))
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s: status %d, want 200: %s", filepath.Base(f), resp.StatusCode, body)
			continue
		}
		got, want := summary(t, body), summary(t, ex.Expect)
		if !agrees(got, want) {
			t.Errorf("%s: POST /validate/%s = %+v, want %+v", filepath.Base(f), ex.Kind, got, want)
		}
	}
}

// TestValidateInvalidRecordIs200 checks that a record that parses but is
// not valid gets a 200 result with valid false and the errors.
func TestValidateInvalidRecordIs200(t *testing.T) {
	t.Parallel()
	s := startServer(t, api.Config{}, server.Deps{})
	tests := []struct{ path, body, code string }{
		{"/api/v1/validate/deal", strings.Replace(minimalDeal, `"hands":{}`, `"hands":{"a":["Xz","2c","3c","4c","5c"]}`, 1), "invalid_card"},
		{"/api/v1/validate/deal", `{"players":["a","b","c","d"],"dealer":"a"}`, "invalid_record"},
		{"/api/v1/validate/game", `{"players":["a","b","c","d"],"first_dealer":"a","deals":[]}`, "game_not_finished"},
	}
	for _, tt := range tests {
		resp, body := s.postJSON(t, tt.path, tt.body)
		var got struct {
			Valid  bool             `json:"valid"`
			Errors []engine.Problem `json:"errors"`
		}
		if err := json.Unmarshal(body, &got); err != nil || resp.StatusCode != http.StatusOK {
			t.Errorf("POST %s %s = %d %s, want 200 and a result", tt.path, tt.body, resp.StatusCode, body)
			continue
		}
		if got.Valid || !hasCode(got.Errors, tt.code) {
			t.Errorf("POST %s %s = valid %v, errors %v; want valid false with %s", tt.path, tt.body, got.Valid, got.Errors, tt.code)
		}
	}
}

func TestValidateGameInProgress(t *testing.T) {
	t.Parallel()
	s := startServer(t, api.Config{}, server.Deps{})
	game := `{"players":["a","b","c","d"],"first_dealer":"a","deals":[{"sheet":{"a":{"hand1":2,"last_trick":5}}}]}`
	resp, body := s.postJSON(t, "/api/v1/validate/game?in_progress=true", game)
	var got engine.GameResult
	if err := json.Unmarshal(body, &got); err != nil || resp.StatusCode != http.StatusOK || !got.Valid {
		t.Errorf("game in progress with in_progress=true = %d %s, want 200 valid", resp.StatusCode, body)
	}
	resp, body = s.postJSON(t, "/api/v1/validate/game?in_progress=maybe", game)
	wantProblem(t, "in_progress=maybe", resp, body, http.StatusBadRequest, "invalid_query")
}

func hasCode(problems []engine.Problem, code string) bool {
	for _, p := range problems {
		if p.Code == code {
			return true
		}
	}
	return false
}

// resultSummary is what must agree between a result and an example's
// expectation (docs/records.md, "Example records"); paths and messages may differ.
type resultSummary struct {
	Valid      bool
	Errors     []string // codes
	Violations []string // code/player
	Awards     []string // player/source/points
	Points     map[string]int
	Scores     map[string]int
	Ended      string
	GameOver   bool
	Winners    []string
	Placements []string // player/place
	Forfeits   []string
}

func summary(t *testing.T, data []byte) resultSummary {
	t.Helper()
	var r struct {
		Valid      bool               `json:"valid"`
		Errors     []engine.Problem   `json:"errors"`
		Violations []engine.Violation `json:"violations"`
		Awards     []engine.Award     `json:"awards"`
		Points     map[string]int     `json:"points"`
		Scores     map[string]int     `json:"scores"`
		Ended      string             `json:"ended"`
		GameOver   bool               `json:"game_over"`
		Winners    []string           `json:"winners"`
		Placements []engine.Placement `json:"placements"`
		Forfeits   []string           `json:"forfeits"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("result %s: %v", data, err)
	}
	s := resultSummary{Valid: r.Valid, Points: r.Points, Scores: r.Scores, Ended: r.Ended, GameOver: r.GameOver,
		Winners: r.Winners, Forfeits: r.Forfeits}
	for _, e := range r.Errors {
		s.Errors = append(s.Errors, e.Code)
	}
	for _, v := range r.Violations {
		s.Violations = append(s.Violations, v.Code+"/"+v.Player)
	}
	for _, a := range r.Awards {
		s.Awards = append(s.Awards, fmt.Sprintf("%s/%s/%d", a.Player, a.Source, a.Points))
	}
	for _, p := range r.Placements {
		s.Placements = append(s.Placements, fmt.Sprintf("%s/%d", p.Player, p.Place))
	}
	return s
}

// agrees compares a result with an expectation: the fields the expectation
// states must be equal, and an invalid record must report at least the
// first expected error.
func agrees(got, want resultSummary) bool {
	if len(want.Errors) > 0 && !slices.Contains(got.Errors, want.Errors[0]) {
		return false
	}
	got.Errors, want.Errors = nil, nil
	if want.Points == nil {
		got.Points = nil
	}
	if want.Scores == nil {
		got.Scores = nil
	}
	if want.Winners == nil {
		got.Winners = nil
	}
	if want.Placements == nil {
		got.Placements = nil
	}
	if want.Forfeits == nil {
		got.Forfeits = nil
	}
	return reflect.DeepEqual(got, want)
}
