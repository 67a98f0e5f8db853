package engine

// award adds points to a seat's score in scoring order, applying the floor,
// quads_reset_opponents and royal_instant_win. Awards of 0 points are not
// listed.
func (c *checker) award(seat int, source string, points int, cat Category, withCat bool) {
	if points == 0 {
		return
	}
	a := Award{Player: c.players[seat], Source: source, Points: points}
	if withCat {
		a.Category = cat.String()
	}
	if c.awards == nil {
		c.awards = make([]Award, 0, 6)
	}
	c.awards = append(c.awards, a)
	s := c.score[seat] + points
	if s < 0 && !c.r.NegativeScores {
		s = 0
	}
	c.score[seat] = s
	if cat == FourOfAKind && c.r.QuadsResetOpponents {
		for o := 0; o < c.n; o++ {
			if o != seat {
				c.score[o] = 0
			}
		}
	}
	if cat == RoyalStraightFlush && c.r.RoyalInstantWin {
		c.royal[seat] = true
	}
}

// end decides whether the game is over after a deal with the current
// scores, and who won. won: players who have won a Chicago in the game;
// forfeit: players who forfeited; royal: players who won at once with a
// royal straight flush.
func (c *checker) end(won, forfeit, royal [maxSeats]bool) (bool, []string) {
	winners := []string{}
	for s := 0; s < c.n; s++ {
		if royal[s] && !forfeit[s] {
			winners = append(winners, c.players[s])
		}
	}
	if len(winners) > 0 {
		return true, winners
	}
	// The game is over when anyone has reached the target (forfeiters
	// too), unless win_requires_chicago waits for a Chicago winner. When
	// every player has forfeited nobody can win, and nothing is waited for:
	// the game is over without a winner.
	reached, eligible, everyoneForfeited := false, false, true
	for s := 0; s < c.n; s++ {
		reached = reached || c.score[s] >= c.r.Target
		eligible = eligible || (!forfeit[s] && (won[s] || !c.r.WinRequiresChicago))
		everyoneForfeited = everyoneForfeited && forfeit[s]
	}
	if !reached || !eligible && !everyoneForfeited {
		return false, winners
	}
	top := 0
	first := true
	for s := 0; s < c.n; s++ {
		if !forfeit[s] && (won[s] || !c.r.WinRequiresChicago) && (first || c.score[s] > top) {
			top, first = c.score[s], false
		}
	}
	for s := 0; s < c.n; s++ {
		if !forfeit[s] && (won[s] || !c.r.WinRequiresChicago) && c.score[s] == top {
			winners = append(winners, c.players[s])
		}
	}
	return true, winners
}
