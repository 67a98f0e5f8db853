package tournament

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Outcome is one player's recorded result of a closed round: their rank at
// the table and, in sm, whether they went on.
type Outcome struct {
	Round    int
	Table    int
	Player   string
	Rank     int // 1-based rank at the table after every tiebreak
	Advanced bool
}

// TieResolution is the organizer's decision of a tie the tiebreaks left
// open: the order of the tied players, best first, decided by a lot drawn
// at the venue or by the organizer's choice.
type TieResolution struct {
	ID        int64
	Round     int
	Players   []string
	Method    string // TieByLot or TieByChoice
	Note      string
	By        string
	CreatedAt time.Time
}

// The ways an organizer resolves a tie.
const (
	TieByLot    = "lot"
	TieByChoice = "choice"
)

// Tie is a tie at an advancement line that the tiebreaks did not break.
type Tie struct {
	Table   int
	Players []string // the tied players, in seat order
	Places  int      // how many of them go on
}

// tableEntry is one player's round at a table, with what ranks it.
type tableEntry struct {
	player string
	stats  Stats
	lot    uint64
	res    resolutionKey
}

type resolutionKey struct {
	id    int64 // 0: none
	index int
}

// rankTable orders a table's players by their round and groups those equal
// in everything that ranks: placement points, the tiebreaks in order, the
// organizer's resolutions, and the seeded lot when the tiebreaks include it.
func rankTable(t Table, stats map[string]Stats, s Settings, seed int64, res map[string]resolutionKey) [][]tableEntry {
	entries := make([]tableEntry, len(t.Players))
	for i, p := range t.Players {
		entries[i] = tableEntry{player: p, stats: stats[p], res: res[p]}
		if s.Uses(TiebreakLot) {
			entries[i].lot = lotValue(seed, p)
		}
	}
	compare := func(a, b tableEntry) int {
		if c := compareStats(a.stats, b.stats, s.Tiebreaks); c != 0 {
			return c
		}
		if a.res.id != 0 && a.res.id == b.res.id {
			if c := cmp.Compare(a.res.index, b.res.index); c != 0 {
				return c
			}
		}
		return cmp.Compare(a.lot, b.lot)
	}
	slices.SortStableFunc(entries, compare)
	var groups [][]tableEntry
	for i, e := range entries {
		if i > 0 && compare(entries[i-1], e) == 0 {
			groups[len(groups)-1] = append(groups[len(groups)-1], e)
			continue
		}
		groups = append(groups, []tableEntry{e})
	}
	return groups
}

// roundStats sums each player's games in round n.
func roundStats(results []GameResult, n int) map[string]Stats {
	m := map[string]Stats{}
	for i := range results {
		if results[i].Key.Round != n {
			continue
		}
		for _, p := range results[i].Places {
			s := m[p.Player]
			s.add(p)
			m[p.Player] = s
		}
	}
	return m
}

// resolutionKeys returns, for each player, their place in the latest
// resolution of round n that names them.
func resolutionKeys(rs []TieResolution, n int) map[string]resolutionKey {
	m := map[string]resolutionKey{}
	for _, r := range rs {
		if r.Round != n {
			continue
		}
		for i, p := range r.Players {
			if r.ID > m[p].id {
				m[p] = resolutionKey{id: r.ID, index: i}
			}
		}
	}
	return m
}

// DecideRound ranks every table of round r and decides who advances: the
// best quota of each table among the players still in (withdrawn and
// disqualified players do not go on). It returns the outcomes, or the ties
// at advancement lines that nothing broke.
func DecideRound(st *State, r *Round, quota int) ([]Outcome, []Tie) {
	stats := roundStats(st.Results, r.Number)
	adjustStats(stats, st.Adjustments, r.Number)
	res := resolutionKeys(st.Resolutions, r.Number)
	status := PlayerStatuses(st.Players)
	var (
		outcomes []Outcome
		ties     []Tie
	)
	for _, t := range r.Tables {
		left, rank := quota, 1
		for _, g := range rankTable(t, stats, st.Tournament.Settings, r.Seed, res) {
			var eligible []string
			for _, e := range g {
				if status[e.player] == PlayerActive {
					eligible = append(eligible, e.player)
				}
			}
			if left > 0 && len(eligible) > left {
				ties = append(ties, Tie{Table: t.Number, Players: inSeatOrder(t, eligible), Places: left})
			}
			for _, e := range g {
				adv := left > 0 && len(eligible) <= left && slices.Contains(eligible, e.player)
				outcomes = append(outcomes, Outcome{Round: r.Number, Table: t.Number, Player: e.player, Rank: rank, Advanced: adv})
			}
			if len(eligible) <= left {
				left -= len(eligible)
			} else {
				left = 0
			}
			rank += len(g)
		}
	}
	return outcomes, ties
}

func inSeatOrder(t Table, ps []string) []string {
	out := make([]string, 0, len(ps))
	for _, p := range t.Players {
		if slices.Contains(ps, p) {
			out = append(out, p)
		}
	}
	return out
}

func PlayerStatuses(ps []Player) map[string]PlayerStatus {
	m := make(map[string]PlayerStatus, len(ps))
	for _, p := range ps {
		m[p.ID] = p.Status
	}
	return m
}

// SplitsTie reports whether the round's scores and the tiebreaks other
// than the lot set players of table tb of round r (number n) apart: a tie
// resolution orders only players those left tied.
func SplitsTie(st *State, n int, r *Round, tb Table, players []string) bool {
	plain := st.Tournament.Settings
	plain.Tiebreaks = slices.DeleteFunc(slices.Clone(plain.Tiebreaks), func(s string) bool { return s == TiebreakLot })
	stats := roundStats(st.Results, n)
	adjustStats(stats, st.Adjustments, n)
	for _, g := range rankTable(tb, stats, plain, r.Seed, nil) {
		in := 0
		for _, e := range g {
			if slices.Contains(players, e.player) {
				in++
			}
		}
		if in > 0 && in < len(players) {
			return true
		}
	}
	return false
}

// TieError is the 409 for ties left open at advancement lines, naming the
// players so the organizer can resolve them.
func TieError(st *State, ties []Tie) error {
	names := map[string]string{}
	for _, p := range st.Players {
		names[p.ID] = p.Name
	}
	var parts []string
	list := make([]map[string]any, len(ties))
	open := make([]OpenTie, len(ties))
	for i, t := range ties {
		var who []string
		players := make([]map[string]any, len(t.Players))
		open[i] = OpenTie{Table: t.Table, Places: t.Places, Players: make([]Player, len(t.Players))}
		for j, p := range t.Players {
			who = append(who, fmt.Sprintf("%s (%s)", names[p], p))
			players[j] = map[string]any{"id": p, "name": names[p]}
			open[i].Players[j] = Player{ID: p, Name: names[p]}
		}
		parts = append(parts, fmt.Sprintf("table %d: %s tie for %d place(s)", t.Table, strings.Join(who, ", "), t.Places))
		list[i] = map[string]any{"table": t.Table, "players": players, "places": t.Places}
	}
	e := Errorf(KindConflict, CodeUnresolvedTie,
		"the tiebreaks leave ties at the advancement line: %s; resolve them with POST .../ties (a lot drawn or your choice) and close again",
		strings.Join(parts, "; "))
	e.Details, e.ties = map[string]any{"ties": list}, open
	return e
}

// TableTie is a tie at a table's advancement line that the tiebreaks left
// and that a lot or the organizer broke: how the tied players were ordered.
type TableTie struct {
	Round, Table int
	Players      []string // the tied players, in the order decided
	// Method is TieByLot (drawn from the round's Seed, or at the venue
	// when Resolved) or TieByChoice (the organizer's order, e.g. a play-off).
	Method   string
	Seed     int64
	Resolved bool   // recorded by the organizer rather than the seeded lot
	Note     string // the organizer's note
}

// tableTies finds, in the closed rounds of an sm tournament, the ties at
// advancement lines that only a lot or the organizer broke, by player.
func tableTies(st *State) map[string]*TableTie {
	out := map[string]*TableTie{}
	if st.Tournament.Format != FormatSM {
		return out
	}
	advanced := map[[2]any]bool{}
	for _, o := range st.Outcomes {
		advanced[[2]any{o.Round, o.Player}] = o.Advanced
	}
	plain := st.Tournament.Settings
	plain.Tiebreaks = slices.DeleteFunc(slices.Clone(plain.Tiebreaks), func(s string) bool { return s == TiebreakLot })
	for ri := range st.Rounds {
		r := &st.Rounds[ri]
		if r.Status != RoundClosed {
			continue
		}
		stats := roundStats(st.Results, r.Number)
		adjustStats(stats, st.Adjustments, r.Number)
		res := resolutionKeys(st.Resolutions, r.Number)
		for _, t := range r.Tables {
			for _, g := range rankTable(t, stats, plain, r.Seed, nil) {
				if tt := brokenTie(st, r, t, g, advanced, res); tt != nil {
					for _, p := range tt.Players {
						out[p] = tt
					}
				}
			}
		}
	}
	return out
}

// brokenTie returns the tie of group g (players equal in every tiebreak)
// when it straddled the advancement line, ordered as it was decided.
func brokenTie(st *State, r *Round, t Table, g []tableEntry, advanced map[[2]any]bool, res map[string]resolutionKey) *TableTie {
	if len(g) < 2 {
		return nil
	}
	went := 0
	for _, e := range g {
		if advanced[[2]any{r.Number, e.player}] {
			went++
		}
	}
	if went == 0 || went == len(g) {
		return nil
	}
	tt := &TableTie{Round: r.Number, Table: t.Number, Method: TieByLot, Seed: r.Seed}
	decided := rankTable(t, map[string]Stats{}, st.Tournament.Settings, r.Seed, res)
	var order []tableEntry
	for _, d := range decided {
		order = append(order, d...)
	}
	in := map[string]bool{}
	for _, e := range g {
		in[e.player] = true
	}
	for _, e := range order {
		if in[e.player] {
			tt.Players = append(tt.Players, e.player)
		}
	}
	if k := res[tt.Players[0]]; k.id != 0 {
		for _, rs := range st.Resolutions {
			if rs.ID == k.id {
				tt.Method, tt.Note, tt.Resolved = rs.Method, rs.Note, true
			}
		}
	}
	return tt
}

// lotValue is a player's lot in a round: the first 8 bytes of
// SHA-256("revisor-lot|seed|player"). Lower values win. Anyone who knows the
// round's seed can recompute it.
func lotValue(seed int64, player string) uint64 {
	h := sha256.Sum256([]byte("revisor-lot|" + strconv.FormatInt(seed, 10) + "|" + player))
	return binary.BigEndian.Uint64(h[:8])
}
