package tournament

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
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
		if c := compareTiebreak(a, b, tb); c != 0 {
			return c
		}
	}
	return 0
}

// compareTiebreak orders a before b (negative) when a is the better in
// tiebreak tb; the lot is not a stat and compares equal.
func compareTiebreak(a, b Stats, tb string) int {
	switch tb {
	case TiebreakGamePoints:
		return cmp.Compare(b.GamePoints, a.GamePoints)
	case TiebreakGamesWon:
		return cmp.Compare(b.GamesWon, a.GamesWon)
	case TiebreakBestGame:
		return cmp.Compare(b.BestGame, a.BestGame)
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
	// DecidedBy names the first key of the ranking in which this row
	// differs from the row above (Decided..., or a tiebreak's name); empty
	// for the first row and for a rank shared with the row above.
	DecidedBy string
	// Progress is, in sm, how far the player came (Progress...; empty in
	// Swiss).
	Progress string
	// Tie is, in sm, the latest tie at the player's table that the
	// tiebreaks left and a lot or the organizer broke, deciding whether
	// they went on (nil: none).
	Tie *TableTie
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
	rows, idx := newRows(st)
	for _, r := range st.Rounds {
		reach(rows, idx, r)
	}
	addResults(st, rows, idx, func(*GameResult) bool { return true })
	return finishStandings(st, rows, idx)
}

// newRows makes a row per player, and the index of each player's row.
func newRows(st *State) ([]Standing, map[string]int) {
	idx := make(map[string]int, len(st.Players))
	rows := make([]Standing, len(st.Players))
	for i, p := range st.Players {
		idx[p.ID] = i
		rows[i] = Standing{Player: p, Champion: p.ID == st.Tournament.Champion && p.ID != ""}
	}
	return rows, idx
}

// reach notes round r as reached by the players drawn into it.
func reach(rows []Standing, idx map[string]int, r Round) {
	for _, t := range r.Tables {
		for _, pid := range t.Players {
			if i, ok := idx[pid]; ok {
				rows[i].RoundReached = max(rows[i].RoundReached, r.Number)
			}
		}
	}
}

// addResults adds the results that counts picks to the rows, once every
// row's RoundReached is known.
func addResults(st *State, rows []Standing, idx map[string]int, counts func(*GameResult) bool) {
	for ri := range st.Results {
		res := &st.Results[ri]
		if !counts(res) {
			continue
		}
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
}

// finishStandings applies the adjustments, outcomes and ties to rows made
// of the results, and ranks them.
func finishStandings(st *State, rows []Standing, idx map[string]int) []Standing {
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
	ties := tableTies(st)
	for i := range rows {
		rows[i].Tie = ties[rows[i].Player.ID]
		if st.Tournament.Format == FormatSM {
			rows[i].Progress = progressOf(st, &rows[i])
		}
	}
	rank(rows, st.Tournament.Format, st.Tournament.Settings.Tiebreaks)
	return rows
}

// What puts a row of the standings below the row above it: the first key
// of the ranking in which the two differ (Standing.DecidedBy). The
// tiebreaks use their own names (TiebreakGamePoints, ...).
const (
	DecidedStatus   = "status"        // the row above is not disqualified
	DecidedChampion = "champion"      // sm: the row above is the champion
	DecidedRound    = "round_reached" // sm: the row above reached a later round
	DecidedAdvanced = "advanced"      // sm: the row above went on from the same round
	DecidedPoints   = "placement_points"
	DecidedTotal    = "total_points" // sm: points over all rounds, after the round's own keys
)

// How far an sm player came (Standing.Progress).
const (
	ProgressChampion     = "champion"
	ProgressAdvanced     = "advanced"   // went on from RoundReached
	ProgressEliminated   = "eliminated" // in RoundReached
	ProgressPlaying      = "playing"    // RoundReached is open
	ProgressWithdrawn    = "withdrawn"
	ProgressDisqualified = "disqualified"
)

func progressOf(st *State, r *Standing) string {
	switch {
	case r.Champion:
		return ProgressChampion
	case r.Player.Status == PlayerWithdrawn:
		return ProgressWithdrawn
	case r.Player.Status == PlayerDisqualified:
		return ProgressDisqualified
	case r.Advanced:
		return ProgressAdvanced
	case r.Player.Status == PlayerEliminated:
		return ProgressEliminated
	case r.RoundReached > 0 && r.RoundReached <= len(st.Rounds) && st.Rounds[r.RoundReached-1].Status == RoundOpen:
		return ProgressPlaying
	}
	return ""
}

// ProgressText is the row's Progress in plain English, for exports.
func (r *Standing) ProgressText() string {
	switch r.Progress {
	case ProgressAdvanced:
		return fmt.Sprintf("goes on to round %d", r.RoundReached+1)
	case ProgressEliminated:
		return fmt.Sprintf("eliminated in round %d", r.RoundReached)
	case ProgressPlaying:
		return fmt.Sprintf("playing round %d", r.RoundReached)
	}
	return r.Progress
}

// Summary says in plain English, for exports, how the tie was broken and
// the order decided; name gives a player's name.
func (t *TableTie) Summary(name func(id string) string) string {
	who := make([]string, len(t.Players))
	for i, p := range t.Players {
		who[i] = name(p)
	}
	how := fmt.Sprintf("lot seed %d", t.Seed)
	switch {
	case t.Method == TieByChoice:
		how = "organizer's choice"
	case t.Resolved:
		how = "lot drawn by the organizer"
	}
	s := fmt.Sprintf("round %d table %d, %s: %s", t.Round, t.Table, how, strings.Join(who, ", "))
	if t.Note != "" {
		s += " (" + t.Note + ")"
	}
	return s
}

// rankKey is one key of the ranking: its name and its comparison.
type rankKey struct {
	name    string
	compare func(a, b *Standing) int
}

// rankKeys lists the keys that rank the standings, in order.
func rankKeys(format Format, tiebreaks []string) []rankKey {
	keys := []rankKey{{DecidedStatus, func(a, b *Standing) int {
		return compareBool(a.Player.Status != PlayerDisqualified, b.Player.Status != PlayerDisqualified)
	}}}
	statKeys := func(of func(*Standing) *Stats) []rankKey {
		ks := []rankKey{{DecidedPoints, func(a, b *Standing) int { return compareStats(*of(a), *of(b), nil) }}}
		for _, tb := range tiebreaks {
			if tb == TiebreakLot {
				continue
			}
			ks = append(ks, rankKey{tb, func(a, b *Standing) int {
				return compareTiebreak(*of(a), *of(b), tb)
			}})
		}
		return ks
	}
	if format.Cumulative() {
		return append(keys, statKeys(func(s *Standing) *Stats { return &s.Stats })...)
	}
	keys = append(keys,
		rankKey{DecidedChampion, func(a, b *Standing) int { return compareBool(a.Champion, b.Champion) }},
		rankKey{DecidedRound, func(a, b *Standing) int { return cmp.Compare(b.RoundReached, a.RoundReached) }},
		rankKey{DecidedAdvanced, func(a, b *Standing) int { return compareBool(a.Advanced, b.Advanced) }})
	keys = append(keys, statKeys(func(s *Standing) *Stats { return &s.RoundStats })...)
	// Players equal in their last round (all of a round not yet played)
	// are ordered by their points over the whole tournament.
	return append(keys, rankKey{DecidedTotal, func(a, b *Standing) int {
		return cmp.Compare(b.Stats.PlacementPoints, a.Stats.PlacementPoints)
	}})
}

// decide returns the name of the first key in which a and b differ, and
// the comparison ("", 0 when they are equal in every key).
func decide(keys []rankKey, a, b *Standing) (string, int) {
	for _, k := range keys {
		if c := k.compare(a, b); c != 0 {
			return k.name, c
		}
	}
	return "", 0
}

// rank sorts rows, gives shared ranks and names what decided each rank.
func rank(rows []Standing, format Format, tiebreaks []string) {
	keys := rankKeys(format, tiebreaks)
	// Sort indexes, not the wide rows; registration order makes it total.
	order := make([]int32, len(rows))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(i, j int32) int {
		if _, c := decide(keys, &rows[i], &rows[j]); c != 0 {
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
		rows[i].Rank = i + 1
		if i == 0 {
			continue
		}
		if by, _ := decide(keys, &rows[i-1], &rows[i]); by != "" {
			rows[i].DecidedBy = by
		} else {
			rows[i].Rank = rows[i-1].Rank
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
