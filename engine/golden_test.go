package engine_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/engine"
)

// example is one file of testdata/examples (docs/records.md, "Example records").
type example struct {
	Kind   string          `json:"kind"`
	Note   string          `json:"note"`
	Record json.RawMessage `json:"record"`
	Expect json.RawMessage `json:"expect"`
}

// expectDeal holds the fields of a deal result the examples README names.
type expectDeal struct {
	Valid  bool `json:"valid"`
	Errors []struct {
		Code string `json:"code"`
	} `json:"errors"`
	Violations []struct {
		Code   string `json:"code"`
		Player string `json:"player"`
	} `json:"violations"`
	Awards []struct {
		Player string `json:"player"`
		Source string `json:"source"`
		Points int    `json:"points"`
	} `json:"awards"`
	Points   map[string]int `json:"points"`
	Scores   map[string]int `json:"scores"`
	Ended    *string        `json:"ended"`
	GameOver *bool          `json:"game_over"`
	Winners  []string       `json:"winners"`
}

type expectGame struct {
	expectDeal
	Deals      []expectDeal `json:"deals"`
	Placements []struct {
		Player string `json:"player"`
		Place  int    `json:"place"`
	} `json:"placements"`
	Forfeits []string `json:"forfeits"`
}

const sharedExamples = "../../shared/spec/examples"

func exampleFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "examples", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples in testdata/examples: %v", err)
	}
	return files
}

// TestExamplesCopied checks that testdata/examples is a faithful copy of the
// shared examples when the shared folder is present.
func TestExamplesCopied(t *testing.T) {
	t.Parallel()
	shared, _ := filepath.Glob(filepath.Join(sharedExamples, "*"))
	if len(shared) == 0 {
		t.Skip("shared examples not present")
	}
	for _, f := range shared {
		want, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join("testdata", "examples", filepath.Base(f)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("testdata/examples/%s differs from %s (copy it again): %v", filepath.Base(f), f, err)
		}
	}
}

func TestExamples(t *testing.T) {
	t.Parallel()
	for _, f := range exampleFiles(t) {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".json"), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var ex example
			if err := json.Unmarshal(data, &ex); err != nil {
				t.Fatal(err)
			}
			switch ex.Kind {
			case "deal":
				checkDealExample(t, ex)
			case "game":
				checkGameExample(t, ex)
			default:
				t.Fatalf("kind %q", ex.Kind)
			}
		})
	}
}

func checkDealExample(t *testing.T, ex example) {
	var want expectDeal
	if err := json.Unmarshal(ex.Expect, &want); err != nil {
		t.Fatal(err)
	}
	rec, err := engine.DecodeDeal(ex.Record)
	if err != nil {
		t.Fatalf("DecodeDeal: %v", err)
	}
	got := roundTrip[expectDeal](t, engine.CheckDeal(rec))
	compareDeal(t, "", got, want)
}

func checkGameExample(t *testing.T, ex example) {
	var want expectGame
	if err := json.Unmarshal(ex.Expect, &want); err != nil {
		t.Fatal(err)
	}
	rec, err := engine.DecodeGame(ex.Record)
	if err != nil {
		t.Fatalf("DecodeGame: %v", err)
	}
	got := roundTrip[expectGame](t, engine.CheckGame(rec, engine.GameOptions{}))
	compareDeal(t, "", got.expectDeal, want.expectDeal)
	if len(got.Deals) != len(want.Deals) {
		t.Fatalf("deals: got %d, want %d", len(got.Deals), len(want.Deals))
	}
	for i := range want.Deals {
		compareDeal(t, "deals["+string(rune('0'+i))+"].", got.Deals[i], want.Deals[i])
	}
	if !reflect.DeepEqual(got.Placements, want.Placements) {
		t.Errorf("placements = %+v, want %+v", got.Placements, want.Placements)
	}
	if !reflect.DeepEqual(got.Forfeits, want.Forfeits) {
		t.Errorf("forfeits = %v, want %v", got.Forfeits, want.Forfeits)
	}
}

// roundTrip marshals a result and reads back the compared fields, so the
// test also covers the JSON the engine writes.
func roundTrip[T any](t *testing.T, v any) T {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("null")) {
		t.Errorf("result JSON contains null: %s", b)
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func compareDeal(t *testing.T, prefix string, got, want expectDeal) {
	t.Helper()
	if got.Valid != want.Valid {
		t.Errorf("%svalid = %v, want %v (errors %+v)", prefix, got.Valid, want.Valid, got.Errors)
	}
	if len(want.Errors) > 0 {
		found := false
		for _, e := range got.Errors {
			found = found || e.Code == want.Errors[0].Code
		}
		if !found {
			t.Errorf("%serrors = %+v, want one with code %s", prefix, got.Errors, want.Errors[0].Code)
		}
	} else if len(got.Errors) > 0 {
		t.Errorf("%serrors = %+v, want none", prefix, got.Errors)
	}
	if !reflect.DeepEqual(got.Violations, want.Violations) {
		t.Errorf("%sviolations = %+v, want %+v", prefix, got.Violations, want.Violations)
	}
	if !reflect.DeepEqual(got.Awards, want.Awards) {
		t.Errorf("%sawards = %+v, want %+v", prefix, got.Awards, want.Awards)
	}
	if want.Points != nil && !reflect.DeepEqual(got.Points, want.Points) {
		t.Errorf("%spoints = %v, want %v", prefix, got.Points, want.Points)
	}
	if want.Scores != nil && !reflect.DeepEqual(got.Scores, want.Scores) {
		t.Errorf("%sscores = %v, want %v", prefix, got.Scores, want.Scores)
	}
	if want.Ended != nil && (got.Ended == nil || *got.Ended != *want.Ended) {
		t.Errorf("%sended = %v, want %v", prefix, deref(got.Ended), *want.Ended)
	}
	if want.GameOver != nil && (got.GameOver == nil || *got.GameOver != *want.GameOver) {
		t.Errorf("%sgame_over = %v, want %v", prefix, got.GameOver, *want.GameOver)
	}
	if want.Winners != nil && !reflect.DeepEqual(got.Winners, want.Winners) {
		t.Errorf("%swinners = %v, want %v", prefix, got.Winners, want.Winners)
	}
}

func deref(s *string) string {
	if s == nil {
		return "<absent>"
	}
	return *s
}

// TestValidate runs every example through Validate, which tells deals from
// games by the "deals" member.
func TestValidate(t *testing.T) {
	t.Parallel()
	for _, f := range exampleFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var ex example
		if err := json.Unmarshal(data, &ex); err != nil {
			t.Fatal(err)
		}
		var want struct{ Valid bool }
		if err := json.Unmarshal(ex.Expect, &want); err != nil {
			t.Fatal(err)
		}
		out := engine.Validate(ex.Record, engine.GameOptions{})
		if out.Game != (ex.Kind == "game") || out.Valid != want.Valid || out.Syntax || out.Result() == nil {
			t.Errorf("Validate(%s) = game %v valid %v syntax %v, want game %v valid %v",
				filepath.Base(f), out.Game, out.Valid, out.Syntax, ex.Kind == "game", want.Valid)
		}
	}
	for _, in := range []string{`{`, `{"deals": 3}`, `{"players": 3}`} {
		out := engine.Validate([]byte(in), engine.GameOptions{})
		res, err := json.Marshal(out.Result())
		if out.Valid || err != nil || !bytes.Contains(res, []byte(`"valid":false`)) {
			t.Errorf("Validate(%s) = %+v, %s, %v; want an invalid result", in, out, res, err)
		}
	}
}
