package seating

import "testing"

// TestGridSparse checks the sparse grid against the dense one under a
// random mix of adds and sets, through several growths.
func TestGridSparse(t *testing.T) {
	t.Parallel()
	const rows, cols = 300, 70
	dense, sparse := newGridSized(rows, cols, true), newGridSized(rows, cols, false)
	rng := newRNG(7)
	for i := range 20000 {
		r, c, v := rng.IntN(rows), rng.IntN(cols), int32(rng.IntN(5)-2)
		if i%3 == 0 {
			dense.set(r, c, v)
			sparse.set(r, c, v)
		} else {
			dense.add(r, c, v)
			sparse.add(r, c, v)
		}
	}
	for r := range rows {
		for c := range cols {
			if d, s := dense.get(r, c), sparse.get(r, c); d != s {
				t.Fatalf("sparse.get(%d, %d) = %d, want %d", r, c, s, d)
			}
		}
	}
	sumOf := func(g *grid) (n int, sum int64) {
		g.each(func(r, c int, v int32) { n, sum = n+1, sum+int64(v)*int64(r*cols+c+1) })
		return n, sum
	}
	var cp grid
	cp.copyFrom(sparse)
	dn, ds := sumOf(dense)
	for _, g := range []*grid{sparse, &cp} {
		if n, s := sumOf(g); n != dn || s != ds {
			t.Errorf("sparse each: %d cells summing %d, want %d summing %d", n, s, dn, ds)
		}
	}
	if 2*sparse.used > len(sparse.keys) {
		t.Errorf("sparse grid holds %d keys in %d slots, want at most half full", sparse.used, len(sparse.keys))
	}
}
