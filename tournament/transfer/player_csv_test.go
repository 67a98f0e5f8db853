package transfer_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/transfer"
)

func TestParsePlayersCSV(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want []tournament.NewPlayer
	}{
		{"name,club\nAnna,Göteborg\nBo,\n", []tournament.NewPlayer{{Name: "Anna", Club: "Göteborg"}, {Name: "Bo"}}},
		{"\ufeffName,Club\r\n Anna , Umeå \r\n", []tournament.NewPlayer{{Name: "Anna", Club: "Umeå"}}},
		{"Anna\n\"Berg, Bo\",\"Klubb \"\"K\"\"\"\n", []tournament.NewPlayer{{Name: "Anna"}, {Name: "Berg, Bo", Club: `Klubb "K"`}}},
		// Swedish Excel: semicolons, a Swedish header, empty columns at the end.
		{"Namn;Klubb\r\nAnna;Club, Stockholm;;\r\nBerg, Bo;\r\n", []tournament.NewPlayer{{Name: "Anna", Club: "Club, Stockholm"}, {Name: "Berg, Bo"}}},
		{"Björn\tUmeå\nCia\tLuleå\n", []tournament.NewPlayer{{Name: "Björn", Club: "Umeå"}, {Name: "Cia", Club: "Luleå"}}},
	}
	for _, c := range cases {
		got, err := transfer.ParsePlayersCSV(strings.NewReader(c.in))
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

// TestReadPlayersCSVEncodings reads the same Swedish list as clubs' Excel
// saves it: UTF-8 with and without a byte-order mark, Windows-1252 and
// UTF-16, with semicolons, commas and tabs.
func TestReadPlayersCSVEncodings(t *testing.T) {
	t.Parallel()
	const list = "Namn;Klubb\r\nÅsa Öberg;Göteborgs BK\r\nBjörn Ängel;Umeå\r\n"
	want := []tournament.NewPlayer{{Name: "Åsa Öberg", Club: "Göteborgs BK"}, {Name: "Björn Ängel", Club: "Umeå"}}
	win1252, err := charmap.Windows1252.NewEncoder().String(list)
	if err != nil {
		t.Fatal(err)
	}
	utf16, err := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().String(strings.ReplaceAll(list, ";", "\t"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, in, enc string
		delim         rune
	}{
		{"utf-8", list, transfer.EncodingUTF8, ';'},
		{"utf-8 bom", "\ufeff" + list, transfer.EncodingUTF8BOM, ';'},
		{"windows-1252", win1252, transfer.EncodingWin1252, ';'},
		{"utf-16 tabs", utf16, transfer.EncodingUTF16, '\t'},
		{"utf-8 commas", strings.ReplaceAll(list, ";", ","), transfer.EncodingUTF8, ','},
	}
	for _, c := range cases {
		got, err := transfer.ReadPlayersCSV([]byte(c.in))
		if err != nil {
			t.Errorf("%s: ReadPlayersCSV = %v", c.name, err)
			continue
		}
		if got.Encoding != c.enc || got.Delimiter != c.delim || !got.Header {
			t.Errorf("%s: ReadPlayersCSV = encoding %q, delimiter %q, header %v; want %q, %q, true",
				c.name, got.Encoding, got.Delimiter, got.Header, c.enc, c.delim)
		}
		if !slices.Equal(got.Players, want) {
			t.Errorf("%s: ReadPlayersCSV players = %+v, want %+v", c.name, got.Players, want)
		}
	}
}

func TestParsePlayersCSVErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in, code string
		rows     []int // bad rows reported
	}{
		{"name,club\nAnna,A\n,B\nCia,C,extra\n", "invalid_csv", []int{3, 4}},
		{"Anna,A\n\"unterminated\n", "invalid_csv", []int{2}},
		{"name,club\n", "empty_import", nil},
		{"", "empty_import", nil},
		{"Anna,A\n" + strings.Repeat("x", 101) + ",B\n", "invalid_csv", []int{2}},
		{"Namn;Klubb\nAnna;A\nBo;B;extra\n", "invalid_csv", []int{3}},
	}
	for _, c := range cases {
		_, err := transfer.ParsePlayersCSV(strings.NewReader(c.in))
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
	for _, s := range []string{"name,club\nAnna,A\n", "A\n\"B,C\",D\n", "\ufeffx,y\r\n", ",,\n", "\"", "a,b,c\n",
		"Namn;Klubb\r\nÅsa;Umeå;;\r\n", "\xef\xbb\xbfA;B\n", "\xc5sa;Ume\xe5\n", "\xff\xfeA\x00\t\x00B\x00", "a\tb\n\"c\td\"\te\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		ps, err := transfer.ParsePlayersCSV(strings.NewReader(in))
		if l, err2 := transfer.ReadPlayersCSV([]byte(in)); (err == nil) != (err2 == nil) || !slices.Equal(l.Players, ps) {
			t.Fatalf("ReadPlayersCSV(%q) = %v, %v; ParsePlayersCSV = %v, %v", in, l.Players, err2, ps, err)
		} else if err == nil && !slices.Contains([]rune{',', ';', '\t'}, l.Delimiter) {
			t.Fatalf("ReadPlayersCSV(%q) delimiter %q", in, l.Delimiter)
		}
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
