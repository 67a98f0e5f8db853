package bridge

// Score is the value of one played contract (the Laws' table for rubber
// bridge, without honours). Below is the trick score of the declaring side;
// Overtricks, Insult and Slam go above the line to it; Undertricks go to the
// defenders. Exactly one of Below and Undertricks is non-zero for a contract
// that was played (Below is at least 20 when it was made).
type Score struct {
	Below, Overtricks, Insult, Slam, Undertricks int
}

// Above returns the declaring side's points above the line.
func (s Score) Above() int { return s.Overtricks + s.Insult + s.Slam }

// Declarer returns all the declaring side's points of the contract (no game
// or match bonus).
func (s Score) Declarer() int { return s.Below + s.Above() }

// trickValue is the value of one trick bid and made, undoubled, by strain;
// the first notrump trick is worth 10 more.
var trickValue = [...]int{Clubs: 20, Diamonds: 20, Hearts: 30, Spades: 30, NoTrump: 30}

// ScoreContract values contract c when the declarer's side took tricks
// tricks (0-13) and was vulnerable or not.
func ScoreContract(c Contract, tricks int, vulnerable bool) Score {
	need := 6 + c.Level
	mult := 1 << c.Double // 1, 2, 4
	if tricks < need {
		return Score{Undertricks: undertricks(need-tricks, c.Double, vulnerable)}
	}
	var s Score
	s.Below = trickValue[c.Strain] * c.Level * mult
	if c.Strain == NoTrump {
		s.Below += 10 * mult
	}
	over := tricks - need
	switch {
	case c.Double == Undoubled:
		s.Overtricks = over * trickValue[c.Strain]
	case vulnerable:
		s.Overtricks = over * 100 * mult
	default:
		s.Overtricks = over * 50 * mult
	}
	s.Insult = [...]int{0, 50, 100}[c.Double]
	switch {
	case c.Level == 6 && vulnerable:
		s.Slam = 750
	case c.Level == 6:
		s.Slam = 500
	case c.Level == 7 && vulnerable:
		s.Slam = 1500
	case c.Level == 7:
		s.Slam = 1000
	}
	return s
}

// undertricks is the defenders' score for n tricks short.
func undertricks(n int, d Doubling, vulnerable bool) int {
	if d == Undoubled {
		if vulnerable {
			return 100 * n
		}
		return 50 * n
	}
	var pts int
	if vulnerable { // 200, then 300 each
		pts = 300*n - 100
	} else { // 100, 200, 200, then 300 each
		pts = 100 + 200*min(n-1, 2) + 300*max(n-3, 0)
	}
	if d == Redoubled {
		pts *= 2
	}
	return pts
}
