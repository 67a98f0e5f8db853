package seating

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"
)

// Options tune Plan.
type Options struct {
	// Mode is Mixed or ByStandings (players numbered by a fixed standing,
	// player 0 best); Draw plans like Mixed.
	Mode Mode
	// Seed makes the schedule reproducible.
	Seed uint64
	// Budget caps the time spent; zero means DefaultBudget.
	Budget time.Duration
	// Now reads the clock for the budget; nil means time.Now.
	Now func() time.Time
	// Work overrides the search's bound, in evaluated swaps, when
	// positive. The default, DefaultWork, takes about a second on a
	// 2020s laptop core.
	Work int
	// Steps, when positive, replays a schedule the clock cut short: the
	// search stops after that many iterations (Schedule.Steps) and never
	// reads the clock, so it gives the same rounds.
	Steps int
	// Replay marks a replay of a published schedule: the search never
	// reads the clock, stopping at Steps when positive, else at its work
	// bound (see Params.Replay).
	Replay bool
	cut    *cut // Round's, when it follows a plan
}

// Schedule is a whole seating plan: every round of the players 0..n-1.
type Schedule struct {
	Players int
	Rounds  []Seating
	// Repeats is the number of repeated meetings (see Repeats).
	Repeats int
	// SeatSpread is the worst player's seat spread (see SeatSpread).
	SeatSpread int
	// LowerBound is the counting lower bound on Repeats.
	LowerBound int
	// Method names the construction the schedule started from, or
	// "greedy" when none applies; later rounds come from search.
	Method string
	// TimedOut reports that the budget (or Options.Steps) cut the search
	// short; Steps is then the iterations it ran, which Options.Steps
	// replays.
	TimedOut bool
	Steps    int
}

// Plan seats n players over the given number of rounds in one go.
func Plan(n, rounds int, opt Options) (*Schedule, error) {
	sizes, err := SplitTables(n)
	if err != nil {
		return nil, err
	}
	if rounds < 1 {
		return nil, fmt.Errorf("seating: %d rounds, want at least 1", rounds)
	}
	rng := newRNG(opt.Seed)
	model := costModel{repW: 1}
	if opt.Mode == ByStandings {
		model.rank = make([]int, n)
		for i := range model.rank {
			model.rank[i] = i
		}
		model.repW = n
	}
	s := newSearch(n, sizes, model, rng, meetings{}, nil)
	method := "greedy"
	var tab [][]int
	if p := findDesign(n, rounds); p != nil && opt.Mode != ByStandings {
		method, tab = p.d.name, designRounds(p, n, sizes, rounds, rng)
	}
	tab = s.extend(tab, rounds)
	bound := LowerBound(n, rounds)
	lim := planLimits(n, rounds, opt)
	lim.target = model.repW * bound
	if model.rank != nil {
		lim.target += rounds * (n - len(sizes))
	}
	timedOut := s.run(lim)
	sched := &Schedule{Players: n, LowerBound: bound, Method: method, TimedOut: timedOut, Steps: lim.cut.at}
	for _, r := range colorSeats(n, sizes, s.tab, rng) {
		sched.Rounds = append(sched.Rounds, Seating{Tables: r})
	}
	sched.Repeats = Repeats(n, sched.Rounds)
	sched.SeatSpread = SeatSpread(n, sched.Rounds)
	return sched, nil
}

// planLimits bounds the search for a whole schedule.
func planLimits(n, rounds int, opt Options) limits {
	work := opt.Work
	if work <= 0 {
		work = DefaultWork
	}
	c := opt.cut
	if c == nil {
		c = &cut{replay: opt.Steps, noClock: opt.Replay || opt.Steps > 0}
	}
	lim := limits{work: work, stall: 400 + 20*n, cut: c}
	lim.deadline, lim.now = c.clock(opt.Budget, opt.Now)
	return lim
}

// DefaultWork is Plan's default search bound in evaluated swaps.
const DefaultWork = 12_000_000

// designRounds maps the first rounds of a fitted design onto players
// 0..n-1 at random, leaving its dropped points empty (one random point
// when the design has n+1 points and drops none by name), and orders each
// round's tables to match sizes (tables of 4 first).
func designRounds(p *designPlan, n int, sizes []int, rounds int, rng *rand.Rand) [][]int {
	d := p.d
	var label []int // label[point] = player; labels n and above are empty
	if p.drop == nil {
		label = rng.Perm(d.points)
	} else {
		label = make([]int, d.points)
		perm, next, empty := rng.Perm(n), 0, n
		for pt := range label {
			if slices.Contains(p.drop, pt) {
				label[pt], empty = empty, empty+1
			} else {
				label[pt], next = perm[next], next+1
			}
		}
	}
	var tab [][]int
	for _, w := range p.order[:min(rounds, len(p.order))] {
		row := make([]int, n)
		four, three := 0, len(sizes)
		for t := range sizes {
			if sizes[t] == 3 {
				three = t
				break
			}
		}
		for _, blk := range d.rounds[w] {
			t := four
			if slices.ContainsFunc(blk, func(pt int) bool { return label[pt] >= n }) {
				t = three
				three++
			} else {
				four++
			}
			for _, pt := range blk {
				if p := label[pt]; p < n {
					row[p] = t
				}
			}
		}
		tab = append(tab, row)
	}
	return tab
}
