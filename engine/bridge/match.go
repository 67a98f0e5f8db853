package bridge

// Match scores the deals of a Chicago or of a draw bridge rubber one after
// another: vulnerability, partscores carried to game, game, partscore and
// rubber bonuses, totals. It checks nothing (Check does); the tournament
// uses it to score deals entered one by one. Sides are 0 (ns, or the first
// player) and 1 (ew, or the second); seats are numbered from 0.
type Match struct {
	game     string
	names    []string
	sides    [2]string
	rules    Rules
	players  int
	dealer   int
	counted  int
	below    [2]int
	totals   [2]int
	games    [2]int
	complete bool
}

// NewMatch starts a match of game (GameChicago or GameDraw) between
// players (4 or 2 names in seat order) whose first dealer sits at seat
// firstDealer.
func NewMatch(game string, players []string, rules Rules, firstDealer int) Match {
	m := Match{game: game, names: players, rules: rules, players: seats(game), dealer: firstDealer}
	m.sides = SideNames(game, players)
	return m
}

// SideNames returns the names of a game's two sides: ns and ew in a
// Chicago, the players themselves in draw bridge.
func SideNames(game string, players []string) [2]string {
	if game == GameDraw && len(players) == 2 {
		return [2]string{players[0], players[1]}
	}
	return [2]string{"ns", "ew"}
}

// Dealer returns the seat of the next deal's dealer.
func (m *Match) Dealer() int { return m.dealer }

// Players returns the number of players at the table (4 or 2).
func (m *Match) Players() int { return m.players }

// Counted returns the number of deals played so far (passed-out deals do not
// count).
func (m *Match) Counted() int { return m.counted }

// Complete reports whether the match is over: four counted deals of a
// Chicago, or a rubber won.
func (m *Match) Complete() bool { return m.complete }

// Totals returns each side's points so far.
func (m *Match) Totals() [2]int { return m.totals }

// Vulnerable tells which sides are vulnerable on the next deal.
func (m *Match) Vulnerable() [2]bool {
	if m.game == GameDraw {
		return [2]bool{m.games[0] > 0, m.games[1] > 0}
	}
	return ChicagoVulnerable(m.counted+1, m.dealer, m.rules)
}

// ChicagoVulnerable tells which sides (0 ns, 1 ew) are vulnerable on
// counted deal k (1-4) of a Chicago dealt from seat dealer: none on deal
// 1, on deals 2 and 3 the dealer's side (VulDealer) or the other
// (VulNonDealer), both on deal 4. Score sheets print it in advance.
func ChicagoVulnerable(k, dealer int, rules Rules) [2]bool {
	switch k {
	case 1:
		return [2]bool{}
	case 2, 3:
		var v [2]bool
		side := dealer % 2
		if rules.Vulnerability == VulNonDealer {
			side = 1 - side
		}
		v[side] = true
		return v
	}
	return [2]bool{true, true}
}

// PassOut records a deal without a bid: in a Chicago the same dealer deals
// again; in draw bridge the deal is thrown in and the other player deals.
func (m *Match) PassOut() DealResult {
	if m.game == GameDraw {
		m.dealer = (m.dealer + 1) % m.players
	}
	return DealResult{PassedOut: true, Totals: m.totals, sides: m.sides, draw: m.game == GameDraw}
}

// Play scores a played contract: the declarer at seat declarer, whose side
// took tricks tricks.
func (m *Match) Play(c Contract, declarer, tricks int) DealResult {
	side := declarer % 2
	vul := m.Vulnerable()
	m.counted++
	d := DealResult{Number: m.counted, Contract: c, Declarer: m.names[declarer], Side: side,
		Vulnerable: vul, Tricks: tricks, Score: ScoreContract(c, tricks, vul[side]),
		sides: m.sides, draw: m.game == GameDraw}
	if d.Score.Undertricks > 0 {
		d.Points[1-side] = d.Score.Undertricks
	} else {
		d.Points[side] = d.Score.Declarer()
		m.made(&d, side)
	}
	m.totals[0] += d.Points[0]
	m.totals[1] += d.Points[1]
	d.Totals = m.totals
	m.dealer = (m.dealer + 1) % m.players
	if m.game == GameChicago && m.counted == 4 {
		m.complete = true
	}
	return d
}

// skip counts a deal that cannot be scored (its record is wrong), so that
// the deals after it are checked against the right dealer.
func (m *Match) skip() {
	m.counted++
	m.dealer = (m.dealer + 1) % m.players
	if m.game == GameChicago && m.counted == 4 {
		m.complete = true
	}
}

// made adds a made contract's trick score below the line and pays the
// bonuses it earns.
func (m *Match) made(d *DealResult, side int) {
	m.below[side] += d.Score.Below
	if m.below[side] < 100 {
		if m.game == GameChicago && m.counted == 4 {
			d.PartscoreBonus = 100
		}
		d.Points[side] += d.PartscoreBonus
		return
	}
	m.below = [2]int{}
	if m.game == GameChicago {
		d.GameBonus = 300
		if d.Vulnerable[side] {
			d.GameBonus = 500
		}
		d.Points[side] += d.GameBonus
		return
	}
	m.games[side]++
	if m.games[side] == 2 {
		d.RubberBonus = 700
		if m.games[1-side] > 0 {
			d.RubberBonus = 500
		}
		d.Points[side] += d.RubberBonus
		m.complete = true
	}
}

// Finish ends the match as far as it went and fills res's totals, games,
// completion, winner and (draw bridge cut short by the clock) unfinished
// bonus. A match neither complete nor endedByTime has no winner yet.
func (m *Match) Finish(res *Result, endedByTime bool) {
	res.Sides, res.Totals, res.Games, res.Complete = m.sides, m.totals, m.games, m.complete
	if !m.complete && !endedByTime {
		res.NextDealer = m.names[m.dealer]
		return
	}
	if !m.complete && m.game == GameDraw {
		for s := range 2 {
			if m.games[s] == 1 {
				res.UnfinishedBonus[s] += 300
			}
			if m.below[s] > 0 {
				res.UnfinishedBonus[s] += 100
			}
			res.Totals[s] += res.UnfinishedBonus[s]
		}
	}
	switch {
	case res.Totals[0] > res.Totals[1]:
		res.Winner = res.Sides[0]
	case res.Totals[1] > res.Totals[0]:
		res.Winner = res.Sides[1]
	default:
		res.Drawn = true
	}
}
