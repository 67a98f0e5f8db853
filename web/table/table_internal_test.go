package table

import (
	"slices"
	"testing"

	"github.com/revisor-sm/revisor/web/sheet"
)

func TestShortNames(t *testing.T) {
	t.Parallel()
	tests := []struct {
		names, short, initials []string
	}{
		{[]string{"Cecilia Lindqvist", "Bo Ek", "Anna-Karin Östergren", "Maximilian von Essen"},
			[]string{"Cecilia", "Bo", "Anna-Karin", "Maximilian"}, []string{"CL", "BE", "AÖ", "ME"}},
		{[]string{"Anna Andersson", "Anna Berg", "Bo Ek", "åsa öberg"},
			[]string{"Anna A.", "Anna B.", "Bo", "åsa"}, []string{"AA", "AB", "BE", "ÅÖ"}},
		{[]string{"Anna Andersson", "Anna Axelsson", "Anna Berg", "Cher"},
			[]string{"Anna Andersson", "Anna Axelsson", "Anna B.", "Cher"}, []string{"AAn", "AAx", "AB", "Ch"}},
		{[]string{"Erik Öst", "Elin Ödman", "Cher", "Cher"},
			[]string{"Erik", "Elin", "Cher", "Cher"}, []string{"ErÖ", "ElÖ", "Cher", "Cher"}},
		{[]string{"Ann Berg", "Ann Berg", "Bo", "Eva"},
			[]string{"Ann Berg", "Ann Berg", "Bo", "Eva"}, []string{"Ann Berg", "Ann Berg", "Bo", "Ev"}},
		{[]string{"  Olle   Ljung ", "Olle Lund", "Per", "Pia"}, // "Olle L." is shared too
			[]string{"Olle Ljung", "Olle Lund", "Per", "Pia"}, []string{"OLj", "OLu", "Pe", "Pi"}},
	}
	for _, tt := range tests {
		ps := make([]sheet.TablePlayer, len(tt.names))
		for i, n := range tt.names {
			ps[i] = sheet.TablePlayer{Seat: i + 1, Name: n}
		}
		shortNames(ps)
		var short, initials []string
		for _, p := range ps {
			short, initials = append(short, p.Short), append(initials, p.Initials)
		}
		if !slices.Equal(short, tt.short) || !slices.Equal(initials, tt.initials) {
			t.Errorf("shortNames(%q) = %q and %q, want %q and %q", tt.names, short, initials, tt.short, tt.initials)
		}
	}
}
