// The points each poker category scores under the Chicago-SM rules.

package engine_test

import (
	"testing"

	"github.com/revisor-sm/revisor/engine"
)

func TestHandPoints(t *testing.T) {
	t.Parallel()
	r := engine.SM()
	want := map[engine.Category]int{engine.HighCard: 0, engine.Pair: 1, engine.TwoPair: 2, engine.ThreeOfAKind: 3,
		engine.Straight: 4, engine.Flush: 5, engine.FullHouse: 6, engine.FourOfAKind: 7, engine.StraightFlush: 8,
		engine.RoyalStraightFlush: 52}
	for c, w := range want {
		if got := r.Points(c); got != w {
			t.Errorf("SM().Points(%v) = %d, want %d", c, got, w)
		}
	}
}
