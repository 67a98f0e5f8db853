package seating

import "strconv"

// orbitClass is a base parallel class over Z_m × 3 levels plus fixed
// points, given by representatives under the map mu(x, l) = (alpha·x, l+1)
// (alpha³ = 1 mod m, so mu has order 3 on the finite points): an element
// pt{r, l} of a block stands for the point (alpha^l·r, l), and a fixed
// point is pt{i, -1}. An invariant block (a fixed point and the three
// points of one mu-orbit) is its own image under mu; every other block
// stands for itself and its two images, in which fixed point i becomes
// fixed point i+1 mod 3. Developing the class by translation over Z_m
// (developCyclic) gives m rounds; the class is chosen so that every
// difference between two levels, and within one level, is covered at most
// once, which the tests check by counting meetings.
type orbitClass struct {
	m, alpha, fixed int
	invariant       [][]pt
	orbits          [][]pt
}

// point returns the point an element stands for after s applications of mu.
func (c orbitClass) point(e pt, s int) pt {
	if e.l < 0 {
		return pt{(e.x + s) % 3, -1}
	}
	l := (e.l + s) % 3
	x := e.x
	for range l {
		x = x * c.alpha % c.m
	}
	return pt{x, l}
}

// build develops the class into a design with the group of fixed points.
func (c orbitClass) build(name string) *design {
	var base [][]pt
	for _, blk := range c.invariant {
		var b []pt
		for _, e := range blk {
			if e.l < 0 {
				b = append(b, e)
			} else {
				b = append(b, c.point(e, 0))
			}
		}
		base = append(base, b)
	}
	for s := range 3 {
		for _, blk := range c.orbits {
			var b []pt
			for _, e := range blk {
				b = append(b, c.point(e, s))
			}
			base = append(base, b)
		}
	}
	d := developCyclic(name, c.m, 3, c.fixed, base)
	for i := range c.fixed {
		d.group = append(d.group, 3*c.m+i)
	}
	return d
}

func inf(i int) pt { return pt{i, -1} }

// rbibd40 is a resolvable (40,4,1) design (40 players over 13 rounds,
// every pair meets exactly once; the existence is Hanani, Ray-Chaudhuri
// and Wilson's, v ≡ 4 mod 12): Z_13 × 3 levels plus one fixed point, its
// class invariant under the level shift (alpha = 1).
func rbibd40() *design {
	return orbitClass{m: 13, alpha: 1, fixed: 1,
		invariant: [][]pt{{inf(0), {0, 0}, {0, 1}, {0, 2}}},
		orbits: [][]pt{
			{{1, 0}, {5, 1}, {8, 1}, {12, 0}},
			{{2, 0}, {3, 1}, {10, 1}, {11, 0}},
			{{4, 0}, {6, 2}, {7, 2}, {9, 0}},
		},
	}.build("resolvable (40,4,1) design")
}

// rbibd52 is a resolvable (52,4,1) design (52 players over 17 rounds) over
// Z_17 × 3 levels plus one fixed point.
func rbibd52() *design {
	return orbitClass{m: 17, alpha: 1, fixed: 1,
		invariant: [][]pt{{inf(0), {0, 0}, {0, 1}, {0, 2}}},
		orbits: [][]pt{
			{{1, 0}, {4, 2}, {13, 2}, {16, 0}},
			{{2, 0}, {8, 2}, {9, 2}, {15, 0}},
			{{3, 0}, {5, 1}, {12, 1}, {14, 0}},
			{{6, 0}, {7, 2}, {10, 2}, {11, 0}},
		},
	}.build("resolvable (52,4,1) design")
}

// gdd3 builds the resolvable 4-GDDs of type 3^u for u = 12, 16, 20 (3u
// players over u-1 rounds; the groups, whose players never meet, are
// {(x,0), (x,1), (x,2)} and the three fixed points): Z_m × 3 levels plus
// three fixed points, m = u-1, the fixed points' tables one orbit under
// the level shift.
func gdd3(u int) *design {
	c := orbitClass{m: u - 1, alpha: 1, fixed: 3}
	switch u {
	case 12:
		c.orbits = [][]pt{
			{inf(0), {0, 0}, {10, 1}, {2, 2}},
			{{1, 0}, {5, 1}, {6, 1}, {8, 1}},
			{{3, 0}, {4, 1}, {7, 0}, {9, 1}},
		}
	case 16:
		c.orbits = [][]pt{
			{inf(0), {0, 0}, {14, 1}, {2, 2}},
			{{1, 0}, {6, 1}, {7, 2}, {10, 2}},
			{{3, 0}, {5, 1}, {11, 1}, {13, 1}},
			{{4, 0}, {8, 0}, {9, 0}, {12, 2}},
		}
	case 20:
		c.orbits = [][]pt{
			{inf(0), {0, 0}, {18, 1}, {2, 2}},
			{{1, 0}, {8, 1}, {11, 0}, {15, 1}},
			{{3, 0}, {9, 0}, {13, 2}, {14, 0}},
			{{4, 0}, {6, 0}, {7, 0}, {17, 1}},
			{{5, 0}, {10, 1}, {12, 2}, {16, 2}},
		}
	default:
		return nil
	}
	d := c.build("resolvable 4-GDD of type 3^" + strconv.Itoa(u))
	// Left empty, the group {(0,0), (0,1), (0,2)} has a fair order of all
	// the rounds for u = 12 and 20; the fixed points have none.
	d.group = []int{0, c.m, 2 * c.m}
	return d
}

// gdd2 builds the resolvable 4-GDDs of type 2^u for u = 22, 28 (2u
// players over 2(u-1)/3 rounds; the groups, pairs who never meet, are
// {(x,l), (x+m/2,l)} and the two fixed points): Z_m × 3 levels plus two
// fixed points, m = 2(u-1)/3, invariant under mu with alpha of order 3 mod
// m (9 mod 14, 7 mod 18); each fixed point's table is one mu-orbit.
func gdd2(u int) *design {
	var c orbitClass
	switch u {
	case 22:
		c = orbitClass{m: 14, alpha: 9, fixed: 2,
			invariant: [][]pt{{inf(0), {0, 0}, {0, 1}, {0, 2}}, {inf(1), {13, 0}, {13, 1}, {13, 2}}},
			orbits: [][]pt{
				{{1, 0}, {4, 0}, {5, 0}, {6, 2}},
				{{2, 0}, {8, 2}, {10, 2}, {11, 1}},
				{{3, 0}, {7, 1}, {9, 0}, {12, 1}},
			}}
	case 28:
		c = orbitClass{m: 18, alpha: 7, fixed: 2,
			invariant: [][]pt{{inf(0), {0, 0}, {0, 1}, {0, 2}}, {inf(1), {16, 0}, {16, 1}, {16, 2}}},
			orbits: [][]pt{
				{{1, 0}, {3, 2}, {8, 2}, {9, 1}},
				{{2, 0}, {5, 2}, {12, 1}, {15, 1}},
				{{4, 0}, {11, 1}, {13, 1}, {17, 1}},
				{{6, 0}, {7, 0}, {10, 2}, {14, 0}},
			}}
	default:
		return nil
	}
	return c.build("resolvable 4-GDD of type 2^" + strconv.Itoa(u))
}
