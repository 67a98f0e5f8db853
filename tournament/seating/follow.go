package seating

import (
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
)

// followPlan returns round len(p.History)+1 of a whole-tournament plan
// (Plan) for p.Players when p.Rounds says how many rounds the tournament
// has, the mode is Mixed, and every earlier round seated exactly these
// players at the plan's tables. The plan's seed comes from the player
// ids, the round count and p.PlanSeed, so every round of the tournament
// recomputes the same plan. ok is false when the plan does not apply; the caller then
// seats the round on its own.
func followPlan(p Params, index map[string]int, h history, c *cut) (res *Result, ok bool) {
	k, n := len(p.History), len(p.Players)
	if p.Mode != Mixed || p.Rounds <= k || n > maxPlanned {
		return nil, false
	}
	canon := slices.Sorted(maps.Keys(index))
	sched, err := Plan(n, p.Rounds, Options{Seed: planSeed(canon, p.Rounds, p.PlanSeed), Budget: p.Budget, Now: p.Now, cut: c})
	if err != nil || sched.TimedOut {
		return nil, false // a plan cut short by the clock may differ next round (c records the cut)
	}
	cidx := make(map[string]int, n)
	for c, id := range canon {
		cidx[id] = c
	}
	for w, past := range p.History {
		if !samePartition(past, sched.Rounds[w], cidx) {
			return nil, false
		}
	}
	res = &Result{}
	for _, t := range sched.Rounds[k].Tables {
		for s, c := range t.Seats {
			if c != Empty {
				t.Seats[s] = index[canon[c]]
			}
		}
		res.Tables = append(res.Tables, t)
	}
	res.Repeats = countMet(res.Tables, h.meet)
	return res, true
}

// maxPlanned is the largest field Round seats from a plan: the plan is
// recomputed at every round, so it must stay quick.
const maxPlanned = 100

// planSeed derives the seed of a tournament's plan from its players' ids
// (sorted), its number of rounds and the caller's plan seed.
func planSeed(sortedIDs []string, rounds int, seed uint64) uint64 {
	f := fnv.New64a()
	for _, id := range sortedIDs {
		f.Write([]byte(id))
		f.Write([]byte{0})
	}
	fmt.Fprint(f, rounds, " ", seed)
	return f.Sum64()
}

// samePartition reports whether a past round seated exactly the players of
// cidx, grouped as the plan's round groups them.
func samePartition(past Past, round Seating, cidx map[string]int) bool {
	tableOf := make([]int, len(cidx))
	for t, tb := range round.Tables {
		for _, c := range tb.Players() {
			tableOf[c] = t
		}
	}
	seated := 0
	for _, tb := range past {
		first, count := -1, 0
		for _, id := range tb {
			if id == "" {
				continue
			}
			c, ok := cidx[id]
			if !ok || (first >= 0 && tableOf[c] != first) {
				return false
			}
			first, count = tableOf[c], count+1
		}
		if count > 0 && count != len(round.Tables[first].Players()) {
			return false
		}
		seated += count
	}
	return seated == len(cidx)
}

// countMet counts the pairs at the tables who met before.
func countMet(tables []Table, meet meetings) int {
	c := 0
	for _, t := range tables {
		ps := t.Players()
		for i, a := range ps {
			for _, b := range ps[i+1:] {
				if meet.get(a, b) > 0 {
					c++
				}
			}
		}
	}
	return c
}
