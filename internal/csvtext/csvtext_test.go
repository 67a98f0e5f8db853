package csvtext_test

import (
	"testing"

	"github.com/revisor-sm/revisor/internal/csvtext"
)

func TestDecode(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, in, text, enc string
	}{
		{"utf-8", "Åsa;Lund", "Åsa;Lund", csvtext.UTF8},
		{"utf-8 bom", "\xEF\xBB\xBFÅsa;Lund", "Åsa;Lund", csvtext.UTF8BOM},
		{"windows-1252", "\xC5sa;Lund", "Åsa;Lund", csvtext.Win1252},
		{"utf-16le", "\xFF\xFE\xC5\x00s\x00a\x00", "Åsa", csvtext.UTF16},
		{"a bom before windows-1252", "\xEF\xBB\xBF\xC5sa", "Åsa", csvtext.Win1252},
	} {
		t.Run(c.name, func(t *testing.T) {
			if text, enc := csvtext.Decode([]byte(c.in)); text != c.text || enc != c.enc {
				t.Errorf("Decode(%q) = %q, %s; want %q, %s", c.in, text, enc, c.text, c.enc)
			}
		})
	}
}

func TestDelimiter(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, text string
		columns    int
		want       rune
	}{
		{"semicolons beat the commas inside names", "Berg, Bo;Lund\nAnna;Malmö\n", 2, ';'},
		{"tabs", "Bo\tLund\nAnna\tMalmö\n", 2, '\t'},
		{"commas", "Bo,Lund\nAnna,Malmö\n", 2, ','},
		{"three columns", "a;b;c\nd;e;f\n", 3, ';'},
		{"three columns are not two", "a;b;c\nd;e;f\n", 2, ','},
		{"empty columns at the end do not count", "Bo;Lund;;\nAnna;Malmö;\n", 2, ';'},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := csvtext.Delimiter(c.text, c.columns); got != c.want {
				t.Errorf("Delimiter(%q, %d) = %q, want %q", c.text, c.columns, got, c.want)
			}
		})
	}
}
