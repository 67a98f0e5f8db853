package sim_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/sim"
)

// replay returns each player's hand after each exchange round of a valid
// record: hands[round][player].
func replay(d *engine.DealRecord) [3]map[string][]engine.Card {
	var out [3]map[string][]engine.Card
	cur := map[string][]engine.Card{}
	for p, h := range d.Hands {
		cur[p] = slices.Clone(h)
	}
	for r, round := range d.Exchanges {
		for _, x := range round {
			h := slices.DeleteFunc(cur[x.Player], func(c engine.Card) bool { return slices.Contains(x.Discard, c) })
			cur[x.Player] = append(h, x.Draw...)
		}
		out[r] = map[string][]engine.Card{}
		for p, h := range cur {
			out[r][p] = slices.Clone(h)
		}
	}
	return out
}

// expectedViolations works out from the record alone which violations the
// rules say happened, as "code path player" strings.
func expectedViolations(d *engine.DealRecord) []string {
	var want []string
	hands := replay(d)
	add := func(code, path, player string) { want = append(want, code+" "+path+" "+player) }
	before := func(r int) map[string][]engine.Card {
		if r == 0 {
			return d.Hands
		}
		return hands[r-1]
	}
	for r, round := range d.Exchanges {
		for i, x := range round {
			if len(x.Discard) > 0 && d.Scores[x.Player] >= d.Rules.ExchangeStop.Value && !d.Rules.ExchangeStop.Null {
				add("exchange_after_stop", fmt.Sprintf("/exchanges/%d/%d", r, i), x.Player)
			}
			if r == 0 || len(x.Show) > 0 || !d.Rules.ShowOnBreak {
				continue
			}
			cat := mustShow(d.Announcements[r-1], before(r))[x.Player]
			kept := slices.DeleteFunc(slices.Clone(before(r)[x.Player]), func(c engine.Card) bool { return slices.Contains(x.Discard, c) })
			if cat != engine.HighCard && engine.CategoryOf(kept) < cat {
				add("unshown_break", fmt.Sprintf("/exchanges/%d/%d", r, i), x.Player)
			}
		}
		if r < 2 {
			for i, a := range d.Announcements[r] {
				if c, _ := engine.ParseCategory(a.Announce); a.Announce != "" && engine.CategoryOf(hands[r][a.Player]) < c {
					add("false_announcement", fmt.Sprintf("/announcements/%d/%d", r, i), a.Player)
				}
			}
		}
	}
	held := hands[2]
	for t, trick := range d.Tricks {
		led := trick[0].Card.Suit()
		for j, pl := range trick {
			h := held[pl.Player]
			if pl.Card.Suit() != led && slices.ContainsFunc(h, func(c engine.Card) bool { return c.Suit() == led }) {
				add("revoke", fmt.Sprintf("/tricks/%d/%d", t, j), pl.Player)
			}
			held[pl.Player] = slices.DeleteFunc(h, func(c engine.Card) bool { return c == pl.Card })
		}
	}
	return want
}

// mustShow returns the category each player must show before breaking it:
// the highest announcement of the phase, for those who announced it and
// hold it.
func mustShow(phase []engine.Announcement, hands map[string][]engine.Card) map[string]engine.Category {
	highest := engine.HighCard
	for _, a := range phase {
		if c, ok := engine.ParseCategory(a.Announce); ok && c > highest {
			highest = c
		}
	}
	out := map[string]engine.Category{}
	for _, a := range phase {
		if c, ok := engine.ParseCategory(a.Announce); ok && c == highest && engine.CategoryOf(hands[a.Player]) >= c {
			out[a.Player] = c
		}
	}
	return out
}

func TestSimulatedViolations(t *testing.T) {
	t.Parallel()
	tests := []struct {
		code string
		opt  func(*sim.Options)
	}{
		{"revoke", func(o *sim.Options) { o.Revoke = 0.3 }},
		{"false_announcement", func(o *sim.Options) { o.Bluff = 0.2 }},
		{"unshown_break", func(o *sim.Options) { o.UnshownBreak = 0.7 }},
		{"exchange_after_stop", func(o *sim.Options) { o.ExchangeAfterStop = 0.7 }},
	}
	for _, tt := range tests {
		opt := sim.DefaultOptions()
		tt.opt(&opt)
		found := 0
		for seed := uint64(1); seed <= 150; seed++ {
			s := sim.NewWithOptions(seed, engine.SM(), opt)
			players := sim.Players(3 + int(seed%2))
			d := s.Deal(players, players[0], s.Scores(players, 60))
			res := engine.CheckDeal(d)
			if !res.Valid {
				t.Fatalf("%s seed %d: CheckDeal = invalid %+v", tt.code, seed, res.Errors)
			}
			checkAwards(t, tt.code, seed, engine.SM(), d, res)
			var got []string
			for _, v := range res.Violations {
				got = append(got, v.Code+" "+v.Path+" "+v.Player)
				if v.Code == tt.code {
					found++
				} else {
					t.Errorf("%s seed %d: unexpected violation %+v", tt.code, seed, v)
				}
			}
			slices.Sort(got)
			want := expectedViolations(d)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s seed %d: violations %q, want %q", tt.code, seed, got, want)
			}
		}
		if found < 5 {
			t.Errorf("%s: only %d violations in 150 deals; the option does not work", tt.code, found)
		}
	}
}

func TestBluffForfeitsTheGame(t *testing.T) {
	t.Parallel()
	opt := sim.DefaultOptions()
	opt.Bluff = 0.02
	forfeits := 0
	for seed := uint64(1); seed <= 10; seed++ {
		s := sim.NewWithOptions(seed, engine.SM(), opt)
		players := sim.Players(4)
		g := s.Game(players, "p2")
		res := engine.CheckGame(g, engine.GameOptions{})
		if !res.Valid {
			t.Fatalf("seed %d: CheckGame invalid %+v", seed, res.Errors)
		}
		var bluffers []string
		for _, v := range res.Violations {
			if v.Code == "false_announcement" && !slices.Contains(bluffers, v.Player) {
				bluffers = append(bluffers, v.Player)
			}
		}
		slices.SortFunc(bluffers, func(a, b string) int { return slices.Index(players, a) - slices.Index(players, b) })
		if !slices.Equal(res.Forfeits, bluffers) {
			t.Errorf("seed %d: forfeits %v, want the bluffers %v", seed, res.Forfeits, bluffers)
		}
		forfeits += len(res.Forfeits)
		checkPlacements(t, "bluff", seed, res)
		for i, pl := range res.Placements {
			if slices.Contains(res.Forfeits, pl.Player) != (i >= len(players)-len(res.Forfeits)) {
				t.Errorf("seed %d: placements %+v, forfeits %v: forfeiters must be last", seed, res.Placements, res.Forfeits)
			}
			if slices.Contains(res.Winners, pl.Player) && slices.Contains(res.Forfeits, pl.Player) {
				t.Errorf("seed %d: forfeiter %s wins", seed, pl.Player)
			}
		}
	}
	if forfeits == 0 {
		t.Errorf("no forfeits in 10 games with bluffing")
	}
}
