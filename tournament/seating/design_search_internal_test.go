package seating

import (
	"flag"
	"math/rand/v2"
	"slices"
	"testing"
)

var searchIters = flag.Int("search-iters", 100_000, "nodes per try of TestGDD3SearchFree")

// mixedSearch builds a base round over Z_m × 3 levels, table by table,
// whose m translates repeat no meeting: every difference between two
// levels, and within one level, covered at most once (never m/2 within a
// level, never 0 between levels for a 4-GDD of type 3^u).
type mixedSearch struct {
	m, alpha int
	type3    bool // groups {(x,0), (x,1), (x,2)}: difference 0 between levels is not covered
	rng      *rand.Rand

	used    []bool
	covered []bool
	blocks  [][]int
	nodes   int
	// each, when set, is called on every complete class (fill then goes
	// on searching until it returns true).
	each func() bool
}

// diffKey numbers the difference of two points l·m+x; -1 marks one that
// would repeat (within a level at m/2).
func (c *mixedSearch) diffKey(a, b int) int {
	m := c.m
	la, xa, lb, xb := a/m, a%m, b/m, b%m
	if la == lb {
		d := (xb - xa + m) % m
		d = min(d, m-d)
		if d == 0 || 2*d == m {
			return -1
		}
		return la*m + d
	}
	if la > lb {
		la, xa, lb, xb = lb, xb, la, xa
	}
	if c.type3 && xa == xb {
		return -1
	}
	return 3*m + (la+lb-1)*m + (xb-xa+m)%m
}

func (c *mixedSearch) mu(p int) int {
	m := c.m
	return ((p/m+1)%3)*m + c.alpha*(p%m)%m
}

// orbit returns blk and its images under mu(x, l) = (alpha·x, l+1), or blk
// alone without symmetry (alpha 0) or when mu leaves it invariant.
func (c *mixedSearch) orbit(blk []int) [][]int {
	out := [][]int{blk}
	for cur := blk; c.alpha > 0 && len(out) < 3; {
		nxt := make([]int, len(cur))
		for i, p := range cur {
			nxt[i] = c.mu(p)
		}
		if sameSet(nxt, blk) {
			break
		}
		out, cur = append(out, nxt), nxt
	}
	return out
}

func sameSet(a, b []int) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// fits reports whether q can join blk (its differences to blk's points
// unused, and not repeated within blk).
func (c *mixedSearch) fits(blk []int, q int) bool {
	var keys [3]int
	for i, p := range blk {
		k := c.diffKey(p, q)
		if c.covered[q] || p == q || k < 0 || c.used[k] || slices.Contains(keys[:i], k) {
			return false
		}
		keys[i] = k
	}
	return true
}

func (c *mixedSearch) mark(blk []int, v bool) {
	for i, p := range blk {
		c.covered[p] = v
		for _, q := range blk[:i] {
			c.used[c.diffKey(p, q)] = v
		}
	}
}

// place adds the orbit of blk when its points are free and its
// differences unused and distinct, and returns how many blocks it added
// (0 when it does not fit).
func (c *mixedSearch) place(blk []int) int {
	orb := c.orbit(blk)
	var keys, pts []int
	ok := true
	for _, b := range orb {
		for i, p := range b {
			if !ok || c.covered[p] {
				ok = false
				break
			}
			c.covered[p] = true
			pts = append(pts, p)
			for _, q := range b[:i] {
				k := c.diffKey(p, q)
				if k < 0 || c.used[k] {
					ok = false
					break
				}
				c.used[k] = true
				keys = append(keys, k)
			}
		}
	}
	if !ok {
		for _, k := range keys {
			c.used[k] = false
		}
		for _, p := range pts {
			c.covered[p] = false
		}
		return 0
	}
	c.blocks = append(c.blocks, orb...)
	return len(orb)
}

// unplace removes the last k blocks.
func (c *mixedSearch) unplace(k int) {
	for _, b := range c.blocks[len(c.blocks)-k:] {
		c.mark(b, false)
	}
	c.blocks = c.blocks[:len(c.blocks)-k]
}

// fill adds need tables of 4 from the free points, each starting with the
// lowest free point, by randomized backtracking bounded by limit nodes.
func (c *mixedSearch) fill(need, limit int) bool {
	if need == 0 {
		return c.each == nil || c.each()
	}
	if c.nodes++; c.nodes > limit {
		return false
	}
	first := slices.Index(c.covered, false)
	var free []int
	for p := first + 1; p < len(c.covered); p++ {
		if !c.covered[p] {
			free = append(free, p)
		}
	}
	c.rng.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
	blk := []int{first}
	var pick func(from int) bool
	pick = func(from int) bool {
		if len(blk) == 4 {
			k := c.place(slices.Clone(blk))
			switch {
			case k == 0:
				return false
			case k <= need && c.fill(need-k, limit):
				return true
			}
			c.unplace(k)
			return false
		}
		for i := from; i < len(free) && c.nodes <= limit; i++ {
			if q := free[i]; c.fits(blk, q) {
				blk = append(blk, q)
				if pick(i + 1) {
					return true
				}
				blk = blk[:len(blk)-1]
			}
		}
		return false
	}
	return pick(0)
}

// design develops the blocks, the first fixed of them each with a fixed
// point of its own.
func (c *mixedSearch) design(fixed int) *design {
	var base [][]pt
	for k, blk := range c.blocks {
		var b []pt
		for _, p := range blk {
			b = append(b, pt{p % c.m, p / c.m})
		}
		if k < fixed {
			b = append(b, inf(k))
		}
		base = append(base, b)
	}
	return developCyclic("search", c.m, 3, fixed, base)
}

func (c *mixedSearch) reset() {
	c.used = make([]bool, 6*c.m)
	c.covered = make([]bool, 3*c.m)
	c.blocks, c.nodes = nil, 0
}

var gdd3Search = flag.Int("gdd3-search", 0, "search 4-RGDDs of type 3^u over Z_(u-1) × 3 levels plus three fixed points, invariant under the level shift, whose fixed points' tables hold one point of every residue mod 3 on each level")

var gdd3Alpha = flag.Int("gdd3-alpha", 1, "TestGDD3Search's alpha: the base round is invariant under (x, l) → (alpha·x, l+1), alpha³ = 1 mod u-1")

// TestGDD3Search enumerates the 4-RGDDs of type 3^u over Z_(u-1) × 3
// levels plus three fixed points whose base round is invariant under
// (x, l) → (alpha·x, l+1) (-gdd3-alpha, 1 by default), for every fixed points' table {∞0, (0,0),
// (a,1), (b,2)}, and counts those that keep the tables of 3 fair minus the
// fixed points or minus the group {(0,0), (0,1), (0,2)} (balancedOrder).
// For u = 16, 0, a, b must lie in distinct residues mod 3 for the fixed
// points (no other 3-set of Z_15 has a fair order of its translates).
func TestGDD3Search(t *testing.T) {
	t.Parallel()
	if *gdd3Search == 0 {
		t.Skip("run with -args -gdd3-search=16")
	}
	m := *gdd3Search - 1
	designs, fair := 0, 0
	for a := 1; a < m; a++ {
		for b := 1; b < m; b++ {
			c := &mixedSearch{m: m, alpha: *gdd3Alpha, type3: true, rng: rand.New(rand.NewPCG(1, 1))}
			c.reset()
			if c.place([]int{0, m + a, 2*m + b}) != 3 {
				continue
			}
			c.each = func() bool {
				designs++
				d := c.design(3)
				for _, g := range [][]int{{3 * m, 3*m + 1, 3*m + 2}, {0, m, 2 * m}} {
					if len(balancedOrder(d, g, m)) == m {
						fair++
						t.Logf("a=%d b=%d group %v: fair: %v", a, b, g, c.blocks)
					}
				}
				return fair > 0
			}
			c.fill((3*m-9)/4, 1<<40)
			if fair > 0 {
				return
			}
		}
	}
	t.Logf("%d designs, %d fair", designs, fair)
}

// TestGDD3SearchFree is TestGDD3Search without the level shift: the three
// fixed points' tables at random, each level's three points one of every
// residue mod 3, then a depth-first search bounded by -search-iters nodes.
func TestGDD3SearchFree(t *testing.T) {
	t.Parallel()
	if *gdd3Search == 0 {
		t.Skip("run with -args -gdd3-search=16")
	}
	m := *gdd3Search - 1
	for seed := range uint64(1_000_000) {
		c := &mixedSearch{m: m, type3: true, rng: rand.New(rand.NewPCG(seed, 3))}
		c.reset()
		var xs [3][]int
		for l := range 3 {
			for r := range 3 {
				xs[l] = append(xs[l], l*m+r+3*c.rng.IntN(m/3))
			}
			c.rng.Shuffle(3, func(i, j int) { xs[l][i], xs[l][j] = xs[l][j], xs[l][i] })
		}
		ok := true
		for k := range 3 {
			ok = ok && c.place([]int{xs[0][k], xs[1][k], xs[2][k]}) == 1
		}
		if !ok {
			continue
		}
		if c.fill((3*m-9)/4, *searchIters) {
			t.Logf("seed %d: %v", seed, c.blocks)
			return
		}
		if seed%100 == 0 {
			t.Logf("seed %d: none yet", seed)
		}
	}
}

var gdd2Search = flag.Int("gdd2-search", 0, "search 4-RGDDs of type 2^u over Z_m × 3 levels plus two fixed points (m = 2(u-1)/3), invariant under (x, l) → (alpha·x, l+1) with -gdd3-alpha")

// TestGDD2Search enumerates the 4-RGDDs of type 2^u over Z_m × 3 levels
// plus two fixed points whose base round is invariant under (x, l) →
// (alpha·x, l+1), each fixed point's table one orbit {∞k, (r,0),
// (alpha·r,1), (alpha²·r,2)} (r = 0 for ∞0), and reports those that keep
// the tables of 3 fair minus a group {(0,l), (m/2,l)} or the fixed points
// (balancedOrder).
func TestGDD2Search(t *testing.T) {
	t.Parallel()
	if *gdd2Search == 0 {
		t.Skip("run with -args -gdd2-search=28 -gdd3-alpha=7")
	}
	m := 2 * (*gdd2Search - 1) / 3
	alpha := *gdd3Alpha
	designs, fair := 0, 0
	for r := 1; r < m && fair == 0; r++ {
		c := &mixedSearch{m: m, alpha: alpha, rng: rand.New(rand.NewPCG(1, 1))}
		c.reset()
		if c.place([]int{0, m, 2 * m}) != 1 || c.place([]int{r, m + alpha*r%m, 2*m + alpha*alpha*r%m}) != 1 {
			continue
		}
		c.each = func() bool {
			if designs++; designs%1000 == 0 {
				t.Logf("%d designs", designs)
			}
			d := c.design(2)
			for l := range 4 {
				g := []int{l * m, l*m + m/2}
				if l == 3 {
					g = []int{3 * m, 3*m + 1} // the fixed points
				}
				if got := len(balancedOrder(d, g, m)); got == m {
					fair++
					t.Logf("r=%d group %v: fair: %v", r, g, c.blocks)
				}
			}
			return fair > 0
		}
		c.fill((3*m-6)/4, 1<<40)
	}
	t.Logf("%d designs, %d fair", designs, fair)
}
