package seating

// balanceSeats re-chooses the seats of a round's tables, among the
// arrangements as good for each table (the fewest seat uses above a
// player's least-used seat, and with partnerships the same partners), so
// that the next round can be seated evenly too.
//
// Round by round, seats already played cannot change. After three rounds at
// tables of 4 every player has one least-used seat, and round 4 gives
// everyone that seat only if each table holds one player short of each
// seat: the players short of seat s must number exactly the tables. That is
// decided by the seats of round 3 (and round 3's options by round 2's), so
// a round that leaves, say, five players short of seat 1 among four tables
// forces a spread of 2 in the next round whatever its tables. balanceSeats
// therefore spreads the players' sets of least-used seats evenly: it
// minimises the sum of the squared numbers of players sharing each set of
// one seat (weight 4) or two seats (weight 1), by passes over the tables
// that take each table's best arrangement given the others, until a pass
// changes nothing.
func (s *search) balanceSeats(tables []Table, counts [][4]int) {
	opts := make([][]Table, len(tables))
	for i, tb := range tables {
		opts[i] = s.seatOptions(tb.Players(), counts)
	}
	classes := make(map[uint8]int)
	classOf := func(p, seat int) uint8 {
		c := counts[p]
		if seat >= 0 {
			c[seat]++
		}
		lo := min(c[0], c[1], c[2], c[3])
		var set uint8
		for k, v := range c {
			if v == lo {
				set |= 1 << k
			}
		}
		return set
	}
	weight := func(set uint8) int {
		switch popcount(set) {
		case 1:
			return 4
		case 2:
			return 1
		}
		return 0
	}
	move := func(tb Table, by int) {
		for seat, p := range tb.Seats {
			if p != Empty {
				classes[classOf(p, seat)] += by
			}
		}
	}
	cost := func(tb Table) int { // the potential's change if tb joins
		c, seen := 0, [16]int{}
		for seat, p := range tb.Seats {
			if p != Empty {
				set := classOf(p, seat)
				k := classes[set] + seen[set]
				c += weight(set) * (2*k + 1)
				seen[set]++
			}
		}
		return c
	}
	for _, tb := range tables {
		move(tb, 1)
	}
	for range 8 {
		changed := false
		for _, i := range s.rng.Perm(len(tables)) {
			if len(opts[i]) < 2 {
				continue
			}
			move(tables[i], -1)
			best, bestCost, ties := tables[i], cost(tables[i]), 1
			for _, o := range opts[i] {
				switch c := cost(o); {
				case c < bestCost:
					best, bestCost, ties = o, c, 1
				case c == bestCost && o != best:
					if ties++; s.rng.IntN(ties) == 0 {
						best = o
					}
				}
			}
			changed = changed || best != tables[i]
			tables[i] = best
			move(best, 1)
		}
		if !changed {
			return
		}
	}
}

func popcount(x uint8) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// seatOptions lists a table's arrangements with the fewest seat uses above
// the players' least-used seats (and with partnerships, the partners that
// partnered least before opposite each other).
func (s *search) seatOptions(players []int, counts [][4]int) []Table {
	ok := func([4]int) bool { return true }
	if s.cons != nil && s.cons.partners && len(players) == 4 {
		pr := pairings[s.cons.bestPairing(players)]
		ok = func(perm [4]int) bool { return perm[pr[0]]%2 == perm[pr[1]]%2 }
	}
	var out []Table
	best := -1
	perm := [4]int{0, 1, 2, 3}
	for range 24 {
		if ok(perm) {
			cost := 0
			for i, p := range players {
				c := counts[p]
				cost += c[perm[i]] - min(c[0], c[1], c[2], c[3])
			}
			switch {
			case best < 0 || cost < best:
				best, out = cost, []Table{tableFrom(players, perm)}
			case cost == best:
				if t := tableFrom(players, perm); !containsTable(out, t) {
					out = append(out, t)
				}
			}
		}
		nextPerm(&perm)
	}
	return out
}

func containsTable(ts []Table, t Table) bool {
	for _, u := range ts {
		if u == t {
			return true
		}
	}
	return false
}
