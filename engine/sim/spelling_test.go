package sim_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"testing"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/sim"
)

var cardRE = regexp.MustCompile(`"([2-9TJQKA])([cdhs])"`)

// respell writes every card of a record's JSON in another accepted
// spelling: 10 for T, upper-case letters or suit symbols (docs/records.md).
func respell(rng *rand.Rand, data []byte) []byte {
	symbols := map[byte]string{'c': "♣", 'd': "♦", 'h': "♥", 's': "♠"}
	return cardRE.ReplaceAllFunc(data, func(m []byte) []byte {
		rank, suit := string(m[1]), m[2]
		if rank == "T" && rng.IntN(2) == 0 {
			rank = "10"
		}
		s := string(suit)
		switch rng.IntN(4) {
		case 0:
			s = string(bytes.ToUpper([]byte{suit}))
		case 1:
			s = symbols[suit]
		case 2:
			s = symbols[suit] + "\ufe0f"
		}
		return []byte(`"` + rank + s + `"`)
	})
}

// TestCardSpellings: a simulated record with its cards respelled, and
// indented, gives the same result as the canonical record.
func TestCardSpellings(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 5))
	opt := sim.DefaultOptions()
	opt.Revoke, opt.Bluff = 0.1, 0.05
	s := sim.NewWithOptions(5, engine.SM(), opt)
	players := sim.Players(4)
	for i := 0; i < 40; i++ {
		d := s.Deal(players, players[i%4], s.Scores(players, 50))
		data := []byte(mustJSON(t, d))
		var ind bytes.Buffer
		if err := json.Indent(&ind, respell(rng, data), "", "\t"); err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(ind.Bytes(), data) {
			t.Fatal("respell changed nothing")
		}
		canon := engine.Validate(data, engine.GameOptions{})
		if !canon.Valid {
			t.Fatalf("deal %d: Validate(simulated deal) invalid: %s", i, mustJSON(t, canon.Result()))
		}
		want := mustJSON(t, canon.Result())
		if got := mustJSON(t, engine.Validate(ind.Bytes(), engine.GameOptions{}).Result()); got != want {
			t.Errorf("deal %d respelled: %s\nwant %s\nrecord %s", i, got, want, ind.Bytes())
		}
	}
	g := s.Game(players, "p2")
	data := []byte(mustJSON(t, g))
	want := mustJSON(t, engine.Validate(data, engine.GameOptions{}).Result())
	if got := mustJSON(t, engine.Validate(respell(rng, data), engine.GameOptions{}).Result()); got != want {
		t.Errorf("game respelled: %.300s, want %.300s", got, want)
	}
}
