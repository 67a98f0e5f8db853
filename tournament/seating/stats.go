package seating

// Repeats returns the number of repeated meetings in rounds of n players:
// the sum over all pairs of max(0, meetings-1), the benchmark's metric.
func Repeats(n int, rounds []Seating) int {
	meet := newMeetings(n)
	total := 0
	for _, r := range rounds {
		for _, t := range r.Tables {
			ps := t.Players()
			for i, a := range ps {
				for _, b := range ps[i+1:] {
					if meet.get(a, b) >= 1 {
						total++
					}
					meet.add(a, b, 1)
				}
			}
		}
	}
	return total
}

// SeatSpread returns the largest difference, over players, between the
// player's most-used and least-used seat (seats 1 to 4) in rounds of n
// players. A spread of at most one means seats are spread evenly.
func SeatSpread(n int, rounds []Seating) int {
	counts := make([][4]int, n)
	for _, r := range rounds {
		for _, t := range r.Tables {
			for s, p := range t.Seats {
				if p != Empty {
					counts[p][s]++
				}
			}
		}
	}
	worst := 0
	for _, c := range counts {
		lo, hi := c[0], c[0]
		for _, v := range c[1:] {
			lo, hi = min(lo, v), max(hi, v)
		}
		worst = max(worst, hi-lo)
	}
	return worst
}

// LowerBound returns a counting lower bound on the repeats of any seating
// of n players over the given number of rounds (0 when n cannot be split).
//
// A player who sits at tables of 3 in j of r rounds meets 3r-j opponents
// counted with multiplicity, but only n-1 distinct ones, so at least
// 3r-j-(n-1) of those meetings repeat a pair. Every repeated pair is seen
// from both its players, so repeats >= (sum over players of
// max(0, 3r-j-(n-1)))/2. The sum is convex in j and the seats at tables of 3
// are fixed in number, so it is smallest when they are spread evenly; the
// bound uses that spread and therefore holds for every seating. It is never
// below the pair count bound max(0, meetings - n(n-1)/2).
func LowerBound(n, rounds int) int {
	sizes, err := SplitTables(n)
	if err != nil || rounds <= 0 {
		return 0
	}
	threes := 0
	for _, s := range sizes {
		if s == 3 {
			threes += 3
		}
	}
	slots := threes * rounds
	q, rem := slots/n, slots%n
	excess := func(j int) int { return max(0, 3*rounds-j-(n-1)) }
	sum := (n-rem)*excess(q) + rem*excess(q+1)
	return (sum + 1) / 2
}
