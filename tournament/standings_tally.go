package tournament

import (
	"reflect"
	"slices"
	"time"
)

// Incremental standings (issue 28): the standings of a full hall are
// computed again at every result, and recomputing every round's results
// made a computation's cost grow with the rounds played (1,000 players:
// 1.3 ms after one round, 2.4 ms after six). A Tally keeps the players'
// totals over the closed rounds from one computation to the next; the
// next one checks that the closed rounds hold the same results (their
// row ids: a stored result is never changed, a correction is a new row),
// then adds only the open rounds' results to those totals. Anything else
// — a correction in a closed round, a round closed, other settings — makes
// it count the closed rounds again. The rows always equal Standings.

// Tally is the totals of a tournament's closed rounds, made by
// StandingsWith for its next call. A Tally is not changed once made, so
// computations may share one.
type Tally struct {
	key    tallyKey
	ids    []int64 // the closed rounds' results, in the order of the snapshot
	totals map[string]closedTotals
}

// tallyKey is what a Tally's totals depend on besides the results.
type tallyKey struct {
	rounds   []closedRound
	settings Settings
}

// closedRound names a closed round: a round is drawn once, and its tables
// do not change once it is closed.
type closedRound struct {
	number  int
	created time.Time
	tables  int
}

// closedTotals is a player's share of the closed rounds.
type closedTotals struct {
	stats      Stats // over the closed rounds' results
	reached    int   // the last closed round the player was drawn into
	roundStats Stats // over the results of round reached
}

// StandingsWith returns Standings(st), reusing prev's totals of the closed
// rounds when they were made of the same results (prev may be nil), and
// the Tally for the next call.
func StandingsWith(prev *Tally, st *State) ([]Standing, *Tally) {
	t := prev
	if t == nil || !t.holds(st) {
		t = newTally(st)
	}
	if t == nil {
		return Standings(st), nil // results without ids: nothing to check a tally by
	}
	return standingsFrom(t, st), t
}

// roundSet is a set of round numbers, looked up without hashing.
type roundSet []bool

func (s roundSet) has(n int) bool { return n >= 0 && n < len(s) && s[n] }

// closedRounds lists st's closed rounds and the set of their numbers.
func closedRounds(st *State) ([]closedRound, roundSet) {
	var rounds []closedRound
	var closed roundSet
	for _, r := range st.Rounds {
		if r.Status == RoundClosed && r.Number >= 0 {
			rounds = append(rounds, closedRound{r.Number, r.CreatedAt, len(r.Tables)})
			if r.Number >= len(closed) {
				closed = append(closed, make(roundSet, r.Number+1-len(closed))...)
			}
			closed[r.Number] = true
		}
	}
	return rounds, closed
}

// holds reports whether t's totals are those of st's closed rounds.
func (t *Tally) holds(st *State) bool {
	rounds, closed := closedRounds(st)
	if !slices.Equal(rounds, t.key.rounds) || !reflect.DeepEqual(st.Tournament.Settings, t.key.settings) {
		return false
	}
	i := 0
	for ri := range st.Results {
		res := &st.Results[ri]
		if !closed.has(res.Key.Round) {
			continue
		}
		if i >= len(t.ids) || t.ids[i] != res.ID {
			return false
		}
		i++
	}
	return i == len(t.ids)
}

// newTally counts st's closed rounds; nil when a result of them has no id.
func newTally(st *State) *Tally {
	rounds, closed := closedRounds(st)
	t := &Tally{key: tallyKey{rounds: rounds, settings: st.Tournament.Settings}, totals: map[string]closedTotals{}}
	for _, r := range st.Rounds {
		if !closed.has(r.Number) {
			continue
		}
		for _, tb := range r.Tables {
			for _, pid := range tb.Players {
				c := t.totals[pid]
				c.reached = max(c.reached, r.Number)
				t.totals[pid] = c
			}
		}
	}
	for ri := range st.Results {
		res := &st.Results[ri]
		if !closed.has(res.Key.Round) {
			continue
		}
		if res.ID == 0 {
			return nil
		}
		t.ids = append(t.ids, res.ID)
		for _, p := range res.Places {
			c := t.totals[p.Player]
			c.stats.add(p)
			if res.Key.Round == c.reached {
				c.roundStats.add(p)
			}
			t.totals[p.Player] = c
		}
	}
	return t
}

// standingsFrom is Standings(st) made with t, which holds st's closed
// rounds: their totals are taken as they are and only the open rounds'
// results are added.
func standingsFrom(t *Tally, st *State) []Standing {
	rows, idx := newRows(st)
	_, closed := closedRounds(st)
	for i := range rows {
		rows[i].RoundReached = t.totals[rows[i].Player.ID].reached
	}
	for _, r := range st.Rounds {
		if !closed.has(r.Number) {
			reach(rows, idx, r)
		}
	}
	for i := range rows {
		c := t.totals[rows[i].Player.ID]
		rows[i].Stats = c.stats
		if rows[i].RoundReached == c.reached {
			rows[i].RoundStats = c.roundStats
		}
	}
	addResults(st, rows, idx, func(res *GameResult) bool { return !closed.has(res.Key.Round) })
	return finishStandings(st, rows, idx)
}
