package seating

import (
	"fmt"
	"maps"
	"slices"
)

// Constraints are an organizer's requirements for a round, honoured by the
// same search that avoids repeat meetings. The zero value asks for nothing.
// Player ids that are not among Params.Players (withdrawn, eliminated) are
// ignored, so a tournament can keep one list for all its rounds.
type Constraints struct {
	// Fixed gives players who keep one table every round (for example a
	// wheelchair user at table 1): the table number, from 1, in the order
	// of Seating.Tables (tables of 4 first). A fixed player is never moved;
	// the others are seated around them. A number past the round's tables,
	// or more fixed players than a table seats, is a *ConstraintError.
	Fixed map[string]int
	// Apart lists groups of players no two of whom should sit at one table
	// (for example each club in the first round). Every pair of one group
	// at one table costs more than any number of repeat meetings a swap can
	// change, so it is kept whenever the search finds a way; a group with
	// more players than there are tables cannot be kept apart entirely.
	Apart [][]string
	// Partners seats each table of 4 as two partnerships, seats 1 and 3
	// against seats 2 and 4 (Chicago bridge), and counts the partnerships
	// of History the same way. A pair who partnered before is made partners
	// again only where the search finds no way around it (it weighs more
	// than seats and repeat meetings); among tables as good, seats are
	// spread as without partnerships. Tables of 3 have no partnerships.
	Partners bool
}

// ConstraintError reports constraints that no seating can meet.
type ConstraintError struct {
	Player string // the player concerned, "" when a table is concerned
	Table  int    // the table number concerned, from 1
	Reason string
}

// Error says what is wrong in the organizer's words.
func (e *ConstraintError) Error() string {
	if e.Player != "" {
		return fmt.Sprintf("player %s cannot keep table %d: %s", e.Player, e.Table, e.Reason)
	}
	return fmt.Sprintf("table %d: %s", e.Table, e.Reason)
}

// The weights of broken constraints in the search's objective, in units of
// one repeat meeting: above the seat penalties, which weigh 12 repeats per
// round played (Round), and any change of meetings a swap can make.
const (
	apartWeight   = 1 << 24
	partnerWeight = 1 << 16
)

// constraints are Constraints by player index.
type constraints struct {
	fixed     []int     // fixed[p]: p's table, -1 when free
	fixedAt   []bool    // fixedAt[t]: table t holds a fixed player
	groups    [][]int32 // groups[p]: the Apart groups p is in
	partners  bool
	partnered meetings // pairs who partnered in history
}

// readConstraints turns c into indices for n players seated at tables of
// the given sizes, reading earlier partnerships from past. It returns nil
// when c asks for nothing.
func readConstraints(c Constraints, index map[string]int, sizes []int, past []Past) (*constraints, error) {
	if len(c.Fixed) == 0 && len(c.Apart) == 0 && !c.Partners {
		return nil, nil
	}
	n := len(index)
	k := &constraints{fixed: make([]int, n), fixedAt: make([]bool, len(sizes)), groups: make([][]int32, n), partners: c.Partners}
	for p := range k.fixed {
		k.fixed[p] = -1
	}
	seated := make([]int, len(sizes))
	for _, id := range slices.Sorted(maps.Keys(c.Fixed)) {
		p, ok := index[id]
		if !ok {
			continue
		}
		t := c.Fixed[id]
		if t < 1 || t > len(sizes) {
			return nil, &ConstraintError{Player: id, Table: t, Reason: fmt.Sprintf("the round has tables 1 to %d", len(sizes))}
		}
		if seated[t-1]++; seated[t-1] > sizes[t-1] {
			return nil, &ConstraintError{Table: t, Reason: fmt.Sprintf("more players are fixed to it than its %d seats", sizes[t-1])}
		}
		k.fixed[p], k.fixedAt[t-1] = t-1, true
	}
	for g, ids := range c.Apart {
		for _, id := range ids {
			if p, ok := index[id]; ok && !slices.Contains(k.groups[p], int32(g)) {
				k.groups[p] = append(k.groups[p], int32(g))
			}
		}
	}
	if c.Partners {
		k.partnered = readPartners(n, index, past)
	}
	return k, nil
}

// readPartners counts the partnerships of earlier rounds: at a table of 4,
// seats 1 and 3, and seats 2 and 4.
func readPartners(n int, index map[string]int, past []Past) meetings {
	m := newMeetings(n)
	for _, round := range past {
		for _, table := range round {
			if slices.Contains(table[:], "") {
				continue
			}
			for _, pair := range [2][2]int{{0, 2}, {1, 3}} {
				a, okA := index[table[pair[0]]]
				b, okB := index[table[pair[1]]]
				if okA && okB {
					m.add(a, b, 1)
				}
			}
		}
	}
	return m
}

// apart counts of a and b's common Apart groups.
func (k *constraints) apart(a, b int) int {
	c := 0
	for _, g := range k.groups[a] {
		if slices.Contains(k.groups[b], g) {
			c++
		}
	}
	return c
}

// tableCost is what a table's players cost in broken constraints, with
// player out replaced by in (out = -1: no replacement).
func (k *constraints) tableCost(ps []int, out, in int) int {
	var buf [4]int
	q := buf[:0]
	for _, p := range ps {
		if p == out {
			p = in
		}
		q = append(q, p)
	}
	c := 0
	for i, a := range q {
		for _, b := range q[i+1:] {
			c += apartWeight * k.apart(a, b)
		}
	}
	if k.partners && len(q) == 4 {
		c += partnerWeight * k.pairingCost(q, k.bestPairing(q))
	}
	return c
}

// pairings are the three ways to split a table of 4 into two
// partnerships, as positions in the table's player list.
var pairings = [3][4]int{{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 3, 1, 2}}

// pairingCost is how often the partnerships of pairing i partnered before.
func (k *constraints) pairingCost(q []int, i int) int {
	pr := pairings[i]
	return int(k.partnered.get(q[pr[0]], q[pr[1]]) + k.partnered.get(q[pr[2]], q[pr[3]]))
}

// bestPairing is the pairing whose partners partnered least before, the
// first of equals.
func (k *constraints) bestPairing(q []int) int {
	best := 0
	for i := 1; i < 3; i++ {
		if k.pairingCost(q, i) < k.pairingCost(q, best) {
			best = i
		}
	}
	return best
}

// movable reports whether p may change tables.
func (k *constraints) movable(p int) bool { return k == nil || k.fixed[p] < 0 }

// broken counts, in a seated round, the pairs of one Apart group at one
// table and the partnerships (seats 1 and 3, 2 and 4) that partnered
// before.
func (k *constraints) broken(tables []Table) (together, again int) {
	if k == nil {
		return 0, 0
	}
	for _, t := range tables {
		ps := t.Players()
		for i, a := range ps {
			for _, b := range ps[i+1:] {
				if k.apart(a, b) > 0 {
					together++
				}
			}
		}
		if k.partners && len(ps) == 4 {
			again += int(min(1, k.partnered.get(t.Seats[0], t.Seats[2])) + min(1, k.partnered.get(t.Seats[1], t.Seats[3])))
		}
	}
	return together, again
}
