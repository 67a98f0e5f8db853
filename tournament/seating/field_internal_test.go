package seating

import "testing"

// TestFields checks the field axioms that the transversal designs rely on:
// every nonzero element has an inverse and multiplication distributes.
func TestFields(t *testing.T) {
	t.Parallel()
	for _, q := range []int{5, 7, 8, 9, 11, 13, 25, 27} {
		f := newField(q)
		if f == nil {
			t.Fatalf("newField(%d) = nil, want GF(%d)", q, q)
		}
		for a := 1; a < q; a++ {
			inv := 0
			for b := 1; b < q; b++ {
				if f.mul(a, b) == 1 {
					inv++
				}
			}
			if inv != 1 {
				t.Errorf("GF(%d): %d has %d inverses, want 1", q, a, inv)
			}
			for b := range q {
				for c := range q {
					if f.mul(a, f.add(b, c)) != f.add(f.mul(a, b), f.mul(a, c)) {
						t.Fatalf("GF(%d): %d·(%d+%d) does not distribute", q, a, b, c)
					}
				}
			}
		}
	}
	for _, q := range []int{6, 10, 12, 16, 1} {
		if f := newField(q); f != nil {
			t.Errorf("newField(%d) = %+v, want nil", q, f)
		}
	}
}
