package tournament

import (
	"math/rand/v2"
)

// seatRound seats players at tables of 4 and 3 for a round.
// TEMPORARY: replaced by tournament/seating once it lands.
func seatRound(players []string, history [][]string, order []string, seed int64) ([]Table, error) {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
	ps := append([]string(nil), players...)
	if order != nil {
		ps = append([]string(nil), order...)
	} else {
		rng.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
	}
	n := len(ps)
	threes := (4 - n%4) % 4
	var tables []Table
	for i := 0; i < n; {
		size := 4
		if len(tables) >= (n-3*threes)/4 {
			size = 3
		}
		t := Table{Number: len(tables) + 1, Players: append([]string(nil), ps[i:i+size]...)}
		rng.Shuffle(len(t.Players), func(a, b int) { t.Players[a], t.Players[b] = t.Players[b], t.Players[a] })
		t.FirstDealer = t.Players[rng.IntN(size)]
		tables = append(tables, t)
		i += size
	}
	return tables, nil
}

// seatFinal seats the final table.
func seatFinal(players []string, seed int64) []Table {
	rng := rand.New(rand.NewPCG(uint64(seed), 0xf1a1))
	t := Table{Number: 1, Players: append([]string(nil), players...)}
	rng.Shuffle(len(t.Players), func(a, b int) { t.Players[a], t.Players[b] = t.Players[b], t.Players[a] })
	t.FirstDealer = t.Players[rng.IntN(len(t.Players))]
	return []Table{t}
}
