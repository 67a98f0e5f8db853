package tournament_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
)

func TestParsePlayersCSV(t *testing.T) {
	cases := []struct {
		in   string
		want []tournament.NewPlayer
	}{
		{"name,club\nAnna,Göteborg\nBo,\n", []tournament.NewPlayer{{Name: "Anna", Club: "Göteborg"}, {Name: "Bo"}}},
		{"\ufeffName,Club\r\n Anna , Umeå \r\n", []tournament.NewPlayer{{Name: "Anna", Club: "Umeå"}}},
		{"Anna\n\"Berg, Bo\",\"Klubb \"\"K\"\"\"\n", []tournament.NewPlayer{{Name: "Anna"}, {Name: "Berg, Bo", Club: `Klubb "K"`}}},
	}
	for _, c := range cases {
		got, err := tournament.ParsePlayersCSV(strings.NewReader(c.in))
		if err != nil || len(got) != len(c.want) {
			t.Errorf("ParsePlayersCSV(%q) = %v, %v, want %v", c.in, got, err, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("ParsePlayersCSV(%q)[%d] = %+v, want %+v", c.in, i, got[i], c.want[i])
			}
		}
	}
}

func TestParsePlayersCSVErrors(t *testing.T) {
	cases := []struct {
		in, code string
		rows     []int // bad rows reported
	}{
		{"name,club\nAnna,A\n,B\nCia,C,extra\n", "invalid_csv", []int{3, 4}},
		{"Anna,A\n\"unterminated\n", "invalid_csv", []int{2}},
		{"name,club\n", "empty_import", nil},
		{"", "empty_import", nil},
		{"Anna,A\n" + strings.Repeat("x", 101) + ",B\n", "invalid_csv", []int{2}},
	}
	for _, c := range cases {
		_, err := tournament.ParsePlayersCSV(strings.NewReader(c.in))
		if tournament.ErrorCode(err) != c.code {
			t.Errorf("ParsePlayersCSV(%q) error = %v, want code %s", c.in, err, c.code)
			continue
		}
		var e *tournament.Error
		errors.As(err, &e)
		rows, _ := e.Details["rows"].([]map[string]any)
		var got []int
		for _, r := range rows {
			got = append(got, r["row"].(int))
		}
		if len(got) != len(c.rows) {
			t.Errorf("ParsePlayersCSV(%q) bad rows = %v, want %v", c.in, got, c.rows)
			continue
		}
		for i := range got {
			if got[i] != c.rows[i] {
				t.Errorf("ParsePlayersCSV(%q) bad rows = %v, want %v", c.in, got, c.rows)
			}
		}
	}
}

// FuzzParsePlayersCSV: any input gives players with clean names, or an
// application error; never a panic, never both.
func FuzzParsePlayersCSV(f *testing.F) {
	for _, s := range []string{"name,club\nAnna,A\n", "A\n\"B,C\",D\n", "\ufeffx,y\r\n", ",,\n", "\"", "a,b,c\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		ps, err := tournament.ParsePlayersCSV(strings.NewReader(in))
		if err != nil {
			if ps != nil || tournament.ErrorKind(err) == tournament.KindInternal {
				t.Fatalf("ParsePlayersCSV(%q) = %v, %v", in, ps, err)
			}
			return
		}
		for _, p := range ps {
			if p.Name == "" || p.Name != strings.TrimSpace(p.Name) || strings.ContainsAny(p.Name+p.Club, "\r\n\t") {
				t.Fatalf("ParsePlayersCSV(%q) gave player %+v", in, p)
			}
		}
	})
}
