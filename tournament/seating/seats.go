package seating

import "math/rand/v2"

// colorSeats assigns seats to whole free rounds so that every player's
// count in each seat differs by at most one between seats.
//
// It builds a bipartite multigraph: on one side each player split into
// copies, one per block of four consecutive rounds; on the other each table
// of each round; an edge for every player at a table. Every node has degree
// at most 4, so by König's theorem the edges can be coloured with 4 colours
// so that no node sees a colour twice; a colour is a seat. A player copy
// with four rounds then sits once in every seat and the last, shorter block
// in distinct seats, which is the equitable spread (de Werra's splitting
// argument). The colouring uses alternating-path recolouring, in random edge
// order with random free colours, so that seats are drawn too.
func colorSeats(n int, sizes []int, tab [][]int, rng *rand.Rand) [][]Table {
	nt, R := len(sizes), len(tab)
	blocks := (R + 3) / 4
	left := n * blocks
	at := make([][4]int, left+R*nt) // at[node][colour] = edge or -1
	for i := range at {
		at[i] = [4]int{-1, -1, -1, -1}
	}
	type edge struct{ u, v, colour int }
	edges := make([]edge, 0, n*R)
	for w := range R {
		for p := range n {
			edges = append(edges, edge{p*blocks + w/4, left + w*nt + tab[w][p], -1})
		}
	}
	other := func(e, node int) int {
		if edges[e].u == node {
			return edges[e].v
		}
		return edges[e].u
	}
	for _, e := range rng.Perm(len(edges)) {
		u, v := edges[e].u, edges[e].v
		a, b := freeColour(at[u], rng), freeColour(at[v], rng)
		if at[v][a] != -1 {
			// Flip the a/b alternating path from v so that a is free at v.
			var path []int
			for cur, c := v, a; at[cur][c] != -1; {
				pe := at[cur][c]
				path = append(path, pe)
				cur = other(pe, cur)
				c = a + b - c
			}
			for _, pe := range path {
				at[edges[pe].u][edges[pe].colour] = -1
				at[edges[pe].v][edges[pe].colour] = -1
			}
			for _, pe := range path {
				edges[pe].colour = a + b - edges[pe].colour
				at[edges[pe].u][edges[pe].colour] = pe
				at[edges[pe].v][edges[pe].colour] = pe
			}
		}
		edges[e].colour = a
		at[u][a], at[v][a] = e, e
	}
	out := make([][]Table, R)
	for w := range R {
		out[w] = make([]Table, nt)
		for t := range nt {
			out[w][t] = Table{Seats: [4]int{Empty, Empty, Empty, Empty}}
		}
	}
	for _, e := range edges {
		w, t := (e.v-left)/nt, (e.v-left)%nt
		p := e.u / blocks
		out[w][t].Seats[e.colour] = p
	}
	return out
}

// freeColour returns a random colour not used at a node.
func freeColour(at [4]int, rng *rand.Rand) int {
	c, seen := -1, 0
	for i, e := range at {
		if e == -1 {
			seen++
			if rng.IntN(seen) == 0 {
				c = i
			}
		}
	}
	return c
}

// greedySeats seats one table given each player's earlier seat counts:
// among all arrangements it takes one where as few players as possible get
// a seat they have used more often than their least-used seat, ties drawn
// at random. Past seats are fixed, so a perfectly even spread cannot always
// be kept round by round; whole schedules use colorSeats instead.
func greedySeats(players []int, counts [][4]int, rng *rand.Rand) Table {
	return greedySeatsIf(players, counts, rng, func([4]int) bool { return true })
}

// greedySeatsIf is greedySeats among the arrangements ok accepts (perm[i]
// is the seat of players[i]).
func greedySeatsIf(players []int, counts [][4]int, rng *rand.Rand, ok func(perm [4]int) bool) Table {
	best, bestCost, ties := Table{}, 0, 0
	perm := [4]int{0, 1, 2, 3}
	for range 24 {
		if !ok(perm) {
			nextPerm(&perm)
			continue
		}
		cost := 0
		for i, p := range players {
			c := counts[p]
			cost += c[perm[i]] - min(c[0], c[1], c[2], c[3])
		}
		switch {
		case ties == 0 || cost < bestCost:
			best, bestCost, ties = tableFrom(players, perm), cost, 1
		case cost == bestCost:
			ties++
			if rng.IntN(ties) == 0 {
				best = tableFrom(players, perm)
			}
		}
		nextPerm(&perm)
	}
	return best
}

// seatTable seats one table of the round: with partnerships, the pair
// that partnered least before sit opposite each other (seats 1 and 3, or
// 2 and 4), and seats are spread among such arrangements.
func (s *search) seatTable(players []int, counts [][4]int) Table {
	if s.cons == nil || !s.cons.partners || len(players) != 4 {
		return greedySeats(players, counts, s.rng)
	}
	pr := pairings[s.cons.bestPairing(players)]
	return greedySeatsIf(players, counts, s.rng, func(perm [4]int) bool {
		return perm[pr[0]]%2 == perm[pr[1]]%2
	})
}

func tableFrom(players []int, perm [4]int) Table {
	t := Table{Seats: [4]int{Empty, Empty, Empty, Empty}}
	for i, p := range players {
		t.Seats[perm[i]] = p
	}
	return t
}

// nextPerm advances perm to the next permutation in lexicographic order,
// wrapping around after the last.
func nextPerm(p *[4]int) {
	i := 2
	for i >= 0 && p[i] >= p[i+1] {
		i--
	}
	if i < 0 {
		*p = [4]int{0, 1, 2, 3}
		return
	}
	j := 3
	for p[j] <= p[i] {
		j--
	}
	p[i], p[j] = p[j], p[i]
	for l, r := i+1, 3; l < r; l, r = l+1, r-1 {
		p[l], p[r] = p[r], p[l]
	}
}

// seatPenalty is the least, over the table's arrangements, of how many
// seat uses above their least-used seat the players get.
func seatPenalty(players []int, counts [][4]int) int {
	var d [4][4]int // d[i][seat]: player i's uses of seat above their least-used
	for i, p := range players {
		c := counts[p]
		lo := min(c[0], c[1], c[2], c[3])
		d[i] = [4]int{c[0] - lo, c[1] - lo, c[2] - lo, c[3] - lo}
	}
	best := -1
	for _, perm := range allPerms {
		cost := d[0][perm[0]] + d[1][perm[1]] + d[2][perm[2]] + d[3][perm[3]]
		if best < 0 || cost < best {
			if best = cost; best == 0 {
				break
			}
		}
	}
	return best
}

// allPerms lists the 24 permutations of four seats.
var allPerms = func() (out [24][4]int) {
	perm := [4]int{0, 1, 2, 3}
	for i := range out {
		out[i] = perm
		nextPerm(&perm)
	}
	return out
}()

// repairSeats swaps players of free round 0 between tables, where that
// costs nothing in repeats or standings, so that more tables can give
// every player one of their least-used seats: seat history cannot be
// changed, but the choice of tablemates can make even seats possible. It
// is a short local search on the tables' seat penalties that also takes
// sideways steps, bounded by a number of steps proportional to the tables.
func (s *search) repairSeats(counts [][4]int) {
	pen := make([]int, s.nt)
	var bad []int
	for t, ps := range s.tables[0] {
		if pen[t] = seatPenalty(ps, counts); pen[t] > 0 {
			bad = append(bad, t)
		}
	}
	for step := 0; step < 20*s.nt && len(bad) > 0; step++ {
		t := bad[s.rng.IntN(len(bad))]
		x := s.tables[0][t][s.rng.IntN(len(s.tables[0][t]))]
		if y, ok := s.bestSeatSwap(x, counts, pen); ok {
			u := s.tab[0][y]
			s.swap(0, x, y)
			pen[t], pen[u] = seatPenalty(s.tables[0][t], counts), seatPenalty(s.tables[0][u], counts)
		}
		bad = bad[:0]
		for t, v := range pen {
			if v > 0 {
				bad = append(bad, t)
			}
		}
	}
}

// bestSeatSwap returns the partner y whose swap with x does not raise the
// search objective and lowers the two tables' seat penalties most (or
// keeps them, ties drawn at random).
func (s *search) bestSeatSwap(x int, counts [][4]int, pen []int) (int, bool) {
	t := s.tab[0][x]
	best, bestD, ties := -1, 1, 0
	for k := range min(s.n, 256) {
		y := k
		if s.n > 256 {
			y = s.rng.IntN(s.n)
		}
		u := s.tab[0][y]
		if u == t || !s.allowed(0, x, y) || s.delta(0, x, y) > 0 {
			continue
		}
		nt := seatPenaltyWith(s.tables[0][t], x, y, counts)
		nu := seatPenaltyWith(s.tables[0][u], y, x, counts)
		d := nt + nu - pen[t] - pen[u]
		switch {
		case d < bestD:
			best, bestD, ties = y, d, 1
		case d == bestD:
			ties++
			if s.rng.IntN(ties) == 0 {
				best = y
			}
		}
	}
	return best, best >= 0 && bestD <= 0
}

// seatPenaltyWith is seatPenalty of a table with player out replaced by in.
func seatPenaltyWith(players []int, out, in int, counts [][4]int) int {
	var buf [4]int
	ps := buf[:0]
	for _, p := range players {
		if p == out {
			p = in
		}
		ps = append(ps, p)
	}
	return seatPenalty(ps, counts)
}
