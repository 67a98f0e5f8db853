package seating

import (
	"slices"
	"testing"
)

// TestDesignsMeetOnce counts the meetings of every construction directly:
// each round seats every point once at tables of 4, no pair meets twice,
// the pairs that never meet are exactly the design's groups (none for a
// resolvable (v,4,1) design), and a group named for leaving empty is met
// exactly once by every other point.
func TestDesignsMeetOnce(t *testing.T) {
	t.Parallel()
	tests := []struct {
		d         *design
		rounds    int
		groupSize int // the size of the groups whose points never meet; 1 for none
	}{
		{affineGF4(2), 5, 1},
		{affineGF4(3), 21, 1},
		{develop24(), 7, 3},
		{develop28(), 9, 1},
		{gdd2to16(), 10, 2},
		{rbibd40(), 13, 1},
		{rbibd52(), 17, 1},
		{gdd3(12), 11, 3},
		{gdd3(16), 15, 3},
		{gdd3(20), 19, 3},
		{gdd2(22), 14, 2},
		{gdd2(28), 18, 2},
	}
	for _, tt := range tests {
		d := tt.d
		if len(d.rounds) != tt.rounds {
			t.Errorf("%s: %d rounds, want %d", d.name, len(d.rounds), tt.rounds)
		}
		meet := make([][]int, d.points)
		for i := range meet {
			meet[i] = make([]int, d.points)
		}
		for w, round := range d.rounds {
			seen := make([]int, d.points)
			for _, blk := range round {
				if len(blk) != 4 {
					t.Errorf("%s round %d: a table of %d", d.name, w, len(blk))
				}
				for i, a := range blk {
					seen[a]++
					for _, b := range blk[i+1:] {
						meet[a][b]++
						meet[b][a]++
					}
				}
			}
			for p, c := range seen {
				if c != 1 {
					t.Fatalf("%s round %d: point %d seated %d times", d.name, w, p, c)
				}
			}
		}
		for a := range d.points {
			never := 0
			for b := range d.points {
				switch {
				case meet[a][b] > 1:
					t.Fatalf("%s: points %d and %d meet %d times", d.name, a, b, meet[a][b])
				case a != b && meet[a][b] == 0:
					never++
				}
			}
			if never != tt.groupSize-1 {
				t.Errorf("%s: point %d never meets %d others, want %d (its group)", d.name, a, never, tt.groupSize-1)
			}
		}
		for i, g := range d.group {
			for _, h := range d.group[i+1:] {
				if meet[g][h] != 0 {
					t.Errorf("%s: group points %d and %d meet", d.name, g, h)
				}
			}
			for p := range d.points {
				if meet[g][p] == 0 && !slices.Contains(d.group, p) {
					t.Errorf("%s: group point %d never meets %d", d.name, g, p)
				}
			}
		}
	}
	if gdd3(13) != nil || gdd2(23) != nil {
		t.Error("gdd3(13) or gdd2(23) built a design that is not constructed here")
	}
}

func containsAny(blk, set []int) bool {
	for _, p := range blk {
		if slices.Contains(set, p) {
			return true
		}
	}
	return false
}

// TestBalancedOrder checks the order of rounds for a design minus a group:
// after every round the counts of tables of 3 differ by at most one.
func TestBalancedOrder(t *testing.T) {
	t.Parallel()
	for _, d := range []*design{gdd2(22), gdd2to16(), develop24(), gdd3(12), gdd3(16), gdd3(20), gdd2(28)} {
		order := balancedOrder(d, d.group, len(d.rounds))
		count := make([]int, d.points)
		for _, w := range order {
			for _, blk := range d.rounds[w] {
				if containsAny(blk, d.group) {
					for _, p := range blk {
						count[p]++
					}
				}
			}
			lo, hi := len(d.rounds), 0
			for p, c := range count {
				if !slices.Contains(d.group, p) {
					lo, hi = min(lo, c), max(hi, c)
				}
			}
			if hi-lo > 1 {
				t.Fatalf("%s minus a group: tables of 3 spread %d after %d rounds", d.name, hi-lo, len(order))
			}
		}
		t.Logf("%s minus a group: %d of %d rounds in a fair order", d.name, len(order), len(d.rounds))
	}
	for _, d := range []*design{gdd2(22), gdd3(12), gdd3(20)} {
		if got := len(balancedOrder(d, d.group, len(d.rounds))); got != len(d.rounds) {
			t.Errorf("%s minus a group: a fair order of %d rounds, want all %d", d.name, got, len(d.rounds))
		}
	}
}
