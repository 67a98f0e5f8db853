package tournament

import (
	"cmp"
	"slices"
)

// Stats are a player's totals over a set of games.
type Stats struct {
	PlacementPoints int
	GamePoints      int
	GamesPlayed     int
	GamesWon        int // games with place 1, shared or not
	BestGame        int // the highest game score
}

func (s *Stats) add(p GamePlace) {
	s.PlacementPoints += p.Points
	s.GamePoints += p.Score
	s.GamesPlayed++
	if p.Place == 1 {
		s.GamesWon++
	}
	if s.GamesPlayed == 1 || p.Score > s.BestGame {
		s.BestGame = p.Score
	}
}

// compareStats orders a before b (negative) when a is the better: more
// placement points, then each tiebreak in order. The lot is not a stat and
// is skipped here.
func compareStats(a, b Stats, tiebreaks []string) int {
	if c := cmp.Compare(b.PlacementPoints, a.PlacementPoints); c != 0 {
		return c
	}
	for _, tb := range tiebreaks {
		var c int
		switch tb {
		case TiebreakGamePoints:
			c = cmp.Compare(b.GamePoints, a.GamePoints)
		case TiebreakGamesWon:
			c = cmp.Compare(b.GamesWon, a.GamesWon)
		case TiebreakBestGame:
			c = cmp.Compare(b.BestGame, a.BestGame)
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

// State is everything the tournament's rules look at: the tournament, its
// players and rounds, the effective result of every game played, the
// recorded round outcomes and the organizer's tie resolutions.
type State struct {
	Tournament  Tournament
	Players     []Player
	Rounds      []Round
	Results     []GameResult // effective results only (one per game)
	Outcomes    []Outcome
	Resolutions []TieResolution
	Adjustments []Adjustment // referees' point adjustments (dispute_ruling.go)
}

// Standing is one row of the standings.
type Standing struct {
	Rank   int // shared by players equal in everything that ranks
	Player Player
	Stats  // over the whole tournament
	// RoundReached is the last round the player was drawn into (0: none).
	RoundReached int
	// RoundStats are the player's stats in RoundReached; sm ranks by them.
	RoundStats Stats
	Advanced   bool // sm: went on from RoundReached
	Champion   bool
	// Adjustments is the net of the referees' placement-point adjustments,
	// already counted in Stats (shown so a change is explained).
	Adjustments int
}

// Standings computes the standings from the stored results. It is the only
// way standings are made: nothing derived is stored, so they always equal a
// recomputation.
//
// Swiss: by total placement points, then the tiebreaks. SM: the champion
// first, then by the last round reached, those who advanced from it before
// those who did not, then by that round's placement points and tiebreaks.
// Disqualified players come last. Players equal in every key share a rank.
func Standings(st *State) []Standing {
	idx := make(map[string]int, len(st.Players))
	rows := make([]Standing, len(st.Players))
	for i, p := range st.Players {
		idx[p.ID] = i
		rows[i] = Standing{Player: p, Champion: p.ID == st.Tournament.Champion && p.ID != ""}
	}
	for _, r := range st.Rounds {
		for _, t := range r.Tables {
			for _, pid := range t.Players {
				if i, ok := idx[pid]; ok {
					rows[i].RoundReached = max(rows[i].RoundReached, r.Number)
				}
			}
		}
	}
	for ri := range st.Results {
		res := &st.Results[ri]
		for _, p := range res.Places {
			i, ok := idx[p.Player]
			if !ok {
				continue
			}
			rows[i].Stats.add(p)
			if res.Key.Round == rows[i].RoundReached {
				rows[i].RoundStats.add(p)
			}
		}
	}
	for _, a := range st.Adjustments {
		if i, ok := idx[a.Player]; ok {
			rows[i].Stats.adjust(a)
			if a.Scale != ScaleGamePoints {
				rows[i].Adjustments += a.Points
			}
			if a.Key.Round == rows[i].RoundReached {
				rows[i].RoundStats.adjust(a)
			}
		}
	}
	for _, o := range st.Outcomes {
		if i, ok := idx[o.Player]; ok && o.Advanced && o.Round == rows[i].RoundReached {
			rows[i].Advanced = true
		}
	}
	rank(rows, st.Tournament.Format, st.Tournament.Settings.Tiebreaks)
	return rows
}

// rank sorts rows and gives shared ranks.
func rank(rows []Standing, format Format, tiebreaks []string) {
	compare := func(a, b *Standing) int {
		if c := compareBool(a.Player.Status != PlayerDisqualified, b.Player.Status != PlayerDisqualified); c != 0 {
			return c
		}
		if format.cumulative() {
			return compareStats(a.Stats, b.Stats, tiebreaks)
		}
		if c := compareBool(a.Champion, b.Champion); c != 0 {
			return c
		}
		if c := cmp.Compare(b.RoundReached, a.RoundReached); c != 0 {
			return c
		}
		if c := compareBool(a.Advanced, b.Advanced); c != 0 {
			return c
		}
		return compareStats(a.RoundStats, b.RoundStats, tiebreaks)
	}
	// Sort indexes, not the wide rows; registration order makes it total.
	order := make([]int32, len(rows))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(i, j int32) int {
		if c := compare(&rows[i], &rows[j]); c != 0 {
			return c
		}
		return cmp.Compare(rows[i].Player.Seq, rows[j].Player.Seq)
	})
	sorted := make([]Standing, len(rows))
	for i, k := range order {
		sorted[i] = rows[k]
	}
	copy(rows, sorted)
	for i := range rows {
		if i > 0 && compare(&rows[i-1], &rows[i]) == 0 {
			rows[i].Rank = rows[i-1].Rank
		} else {
			rows[i].Rank = i + 1
		}
	}
}

// compareBool orders true before false.
func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return -1
	default:
		return 1
	}
}
