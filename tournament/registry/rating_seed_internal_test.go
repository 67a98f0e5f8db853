package registry

import (
	"fmt"
	"testing"
)

// TestRatingPots: ten players make three tables, so pots of three (the
// last player alone constrains nothing); four or fewer make one table.
func TestRatingPots(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n    int
		want string
	}{
		{10, "[[p1 p2 p3] [p4 p5 p6] [p7 p8 p9]]"},
		{8, "[[p1 p2] [p3 p4] [p5 p6] [p7 p8]]"},
		{4, "[]"},
		{0, "[]"},
	} {
		var order []string
		for i := range tc.n {
			order = append(order, fmt.Sprintf("p%d", i+1))
		}
		if got := fmt.Sprint(ratingPots(order)); got != tc.want {
			t.Errorf("ratingPots(%d players) = %s, want %s", tc.n, got, tc.want)
		}
	}
}
