package sim_test

import (
	"testing"

	"github.com/revisor-sm/revisor/engine"
)

// checkAwards recomputes from a valid record, independently of the engine,
// who scores each source: the phases (highest announcement, holders first,
// then the better hand), the last trick or the Chicago, and the final hand.
func checkAwards(t *testing.T, name string, seed uint64, r engine.Rules, d *engine.DealRecord, res *engine.DealResult) {
	t.Helper()
	want := map[string]engine.Award{} // by source
	unknown := map[string]bool{}      // ties a suit order breaks: not checked here
	hands := replay(d)
	for p, phase := range d.Announcements {
		src := []string{engine.SourceHand1, engine.SourceHand2}[p]
		a, ok, tie := phaseAward(r, phase, hands[p])
		unknown[src] = tie && r.SuitOrder != engine.SuitOrderNone
		if ok {
			a.Source = src
			want[src] = a
		}
	}
	lost, last := false, ""
	for _, trick := range d.Tricks {
		last = trickWinner(trick)
		lost = lost || d.Chicago != "" && last != d.Chicago
	}
	switch {
	case lost:
		want[engine.SourceChicago] = engine.Award{Player: d.Chicago, Source: engine.SourceChicago, Points: -r.ChicagoPoints}
	case d.Chicago != "":
		want[engine.SourceChicago] = engine.Award{Player: d.Chicago, Source: engine.SourceChicago, Points: r.ChicagoPoints}
		if r.ChicagoStacksLastTrick {
			want[engine.SourceLastTrick] = engine.Award{Player: last, Source: engine.SourceLastTrick, Points: r.LastTrickPoints}
		}
	default:
		want[engine.SourceLastTrick] = engine.Award{Player: last, Source: engine.SourceLastTrick, Points: r.LastTrickPoints}
	}
	if !lost {
		a, ok, tie := showdownAward(r, d)
		unknown[engine.SourceHand3] = tie && r.SuitOrder != engine.SuitOrderNone
		if ok {
			want[engine.SourceHand3] = a
		}
	}
	got := map[string]engine.Award{}
	for _, a := range res.Awards {
		got[a.Source] = a
	}
	for src, w := range want {
		if w.Points == 0 {
			delete(want, src) // awards of 0 points are not listed
		}
	}
	for _, src := range []string{engine.SourceHand1, engine.SourceHand2, engine.SourceLastTrick, engine.SourceChicago, engine.SourceHand3} {
		g, w := got[src], want[src]
		if unknown[src] {
			continue
		}
		if g.Player != w.Player || g.Points != w.Points || g.Category != w.Category {
			t.Errorf("%s seed %d: %s award %+v, want %+v", name, seed, src, g, w)
		}
	}
}

// phaseAward: the highest announcement scores; among equal ones a holder
// beats a non-holder, then the better hand. An exact tie at the top gives
// ok false and tie true (nobody scores without a suit order).
func phaseAward(r engine.Rules, phase []engine.Announcement, hands map[string][]engine.Card) (a engine.Award, ok, tie bool) {
	highest := engine.HighCard
	for _, a := range phase {
		if c, ok := engine.ParseCategory(a.Announce); ok && c > highest {
			highest = c
		}
	}
	if highest == engine.HighCard {
		return engine.Award{}, false, false
	}
	best, bestHolds := "", false
	for _, a := range phase {
		if c, _ := engine.ParseCategory(a.Announce); a.Announce == "" || c != highest {
			continue
		}
		holds := engine.CategoryOf(hands[a.Player]) >= highest
		if best == "" || holds && !bestHolds {
			best, bestHolds, tie = a.Player, holds, false
			continue
		}
		if holds != bestHolds {
			continue
		}
		switch engine.Compare([5]engine.Card(hands[a.Player]), [5]engine.Card(hands[best])) {
		case 1:
			best, tie = a.Player, false
		case 0:
			tie = true
		}
	}
	if tie {
		return engine.Award{}, false, true
	}
	return engine.Award{Player: best, Points: r.Points(highest), Category: highest.String()}, true, false
}

// showdownAward: the best five played cards score their category; an exact
// tie gives ok false and tie true.
func showdownAward(r engine.Rules, d *engine.DealRecord) (a engine.Award, ok, tie bool) {
	played := map[string][]engine.Card{}
	for _, trick := range d.Tricks {
		for _, pl := range trick {
			played[pl.Player] = append(played[pl.Player], pl.Card)
		}
	}
	best := ""
	for _, p := range d.Players {
		if best == "" {
			best = p
			continue
		}
		switch engine.Compare([5]engine.Card(played[p]), [5]engine.Card(played[best])) {
		case 1:
			best, tie = p, false
		case 0:
			tie = true
		}
	}
	cat := engine.CategoryOf(played[best])
	if tie || cat == engine.HighCard {
		return engine.Award{}, false, tie
	}
	return engine.Award{Player: best, Points: r.Points(cat), Category: cat.String()}, true, false
}
