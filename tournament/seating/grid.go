package seating

// grid is a table of int32 counts indexed by (row, col), zero where never
// set. A small grid is a dense slice; a large one (more than denseCells
// cells) keeps only the cells ever touched, in an open-addressing hash
// table, so that its memory grows with what a search stores (the pairs
// that met, the moves made) and not with rows × cols: a field of 20,000
// players would need 1.6 GB for a dense meeting table.
type grid struct {
	cols  int
	dense []int32
	keys  []uint64 // sparse: cell index + 1 per slot, 0 for a free slot
	vals  []int32
	used  int
}

// denseCells is the largest grid kept dense (4 MB).
const denseCells = 1 << 20

func newGrid(rows, cols int) *grid {
	return newGridSized(rows, cols, rows*cols <= denseCells)
}

func newGridSized(rows, cols int, dense bool) *grid {
	g := &grid{cols: cols}
	if dense {
		g.dense = make([]int32, rows*cols)
	} else {
		g.keys, g.vals = make([]uint64, 64), make([]int32, 64)
	}
	return g
}

//go:norace
func (g *grid) get(r, c int) int32 {
	if g.dense != nil {
		return g.dense[r*g.cols+c]
	}
	k := uint64(r*g.cols+c) + 1
	if i := g.slot(k); g.keys[i] == k {
		return g.vals[i]
	}
	return 0
}

//go:norace
func (g *grid) add(r, c int, d int32) {
	if g.dense != nil {
		g.dense[r*g.cols+c] += d
		return
	}
	*g.cell(r, c) += d
}

func (g *grid) set(r, c int, v int32) {
	if g.dense != nil {
		g.dense[r*g.cols+c] = v
		return
	}
	*g.cell(r, c) = v
}

// cell returns the sparse slot of (r, c), taking a free one if needed.
func (g *grid) cell(r, c int) *int32 {
	k := uint64(r*g.cols+c) + 1
	i := g.slot(k)
	if g.keys[i] == 0 {
		if 2*(g.used+1) > len(g.keys) {
			g.grow()
			i = g.slot(k)
		}
		g.keys[i] = k
		g.used++
	}
	return &g.vals[i]
}

// slot is where key k is, or the free slot where it would go.
//
//go:norace
func (g *grid) slot(k uint64) int {
	mask := len(g.keys) - 1
	i := int((k*0x9e3779b97f4a7c15)>>32) & mask
	for g.keys[i] != 0 && g.keys[i] != k {
		i = (i + 1) & mask
	}
	return i
}

func (g *grid) grow() {
	keys, vals := g.keys, g.vals
	g.keys, g.vals = make([]uint64, 2*len(keys)), make([]int32, 2*len(keys))
	for i, k := range keys {
		if k != 0 {
			j := g.slot(k)
			g.keys[j], g.vals[j] = k, vals[i]
		}
	}
}

// each calls f for every nonzero cell, in no particular order.
func (g *grid) each(f func(r, c int, v int32)) {
	if g.dense != nil {
		for i, v := range g.dense {
			if v != 0 {
				f(i/g.cols, i%g.cols, v)
			}
		}
		return
	}
	for i, k := range g.keys {
		if k != 0 && g.vals[i] != 0 {
			f(int(k-1)/g.cols, int(k-1)%g.cols, g.vals[i])
		}
	}
}

// copyFrom makes g a copy of o, reusing g's memory.
func (g *grid) copyFrom(o *grid) {
	g.cols, g.used = o.cols, o.used
	if o.dense != nil {
		g.dense, g.keys, g.vals = append(g.dense[:0], o.dense...), nil, nil
		return
	}
	g.dense, g.keys, g.vals = nil, append(g.keys[:0], o.keys...), append(g.vals[:0], o.vals...)
}

// meetings counts how often each pair of n players met, in a grid that
// holds each pair once (the lower index first).
type meetings struct{ g *grid }

func newMeetings(n int) meetings { return meetings{newGrid(n, n)} }

func (m meetings) get(a, b int) int32 {
	if a > b {
		a, b = b, a
	}
	return m.g.get(a, b)
}

func (m meetings) add(a, b int, d int32) {
	if a > b {
		a, b = b, a
	}
	m.g.add(a, b, d)
}

// each calls f once for every pair that met, a < b.
func (m meetings) each(f func(a, b int, v int32)) { m.g.each(f) }

// copyFrom makes m a copy of o.
func (m meetings) copyFrom(o meetings) { m.g.copyFrom(o.g) }
