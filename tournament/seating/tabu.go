package seating

import (
	"slices"
	"time"
)

// The search looks at no more than this many players involved in repeats,
// and at no more than this many partners for each, per iteration, so that
// an iteration stays cheap for large rounds.
const (
	maxCandidates = 48
	maxPartners   = 256
)

// limits bound a search. Work is counted in evaluated swaps, which is
// what the time goes into, so the same work takes about the same time
// whatever the instance's shape. The search is deterministic for a seed as
// long as it stops by work or by reaching target; the deadline is a safety
// cap, checked every 64 iterations, after which the result depends on the
// machine's speed (reported as timed out, with the iterations run in cut,
// which a replay without a clock stops at).
type limits struct {
	work   int // evaluated swaps
	stall  int // iterations without a new best before a restart from the best
	target int // stop when the objective reaches this
	// settled, when positive, stops the search once the pair cost is at
	// most settled-1 and stall iterations passed without a new best: used
	// when standings make the objective's minimum unknown.
	settled int
	// restarts, when positive, stops the search after that many restarts
	// in a row without a new best.
	restarts int
	deadline time.Time
	now      func() time.Time
	cut      *cut // shared by the searches of one Round or Plan
}

// cut counts the iterations of all the searches of one Round or Plan and
// records where the clock stopped them, so that a replay stops at the same
// point without reading the clock (Params.Steps, Options.Steps). The clock
// stops a draw once: the searches after a cut run to their work bound.
type cut struct {
	steps  int // iterations run so far
	at     int // the iterations run when the clock (or replay) stopped a search; 0 for none
	replay int // when positive, stop at this many iterations instead of reading the clock
	// noClock: a replay, which never reads the clock (it stops at replay
	// when positive, else at the work bound, as the search it replays did).
	noClock bool
}

// clock returns a search's deadline and clock for a budget (zero means
// DefaultBudget) and a clock (nil means time.Now): none when replaying, so
// that a replay never reads the clock.
func (c *cut) clock(budget time.Duration, now func() time.Time) (time.Time, func() time.Time) {
	if c.noClock {
		return time.Time{}, nil
	}
	if budget <= 0 {
		budget = DefaultBudget
	}
	if now == nil {
		now = time.Now
	}
	return now().Add(budget), now
}

// stop reports whether the search must stop before iteration it, and
// records the cut.
func (c *cut) stop(it int32, lim limits) bool {
	switch {
	case c.at > 0:
		return false
	case c.replay > 0:
		if c.steps < c.replay {
			return false
		}
	case it%64 != 0 || lim.now == nil || !lim.now().After(lim.deadline):
		return false
	}
	c.at = c.steps
	return true
}

// greedyRound seats free round w greedily: the players with the fewest
// tables of 3 so far take the tables of 3 (ties broken at random), then
// each player in turn takes the open table where they have met the fewest
// of those already seated. With byRank the players go in standing order to
// the first open table instead, giving tables of neighbours in the standings.
func (s *search) greedyRound(c3 []int32) []int {
	n := s.n
	in3 := make([]bool, n)
	slots3 := 0
	for _, sz := range s.sizes {
		if sz == 3 {
			slots3 += 3
		}
	}
	order := s.rng.Perm(n)
	if s.model.rank != nil {
		// Among equals, the lowest in the standings take the tables of 3,
		// so that tables stay groups of neighbours.
		slices.SortFunc(order, func(a, b int) int { return s.model.rank[b] - s.model.rank[a] })
	}
	slices.SortStableFunc(order, func(a, b int) int { return int(c3[a]) - int(c3[b]) })
	tab := make([]int, n)
	members := make([][]int, s.nt)
	order, slots3 = s.seatFixed(order, slots3, tab, members)
	for _, p := range order[:slots3] {
		in3[p] = true
	}
	if s.model.rank != nil {
		slices.SortFunc(order, func(a, b int) int { return s.model.rank[a] - s.model.rank[b] })
	} else {
		order = s.unfixed(s.rng.Perm(n))
	}
	for _, p := range order {
		best := s.openTable(p, in3[p], members)
		tab[p] = best
		members[best] = append(members[best], p)
	}
	return tab
}

// seatFixed seats the fixed players at their tables and returns the
// other players of order and the seats at tables of 3 left for them.
func (s *search) seatFixed(order []int, slots3 int, tab []int, members [][]int) ([]int, int) {
	if s.cons == nil {
		return order, slots3
	}
	for p, t := range s.cons.fixed {
		if t >= 0 {
			tab[p], members[t] = t, append(members[t], p)
			if s.sizes[t] == 3 {
				slots3--
			}
		}
	}
	return s.unfixed(order), slots3
}

// unfixed drops the fixed players from order.
func (s *search) unfixed(order []int) []int {
	if s.cons == nil {
		return order
	}
	return slices.DeleteFunc(order, func(p int) bool { return !s.cons.movable(p) })
}

// openTable picks p's table in greedyRound.
func (s *search) openTable(p int, three bool, members [][]int) int {
	if s.model.rank != nil {
		return s.openTableByRank(p, three, members)
	}
	best, bestCost, ties := -1, 0, 0
	for t, sz := range s.sizes {
		if len(members[t]) == sz || (sz == 3) != three {
			continue
		}
		c := 0
		for _, x := range members[t] {
			c += s.model.add(s.meet.get(p, x))
		}
		switch {
		case best < 0 || c < bestCost:
			best, bestCost, ties = t, c, 1
		case c == bestCost:
			ties++
			if s.rng.IntN(ties) == 0 {
				best = t
			}
		}
	}
	return best
}

// maxOpen is how many tables greedyRound keeps started but not full when
// seating by standings.
const maxOpen = 3

// openTableByRank picks p's table when players come in standing order:
// the started table where p adds the fewest repeats and then the smallest
// standing gap, or a new table when every started one would repeat a
// meeting and fewer than maxOpen are started.
func (s *search) openTableByRank(p int, three bool, members [][]int) int {
	best, bestCost, started, fresh := -1, 0, 0, -1
	for t, sz := range s.sizes {
		if len(members[t]) == sz || (sz == 3) != three {
			continue
		}
		if len(members[t]) == 0 {
			if fresh < 0 {
				fresh = t
			}
			continue
		}
		started++
		c := s.gap(append(members[t][:len(members[t]):len(members[t])], p), -1, -1) - s.gap(members[t], -1, -1)
		for _, x := range members[t] {
			c += s.model.repW * s.model.add(s.meet.get(p, x))
		}
		if best < 0 || c < bestCost {
			best, bestCost = t, c
		}
	}
	if fresh >= 0 && (best < 0 || (bestCost >= s.model.repW && started < maxOpen)) {
		return fresh
	}
	return best
}

// extend seats rounds free rounds after the loaded ones greedily.
func (s *search) extend(tab [][]int, rounds int) [][]int {
	s.load(tab)
	for len(tab) < rounds {
		c3 := s.baseC3
		if len(tab) > 0 {
			c3 = s.c3[len(tab)-1]
		}
		tab = append(tab, s.greedyRound(c3))
		s.load(tab)
	}
	return tab
}

type move struct{ w, p int }

// run improves the loaded free rounds by tabu search and leaves the best
// seating found loaded. It reports whether the deadline cut it short.
func (s *search) run(lim limits) (timedOut bool) {
	best, bestTab := s.cost(), cloneTab(s.tab)
	s.pairsAtBest = s.pairs
	stall, restarts := 0, 0
	s.evals = 0
	for it := int32(1); s.evals < lim.work && best > lim.target; it++ {
		if lim.cut.stop(it, lim) {
			timedOut = true
			break
		}
		lim.cut.steps++
		s.evals += 4*s.n*len(s.tab) + 64 // the iteration's own overhead
		w, a, b, ok := s.pickMove(it, best)
		if !ok {
			s.perturb()
			continue
		}
		ta, tb := s.tab[w][a], s.tab[w][b]
		s.swap(w, a, b)
		tenure := int32(4 + s.rng.IntN(10))
		s.tabu[w].set(a, ta, it+tenure)
		s.tabu[w].set(b, tb, it+tenure)
		if c := s.cost(); c < best {
			best, bestTab, stall, restarts = c, cloneTab(s.tab), 0, 0
			s.pairsAtBest = s.pairs
			continue
		}
		if stall++; lim.settled > 0 && s.pairsAtBest <= lim.settled-1 && stall >= lim.stall {
			break
		}
		if stall > lim.stall {
			if restarts++; lim.restarts > 0 && restarts > lim.restarts {
				break
			}
			s.load(bestTab)
			s.perturb()
			stall = 0
		}
	}
	s.load(bestTab)
	return timedOut
}

// pickMove returns the best swap that is not tabu (or that beats the best
// objective so far), ties broken at random. It considers the players who
// repeat a meeting, plus a few random ones when standings also count.
//
//go:norace
func (s *search) pickMove(it int32, best int) (w, a, b int, ok bool) {
	cands := s.conflicts()
	if s.seatCounts != nil {
		for t, pen := range s.seatPen {
			if pen > 0 {
				for _, p := range s.tables[0][t] {
					cands = append(cands, move{0, p})
				}
			}
		}
	}
	if s.model.rank != nil || len(cands) == 0 {
		for range 8 {
			cands = append(cands, move{s.rng.IntN(len(s.tab)), s.rng.IntN(s.n)})
		}
	}
	if len(cands) > maxCandidates {
		for i := range maxCandidates {
			j := i + s.rng.IntN(len(cands)-i)
			cands[i], cands[j] = cands[j], cands[i]
		}
		cands = cands[:maxCandidates]
	}
	cur, bestD, ties := s.cost(), 0, 0
	for _, c := range cands {
		ta := s.tab[c.w][c.p]
		for k := range min(s.n, maxPartners) {
			q := s.partner(c.p, k)
			tb := s.tab[c.w][q]
			if tb == ta || !s.allowed(c.w, c.p, q) {
				continue
			}
			d := s.delta(c.w, c.p, q)
			s.evals++
			tabu := s.tabu[c.w].get(c.p, tb) > it || s.tabu[c.w].get(q, ta) > it
			if tabu && cur+d >= best {
				continue
			}
			switch {
			case ties == 0 || d < bestD:
				w, a, b, bestD, ties = c.w, c.p, q, d, 1
			case d == bestD:
				ties++
				if s.rng.IntN(ties) == 0 {
					w, a, b = c.w, c.p, q
				}
			}
		}
	}
	return w, a, b, ties > 0
}

// conflicts lists, per free round, the players who meet someone at their
// table there that they also meet in another round.
//
//go:norace
func (s *search) conflicts() []move {
	var out []move
	for w, ts := range s.tables {
		for _, ps := range ts {
			for i, a := range ps {
				for j, b := range ps {
					if i != j && s.meet.get(a, b) >= 2 {
						out = append(out, move{w, a})
						break
					}
				}
			}
		}
	}
	return out
}

// perturb makes a few random allowed swaps to leave a local optimum.
func (s *search) perturb() {
	for range 2 + s.rng.IntN(3) {
		w := s.rng.IntN(len(s.tab))
		a, b := s.rng.IntN(s.n), s.rng.IntN(s.n)
		if s.tab[w][a] != s.tab[w][b] && s.allowed(w, a, b) {
			s.swap(w, a, b)
		}
	}
}

func cloneTab(tab [][]int) [][]int {
	out := make([][]int, len(tab))
	for i, r := range tab {
		out[i] = slices.Clone(r)
	}
	return out
}

// partner returns p's k-th swap partner to try when a round is too large
// to try everyone: a random player, or with standings one of the
// maxPartners players nearest p in the standings, where a swap costs
// little in standing gaps.
//
//go:norace
func (s *search) partner(p, k int) int {
	switch {
	case s.n <= maxPartners:
		return k
	case s.model.rank == nil:
		return s.rng.IntN(s.n)
	}
	lo := min(max(s.model.rank[p]-maxPartners/2, 0), s.n-maxPartners)
	return s.byRank[lo+k]
}
