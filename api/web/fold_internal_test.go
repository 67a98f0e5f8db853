package web

import "testing"

func TestFoldName(t *testing.T) {
	for in, want := range map[string]string{"Björn Ångström": "bjorn angstrom", "bjorn": "bjorn", "ÉLISE Nüñez": "elise nunez",
		"Bjørn": "bjørn", "": ""} {
		if got := foldName(in); got != want {
			t.Errorf("foldName(%q) = %q, want %q", in, got, want)
		}
	}
}
