package play

import (
	"bytes"
	"testing"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/tournament"
)

// FuzzCheckGame feeds arbitrary bodies to the checks a submitted game
// record goes through: never a panic, never an error other than a 400 or a
// 422 application error, and an accepted record's canonical form is
// accepted again with the same hash (so a repeat is recognized).
func FuzzCheckGame(f *testing.F) {
	tb := tournament.Table{Number: 1, Players: []string{"p1", "p2", "p3", "p4"}, FirstDealer: "p2"}
	for _, s := range []string{
		`{"players":["p1","p2","p3","p4"],"first_dealer":"p2","deals":[{"sheet":{"p1":{"last_trick":5}}}],"ended_by":"time"}`,
		`{"players":["p1","p2","p3","p4"],"first_dealer":"p2","deals":[{"sheet":{"p3":{"hand1":52,"last_trick":5}}}]}`,
		`{"players":["p4","p3","p2","p1"],"first_dealer":"p2","deals":[]}`,
		`{"rules":{"preset":"sm"},"players":["p1","p2","p3","p4"],"first_dealer":"p2","deals":[]}`,
		`[]`, `{"players":`, `null`, `{"deals":[{"hands":{}}]}`,
	} {
		f.Add([]byte(s))
	}
	set, err := tournament.NewTournament{Name: "f", Format: tournament.FormatSM}.Settings()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := checkGame(data, tb, 1, tournament.FormatSM, set, engine.GameOptions{})
		if err != nil {
			if k := tournament.ErrorKind(err); k != tournament.KindInvalid && k != tournament.KindRejected {
				t.Fatalf("checkGame(%q) = %v (kind %s), want a 400 or 422", data, err, k)
			}
			return
		}
		again, err := checkGame(g.record, tb, 1, tournament.FormatSM, set, engine.GameOptions{})
		if err != nil || !bytes.Equal(again.hash, g.hash) {
			t.Fatalf("canonical record %q: %v, hash equal %v", g.record, err, err == nil && bytes.Equal(again.hash, g.hash))
		}
	})
}
