package bridge_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/revisor-sm/revisor/engine/bridge"
)

// example is one file of bridge-examples.
type example struct {
	Kind   string          `json:"kind"`
	Note   string          `json:"note"`
	Record json.RawMessage `json:"record"`
	Expect json.RawMessage `json:"expect"`
}

// expectDeal holds the fields of a deal result the examples README names.
type expectDeal struct {
	Number         *int           `json:"number"`
	PassedOut      bool           `json:"passed_out"`
	Contract       string         `json:"contract"`
	Declarer       string         `json:"declarer"`
	Points         map[string]int `json:"points"`
	GameBonus      *int           `json:"game_bonus"`
	PartscoreBonus *int           `json:"partscore_bonus"`
	RubberBonus    *int           `json:"rubber_bonus"`
	Totals         map[string]int `json:"totals"`
}

type expectResult struct {
	Valid  bool `json:"valid"`
	Errors []struct {
		Code string `json:"code"`
	} `json:"errors"`
	Deals    []expectDeal   `json:"deals"`
	Totals   map[string]int `json:"totals"`
	Complete bool           `json:"complete"`
	Winner   *string        `json:"winner"`
}

const sharedExamples = "../../../shared/spec/bridge-examples"

func exampleFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "examples", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples in testdata/examples: %v", err)
	}
	return files
}

// TestExamplesCopied checks that the records of testdata/examples are a
// faithful copy of the shared bridge examples when the shared folder is
// present (the README beside them is the repository's own: it points to
// docs/bridge.md).
func TestExamplesCopied(t *testing.T) {
	t.Parallel()
	shared, _ := filepath.Glob(filepath.Join(sharedExamples, "*.json"))
	if len(shared) == 0 {
		t.Skip("shared bridge examples not present")
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

// TestExamples checks every example record against its expected result,
// through the result's JSON, on the fields the examples' README names.
func TestExamples(t *testing.T) {
	t.Parallel()
	for _, file := range exampleFiles(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var ex example
			if err := json.Unmarshal(data, &ex); err != nil || ex.Kind != "bridge" {
				t.Fatalf("%s: kind %q, %v", file, ex.Kind, err)
			}
			var want expectResult
			if err := json.Unmarshal(ex.Expect, &want); err != nil {
				t.Fatal(err)
			}
			res, derr := bridge.Validate(ex.Record)
			if derr != nil {
				t.Fatalf("Validate: %v", derr)
			}
			out, err := json.Marshal(res)
			if err != nil {
				t.Fatal(err)
			}
			var got expectResult
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("result is not JSON: %v\n%s", err, out)
			}
			if want.Deals == nil {
				want.Deals = []expectDeal{}
			}
			if !want.Valid { // only validity and the error codes are named
				got.Deals, got.Totals, want.Totals = want.Deals, nil, nil
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("result:\n%s\nwant (expect):\n%s", out, ex.Expect)
			}
		})
	}
}
