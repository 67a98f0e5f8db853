package main

import (
	"strings"
	"testing"
)

// TestReadExportBounded (issue 13): `revisor import` refuses a file past
// its size bound, a second value after the tournament, an unknown field
// and a wrong type, each saying what is wrong; a good file passes.
func TestReadExportBounded(t *testing.T) {
	t.Parallel()
	good := `{"format": "revisor-tournament/1", "tournament": {"name": "T"}, "history": {"correction_minutes": 30}}`
	cases := []struct {
		name, file string
		limit      int64
		want       string // "" for no error
	}{
		{"good", good, 1 << 20, ""},
		{"good with a line break after it", good + "\n", 1 << 20, ""},
		{"past the bound", good + strings.Repeat(" ", 2<<20), 1 << 20, "larger than 1 MiB"},
		{"past the bound inside the value", `{"format": "` + strings.Repeat("x", 2<<20) + `"}`, 1 << 20, "larger than 1 MiB"},
		{"two values", good + good, 1 << 20, "something follows"},
		{"unknown field", `{"format": "x", "secret": 1}`, 1 << 20, "unknown field"},
		{"wrong type", `{"format": 7}`, 1 << 20, "not a Revisor tournament file"},
		{"not JSON", "format,name\n", 1 << 20, "not a Revisor tournament file"},
	}
	for _, c := range cases {
		ex, err := readExport("-", strings.NewReader(c.file), c.limit)
		switch {
		case c.want == "" && (err != nil || ex.History == nil || ex.History.CorrectionMinutes != 30):
			t.Errorf("%s: readExport = %v, want the file with its history", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: readExport = %v, want an error saying %q", c.name, err, c.want)
		}
	}
}
