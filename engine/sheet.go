package engine

// sheetSources are the sources of a sheet line in scoring order (read-only).
var sheetSources = [5]string{SourceHand1, SourceHand2, SourceLastTrick, SourceChicago, SourceHand3}

const (
	srcHand1 = iota
	srcHand2
	srcLastTrick
	srcChicago
	srcHand3
)

// sheet checks a score-sheet line as far as points can show the rules, and
// scores it.
func (c *checker) sheet(s Sheet) {
	var pts [maxSeats][5]int
	var by [5]int // the seat that scored each source, or -1
	for i := range by {
		by[i] = -1
	}
	known := 0
	for seat, p := range c.players {
		line, ok := s[p]
		if !ok {
			continue
		}
		known++
		c.sheetLine(seat, line, &pts, &by)
	}
	if known < len(s) {
		c.unknownKeys(sortedKeys(s), PartSheet)
	}
	c.sheetStructure(&pts, &by)
	c.scoreSheet(&pts, &by)
}

// sheetLine reads one player's sources.
func (c *checker) sheetLine(seat int, line map[string]int, pts *[maxSeats][5]int, by *[5]int) {
	p := c.players[seat]
	found := 0
	for i, src := range sheetSources {
		v, ok := line[src]
		if !ok {
			continue
		}
		found++
		if v == 0 {
			continue
		}
		if by[i] >= 0 {
			c.fail("source_scored_twice", c.sheetLoc(seat, i), p, "%s is already scored by %s", src, c.players[by[i]])
			continue
		}
		if !c.validPoints(i, v) {
			c.fail("invalid_points", c.sheetLoc(seat, i), p, "%d points is not a possible %s score", v, src)
		}
		by[i] = seat
		pts[seat][i] = v
	}
	if found < len(line) {
		for _, k := range sortedKeys(line) {
			if sourceIndex(k) < 0 {
				c.fail("unknown_source", Location{Part: PartSheet}.withPlayer(p).withMember(k), p,
					"unknown source %q (want hand1, hand2, last_trick, chicago, hand3)", k)
			}
		}
	}
}

func sourceIndex(s string) int {
	for i, src := range sheetSources {
		if src == s {
			return i
		}
	}
	return -1
}

// validPoints reports whether v can be scored from source i.
func (c *checker) validPoints(i, v int) bool {
	switch i {
	case srcLastTrick:
		return v == c.r.LastTrickPoints
	case srcChicago:
		return v == c.r.ChicagoPoints || v == -c.r.ChicagoPoints
	}
	return c.pointsUsed(v)
}

// pointsUsed reports whether some category is worth v points.
func (c *checker) pointsUsed(v int) bool {
	for cat := Pair; cat <= RoyalStraightFlush; cat++ {
		if c.r.HandPoints[cat] == v {
			return true
		}
	}
	return false
}

// categoryFor returns the one category worth v points, or HighCard when
// none or several are.
func (c *checker) categoryFor(v int) Category {
	found := HighCard
	for cat := Pair; cat <= RoyalStraightFlush; cat++ {
		if c.r.HandPoints[cat] == v {
			if found != HighCard {
				return HighCard
			}
			found = cat
		}
	}
	return found
}

// sheetStructure checks last trick and Chicago: exactly one of them, and
// nothing scored after a lost Chicago.
func (c *checker) sheetStructure(pts *[maxSeats][5]int, by *[5]int) {
	lt, ch := by[srcLastTrick], by[srcChicago]
	switch {
	case ch < 0 && lt < 0:
		if c.r.LastTrickPoints != 0 {
			c.fail("missing_last_trick", Location{Part: PartSheet}, "", "nobody scored the last trick and there was no Chicago")
		}
	case ch >= 0 && pts[ch][srcChicago] < 0:
		if lt >= 0 {
			c.fail("scored_after_lost_chicago", c.sheetLoc(lt, srcLastTrick), c.players[lt],
				"the last trick is not scored after a lost Chicago")
		}
		if h := by[srcHand3]; h >= 0 {
			c.fail("scored_after_lost_chicago", c.sheetLoc(h, srcHand3), c.players[h],
				"the final hand is not scored after a lost Chicago")
		}
	case ch >= 0 && lt >= 0 && !(c.r.ChicagoStacksLastTrick && lt == ch):
		c.fail("chicago_and_last_trick", c.sheetLoc(lt, srcLastTrick), c.players[lt],
			"a deal scores the last trick or a Chicago, not both")
	case ch >= 0 && lt < 0 && c.r.ChicagoStacksLastTrick && c.r.LastTrickPoints != 0:
		c.fail("missing_last_trick", Location{Part: PartSheet}, "",
			"a won Chicago also scores the last trick under chicago_stacks_last_trick")
	}
}

func (c *checker) sheetLoc(seat, src int) Location {
	return Location{Part: PartSheet, Player: c.players[seat], Member: sheetSources[src]}
}

// scoreSheet awards the sources in order, checking that a Chicago was
// declared with enough points: the score after the phases, before a
// stacked last trick.
func (c *checker) scoreSheet(pts *[maxSeats][5]int, by *[5]int) {
	var declare [maxSeats]int // the scores when Chicago could be declared
	for i := range sheetSources {
		if i == srcLastTrick {
			declare = c.score
		}
		s := by[i]
		if s < 0 {
			continue
		}
		v := pts[s][i]
		cat := HighCard
		switch i {
		case srcChicago:
			if m := c.r.ChicagoMinScore; !m.Null && declare[s] < m.Value {
				c.fail("chicago_not_allowed", c.sheetLoc(s, srcChicago), c.players[s],
					"%s had %d points and may not declare Chicago (minimum %d)", c.players[s], declare[s], m.Value)
			}
			c.declarer = s
			c.chicagoWon = v > 0
		case srcHand1, srcHand2, srcHand3:
			cat = c.categoryFor(v)
		}
		c.award(s, sheetSources[i], v, cat, false)
	}
	c.ended = EndedComplete
	if ch := by[srcChicago]; ch >= 0 && pts[ch][srcChicago] < 0 {
		c.ended = EndedChicagoLost
	}
}
