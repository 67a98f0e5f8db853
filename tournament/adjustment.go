// Point adjustments: a ruling's (package referee) own record of points
// given or taken, which the standings add to the players' totals.

package tournament

import "time"

// The scales a point adjustment applies to.
const (
	ScalePlacementPoints = "placement_points" // the points that rank the standings (default)
	ScaleGamePoints      = "game_points"      // the game points (a tiebreak)
)

// Adjustment is a point adjustment decided by a ruling: its own record,
// never an edit of the game. The standings add it to the player's totals
// (and to the round's, for advancement).
type Adjustment struct {
	ID        int64
	RulingID  int64
	Key       GameKey // the disputed game
	Player    string
	Points    int // negative: a deduction
	Scale     string
	Reason    string
	CreatedAt time.Time
}

// adjustStats adds round n's placement-point and game-point adjustments to
// the round's stats (n = 0: every round's).
func adjustStats(m map[string]Stats, adjs []Adjustment, n int) {
	for _, a := range adjs {
		if n != 0 && a.Key.Round != n {
			continue
		}
		s := m[a.Player]
		s.adjust(a)
		m[a.Player] = s
	}
}

// adjust adds an adjustment to the stats.
func (s *Stats) adjust(a Adjustment) {
	if a.Scale == ScaleGamePoints {
		s.GamePoints += a.Points
		return
	}
	s.PlacementPoints += a.Points
}
