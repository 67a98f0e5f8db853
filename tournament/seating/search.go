package seating

import "math/rand/v2"

// costModel says how a seating is charged.
type costModel struct {
	// convex charges a pair that meets m times m(m-1)/2 (a third meeting
	// is worse than a second); otherwise a pair costs max(0, m-1), the
	// benchmark's repeat count.
	convex bool
	// rank, when set, gives each player's standing (0 = best); every table
	// then also costs the gap between its best and worst standing.
	rank []int
	// repW weighs a repeat against standing gaps.
	repW int
}

// add is the cost of one more meeting of a pair that has met m times.
func (c *costModel) add(m int32) int {
	if c.convex {
		return int(m)
	}
	if m >= 1 {
		return 1
	}
	return 0
}

// rem is the cost change of one meeting less for a pair that met m times.
func (c *costModel) rem(m int32) int {
	if c.convex {
		return -int(m - 1)
	}
	if m >= 2 {
		return -1
	}
	return 0
}

// pairCost is the cost of a pair that met m times.
func (c *costModel) pairCost(m int32) int {
	if c.convex {
		return int(m * (m - 1) / 2)
	}
	return max(0, int(m)-1)
}

// search is a tabu search over the free rounds of a seating. History (the
// rounds already played) is folded into base meeting counts and base counts
// of tables of 3; the free rounds are rearranged by swapping two players of
// one round between tables.
type search struct {
	n, nt    int
	sizes    []int // table sizes of every free round, tables of 4 first
	model    costModel
	rng      *rand.Rand
	baseMeet meetings // meetings in history
	baseC3   []int32  // tables of 3 in history, per player

	meet        meetings     // meetings in history and free rounds
	c3          [][]int32    // c3[w][p]: p's tables of 3 in history and free rounds 0..w
	tab         [][]int      // tab[w][p]: p's table in free round w
	tables      [][][]int    // tables[w][t]: the players at table t of round w
	tabu        []*grid      // tabu[w] (p, t): iteration until which p may not join t
	pairs       int          // pair cost of all meetings
	spread      int          // standing gaps summed over free tables
	evals       int          // swaps evaluated by the current run
	pairsAtBest int          // pair cost of the best seating of the current run
	byRank      []int        // players by standing, when standings count
	regroupLeft int          // groups regrouping may still evaluate
	cons        *constraints // the organizer's constraints, nil for none
	consCost    int          // their cost over the free tables

	// seatCounts, when set, are the players' earlier seat counts, and the
	// objective then also counts free round 0's seat penalties (seatPen
	// per table, seatTotal in all), each weighing seatScale repeats: above
	// repeat meetings and standings, below the organizer's constraints.
	seatCounts [][4]int
	seatPen    []int
	seatTotal  int
	seatScale  int // repeats one seat penalty weighs, 0 when seats do not count
}

func newSearch(n int, sizes []int, model costModel, rng *rand.Rand, baseMeet meetings, baseC3 []int32) *search {
	if baseMeet.g == nil {
		baseMeet = newMeetings(n)
	}
	if baseC3 == nil {
		baseC3 = make([]int32, n)
	}
	s := &search{n: n, nt: len(sizes), sizes: sizes, model: model, rng: rng, baseMeet: baseMeet, baseC3: baseC3,
		meet: meetings{&grid{}}}
	if model.rank != nil {
		s.byRank = make([]int, n)
		for p, r := range model.rank {
			s.byRank[r] = p
		}
	}
	return s
}

// cost is the search's objective.
func (s *search) cost() int {
	return s.model.repW*(s.pairs+s.consCost+s.seatScale*s.seatTotal) + s.spread
}

// load replaces the free rounds by the given table assignments and
// recomputes all counts.
func (s *search) load(tab [][]int) {
	R := len(tab)
	s.tab = make([][]int, R)
	s.tables = make([][][]int, R)
	s.c3 = make([][]int32, R)
	s.meet.copyFrom(s.baseMeet)
	for w := range R {
		s.tab[w] = append([]int(nil), tab[w]...)
		s.tables[w] = make([][]int, s.nt)
		for p, t := range tab[w] {
			s.tables[w][t] = append(s.tables[w][t], p)
		}
		prev := s.baseC3
		if w > 0 {
			prev = s.c3[w-1]
		}
		s.c3[w] = append([]int32(nil), prev...)
		for t, ps := range s.tables[w] {
			if s.sizes[t] == 3 {
				for _, p := range ps {
					s.c3[w][p]++
				}
			}
			for i, a := range ps {
				for _, b := range ps[i+1:] {
					s.meet.add(a, b, 1)
				}
			}
		}
	}
	s.recount()
	if s.tabu == nil || len(s.tabu) != R {
		s.tabu = make([]*grid, R)
		for w := range s.tabu {
			s.tabu[w] = newGrid(s.n, s.nt)
		}
	}
}

// recount recomputes the objective from the counts.
func (s *search) recount() {
	s.pairs, s.spread, s.consCost, s.seatTotal = 0, 0, 0, 0
	if s.seatCounts != nil && len(s.tables) > 0 {
		s.seatPen = make([]int, s.nt)
		for t, ps := range s.tables[0] {
			s.seatPen[t] = seatPenalty(ps, s.seatCounts)
			s.seatTotal += s.seatPen[t]
		}
	}
	s.meet.each(func(_, _ int, m int32) { s.pairs += s.model.pairCost(m) })
	for w := range s.tables {
		for _, ps := range s.tables[w] {
			s.spread += s.gap(ps, -1, -1)
			if s.cons != nil {
				s.consCost += s.cons.tableCost(ps, -1, -1)
			}
		}
	}
}

// gap is the standing gap of a table's players with player out replaced
// by in (out = -1: no replacement).
func (s *search) gap(ps []int, out, in int) int {
	if s.model.rank == nil {
		return 0
	}
	lo, hi := s.n, -1
	for _, p := range ps {
		if p == out {
			p = in
		}
		r := s.model.rank[p]
		lo, hi = min(lo, r), max(hi, r)
	}
	return hi - lo
}

// delta is the change of the objective if a and b (at different tables of
// round w) swap.
//
//go:norace
func (s *search) delta(w, a, b int) int {
	dp, ds := s.deltaParts(w, a, b)
	return s.model.repW*(dp+s.deltaCons(w, a, b)+s.seatScale*s.deltaSeats(w, a, b)) + ds
}

// deltaSeats is the change of the seat penalties if a and b swap in round
// w (zero unless they count).
//
//go:norace
func (s *search) deltaSeats(w, a, b int) int {
	if s.seatCounts == nil || w != 0 {
		return 0
	}
	s.evals += 4 // two seat penalties cost about as much as four swaps
	ta, tb := s.tab[0][a], s.tab[0][b]
	return seatPenaltyWith(s.tables[0][ta], a, b, s.seatCounts) - s.seatPen[ta] +
		seatPenaltyWith(s.tables[0][tb], b, a, s.seatCounts) - s.seatPen[tb]
}

// deltaCons is the change of the constraints' cost if a and b swap in
// round w.
//
//go:norace
func (s *search) deltaCons(w, a, b int) int {
	if s.cons == nil {
		return 0
	}
	A, B := s.tables[w][s.tab[w][a]], s.tables[w][s.tab[w][b]]
	return s.cons.tableCost(A, a, b) - s.cons.tableCost(A, -1, -1) + s.cons.tableCost(B, b, a) - s.cons.tableCost(B, -1, -1)
}

// deltaParts splits delta into the change of the pair cost and of the
// standing gaps.
//
//go:norace
func (s *search) deltaParts(w, a, b int) (dp, ds int) {
	A, B := s.tables[w][s.tab[w][a]], s.tables[w][s.tab[w][b]]
	for _, x := range A {
		if x != a {
			dp += s.model.rem(s.meet.get(a, x)) + s.model.add(s.meet.get(b, x))
		}
	}
	for _, y := range B {
		if y != b {
			dp += s.model.rem(s.meet.get(b, y)) + s.model.add(s.meet.get(a, y))
		}
	}
	if s.model.rank != nil {
		ds = s.gap(A, a, b) - s.gap(A, -1, -1) + s.gap(B, b, a) - s.gap(B, -1, -1)
	}
	return dp, ds
}

// allowed reports whether a and b may swap in round w without breaking
// the rule that nobody sits at a table of 3 twice while others have not:
// a player may leave a table of 3 for one who, at every round from w on,
// has had fewer tables of 3 (counting round w's).
//
//go:norace
func (s *search) allowed(w, a, b int) bool {
	if !s.cons.movable(a) || !s.cons.movable(b) {
		return false
	}
	sa, sb := s.sizes[s.tab[w][a]], s.sizes[s.tab[w][b]]
	if sa == sb {
		return true
	}
	if sa == 4 {
		a, b = b, a
	}
	for k := w; k < len(s.c3); k++ {
		if s.c3[k][a] < s.c3[k][b]+1 {
			return false
		}
	}
	return true
}

// swap exchanges a and b between their tables in round w.
//
//go:norace
func (s *search) swap(w, a, b int) {
	dp, ds := s.deltaParts(w, a, b)
	dc := s.deltaCons(w, a, b)
	ta, tb := s.tab[w][a], s.tab[w][b]
	A, B := s.tables[w][ta], s.tables[w][tb]
	for _, x := range A {
		if x != a {
			s.bump(a, x, -1)
			s.bump(b, x, 1)
		}
	}
	for _, y := range B {
		if y != b {
			s.bump(b, y, -1)
			s.bump(a, y, 1)
		}
	}
	replace(A, a, b)
	replace(B, b, a)
	s.tab[w][a], s.tab[w][b] = tb, ta
	if s.sizes[ta] != s.sizes[tb] {
		from, to := a, b // from leaves a table of 3
		if s.sizes[ta] == 4 {
			from, to = b, a
		}
		for k := w; k < len(s.c3); k++ {
			s.c3[k][from]--
			s.c3[k][to]++
		}
	}
	s.pairs += dp
	s.spread += ds
	s.consCost += dc
	if s.seatCounts != nil && w == 0 {
		for _, t := range [2]int{ta, tb} {
			pen := seatPenalty(s.tables[0][t], s.seatCounts)
			s.seatTotal += pen - s.seatPen[t]
			s.seatPen[t] = pen
		}
	}
}

func (s *search) bump(a, b int, by int32) {
	s.meet.add(a, b, by)
}

func replace(ps []int, old, nw int) {
	for i, p := range ps {
		if p == old {
			ps[i] = nw
			return
		}
	}
}
