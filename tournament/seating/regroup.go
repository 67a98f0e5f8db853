package seating

// maxRegroupPartners bounds the tables a table with a seat problem is
// regrouped with, so that large fields stay fast.
const maxRegroupPartners = 48

// seatRetries is how many more searches Round makes in a small field
// (up to maxRetryField players) for a seating as good that lets more
// players have a least-used seat.
const (
	seatRetries   = 12
	maxRetryField = 64
)

// seatAgain runs the search of free round 0, then regroups and swaps for
// seats. When the search reached its target (no new repeat) in a small
// field and some table still cannot give every player a least-used seat,
// it searches again from a perturbed seating, up to seatRetries times, and
// keeps the best result: lowest search cost first, then lowest seat
// penalty.
func (s *search) seatAgain(lim limits, counts [][4]int) (timedOut bool) {
	s.regroupLeft = regroupWork + regroupWorkPerPlayer*s.n
	timedOut = s.run(lim)
	s.regroupSeats(counts)
	s.repairSeats(counts)
	if s.n > maxRetryField || s.cost() > lim.target {
		return timedOut // a search that ends short of its target would take long again
	}
	bestCost, bestPen, bestTab := s.cost(), seatPenaltyAll(s, counts), cloneTab(s.tab)
	for try := 0; try < seatRetries && bestPen > 0 && !timedOut; try++ {
		s.perturb()
		timedOut = s.run(lim)
		s.regroupSeats(counts)
		s.repairSeats(counts)
		if c, p := s.cost(), seatPenaltyAll(s, counts); c < bestCost || (c == bestCost && p < bestPen) {
			bestCost, bestPen, bestTab = c, p, cloneTab(s.tab)
		}
	}
	s.load(bestTab)
	return timedOut
}

// regroupWork and regroupWorkPerPlayer bound the groups regrouping
// evaluates in one Round, retries included, so that it stays a small part
// of the round's time (tens of milliseconds for 1,000 players).
const (
	regroupWork          = 100_000
	regroupWorkPerPlayer = 200
)

// seatPenaltyAll sums the seat penalties of free round 0's tables.
func seatPenaltyAll(s *search, counts [][4]int) int {
	sum := 0
	for _, ps := range s.tables[0] {
		sum += seatPenalty(ps, counts)
	}
	return sum
}

// regroupSeats lets free round 0 reach even seats where single swaps
// cannot. In a tight round (every player has one least-used seat, as in
// round 4 of a field of tables of 4) a table needs one player short of
// each seat, which a single swap rarely arranges without a new repeat.
// regroupSeats takes a table whose players cannot all get one of their
// least-used seats together with one other table of the same size (and,
// in small fields, two others), and re-deals their players in the way
// that gives the fewest seat uses above a least-used one, never at a
// higher search cost (repeats, standing gaps). Passes repeat while some
// regrouping helps.
func (s *search) regroupSeats(counts [][4]int) {
	pen := make([]int, s.nt)
	for t, ps := range s.tables[0] {
		pen[t] = seatPenalty(ps, counts)
	}
	for range 4 {
		improved := false
		for t := range s.nt {
			if s.regroupLeft <= 0 {
				return
			}
			partners := s.regroupPartners(t, pen)
			for _, u := range partners {
				if pen[t] > 0 && s.regroup([]int{t, u}, counts, pen) {
					improved = true
				}
			}
			if s.n > maxRegroup3 {
				continue
			}
			for i, u := range partners {
				for _, v := range partners[i+1:] {
					if pen[t] > 0 && s.regroup([]int{t, u, v}, counts, pen) {
						improved = true
					}
				}
			}
		}
		if !improved {
			return
		}
	}
}

// hasFixed reports whether table t holds a player fixed to it, whom
// regrouping must not move.
func (s *search) hasFixed(t int) bool { return s.cons != nil && s.cons.fixedAt[t] }

// maxRegroup3 is the largest field in which three tables are regrouped at
// once.
const maxRegroup3 = 40

// regroupPartners returns up to maxRegroupPartners other tables of t's
// size in random order, none when t has no seat problem; tables with a
// fixed player take no part.
func (s *search) regroupPartners(t int, pen []int) []int {
	if pen[t] == 0 || s.hasFixed(t) {
		return nil
	}
	var out []int
	for _, u := range s.rng.Perm(s.nt) {
		if u != t && s.sizes[u] == s.sizes[t] && !s.hasFixed(u) {
			out = append(out, u)
			if len(out) == maxRegroupPartners {
				break
			}
		}
	}
	return out
}

// regroup re-deals the players of the tables ts (all of one size) into
// groups of that size: the way with the lowest seat penalty among those
// that do not raise the search cost, ties drawn at random. It reports
// whether the penalty of the tables went down.
func (s *search) regroup(ts []int, counts [][4]int, pen []int) bool {
	g := regrouping{s: s, counts: counts, k: len(s.tables[0][ts[0]]), groups: make([][]int, len(ts))}
	for _, t := range ts {
		g.all = append(g.all, s.tables[0][t]...)
		g.limit += s.tableCost(s.tables[0][t])
		g.bestPen += pen[t]
	}
	g.used = make([]bool, len(g.all))
	g.deal(0, 0)
	if g.best == nil {
		return false
	}
	for i, t := range ts {
		s.moveInto(t, ts[i+1:], g.best[i])
		pen[t] = seatPenalty(s.tables[0][t], counts)
	}
	return true
}

// regrouping is the state of regroup's enumeration.
type regrouping struct {
	s         *search
	counts    [][4]int
	k         int
	all       []int
	used      []bool
	groups    [][]int
	limit     int     // the search cost not to exceed
	bestPen   int     // the seat penalty to beat (then to tie)
	best      [][]int // the best groups found, nil while none beats the tables as they are
	ties      int
	costSoFar int
	penSoFar  int
}

// deal fills group gi from the players not used yet, from index from on;
// a group starts with the first unused player so that each way of
// dealing is seen once.
func (g *regrouping) deal(gi, from int) {
	if gi == len(g.groups) {
		g.consider()
		return
	}
	grp := g.groups[gi]
	if g.s.regroupLeft <= 0 {
		return
	}
	if len(grp) == g.k {
		g.s.regroupLeft--
		c := g.s.tableCost(grp)
		if g.costSoFar+c > g.limit {
			return
		}
		p := seatPenalty(grp, g.counts)
		if g.penSoFar+p > g.bestPen {
			return
		}
		g.costSoFar, g.penSoFar = g.costSoFar+c, g.penSoFar+p
		g.deal(gi+1, 0)
		g.costSoFar, g.penSoFar = g.costSoFar-c, g.penSoFar-p
		return
	}
	for i := from; i < len(g.all); i++ {
		if g.used[i] {
			continue
		}
		g.used[i] = true
		g.groups[gi] = append(grp, g.all[i])
		g.deal(gi, i+1)
		g.groups[gi] = grp
		g.used[i] = false
		if len(grp) == 0 {
			return // the first unused player opens the group
		}
	}
}

// consider records a complete dealing that passed deal's bounds.
func (g *regrouping) consider() {
	switch {
	case g.penSoFar < g.bestPen:
		g.bestPen, g.ties = g.penSoFar, 1
	case g.best != nil && g.penSoFar == g.bestPen:
		if g.ties++; g.s.rng.IntN(g.ties) != 0 {
			return
		}
	default:
		return
	}
	g.best = make([][]int, len(g.groups))
	for i, grp := range g.groups {
		g.best[i] = append([]int(nil), grp...)
	}
}

// moveInto swaps players of free round 0 between table t and the tables
// rest so that t seats exactly the players of group.
func (s *search) moveInto(t int, rest []int, group []int) {
	var out []int
	for _, p := range s.tables[0][t] {
		if !contains(group, p) {
			out = append(out, p)
		}
	}
	i := 0
	for _, p := range group {
		if s.tab[0][p] != t {
			s.swap(0, out[i], p)
			i++
		}
	}
}

// tableCost is what a table of free round 0 adds to the search cost: its
// players' earlier meetings (the convex pair cost of one more meeting)
// and its standing gap.
func (s *search) tableCost(ps []int) int {
	c := 0
	for i, a := range ps {
		for _, b := range ps[i+1:] {
			c += s.model.add(s.baseMeet.get(a, b))
		}
	}
	c = s.model.repW*c + s.gap(ps, -1, -1)
	if s.cons != nil {
		c += s.cons.tableCost(ps, -1, -1)
	}
	return c
}

func contains(ps []int, p int) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}
