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
	best, bestCost, ties := Table{}, 0, 0
	perm := [4]int{0, 1, 2, 3}
	for range 24 {
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
