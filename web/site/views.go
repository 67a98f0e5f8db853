package site

import (
	"slices"
	"strings"

	"github.com/revisor-sm/revisor/tournament"
)

// StandingRow is one line of the standings as the pages show it, with
// what decides its rank in words.
type StandingRow struct {
	Rank            int
	Shared          bool // the rank is shared with a neighbour
	ID, Name, Club  string
	PlacementPoints int
	GamePoints      int
	Games           int
	Won             int // games (bridge: matches) with place 1
	Status          string
	Out             bool // no longer in play
	Champion        bool
	// RoundReached and RoundPoints are sm's first keys: the last round
	// drawn into and the placement points in it.
	RoundReached, RoundPoints int
	Progress                  string // sm: champion, advances, eliminated in round n, ...
	Why                       string // how a tie with the row above was broken
	Tie                       string // how a tie at the table decided going on (sm)
}

// StandingsView is the standings in words: the rows and the order of the
// keys that rank them.
type StandingsView struct {
	SM bool
	// Bridge: the rows' points are the score differences of bridge matches
	// (placement points and game points are the same number), ranked by
	// them, then matches won, then the best round.
	Bridge bool
	Order  string // "round reached, then ..."
	Rows   []StandingRow
}

// StandingsOf puts the standings of st into the page's words, once per
// snapshot and language (the rows are shared: readers must not change
// them).
func (h *Site) StandingsOf(p *Page, st *tournament.State) StandingsView {
	return h.cache.derived(st, "view "+p.Lang, func() any {
		rows := h.cache.derived(st, "standings", func() any { return h.cache.standingsRows(st) }).([]tournament.Standing)
		return standingsWords(p, st, rows)
	}).(StandingsView)
}

// standingsWords puts standings rows of st into the page's words.
func standingsWords(p *Page, st *tournament.State, rows []tournament.Standing) StandingsView {
	names := PlayerIndex(st)
	sm, bridge := st.Tournament.Format == tournament.FormatSM, st.Tournament.Format == tournament.FormatBridge
	v := StandingsView{SM: sm, Bridge: bridge, Order: rankOrder(p, st.Tournament.Settings.Tiebreaks, sm), Rows: make([]StandingRow, len(rows))}
	if bridge {
		v.Order = bridgeOrder(p, st.Tournament.Settings.Tiebreaks)
	}
	for i, r := range rows {
		out := StandingRow{Rank: r.Rank, ID: r.Player.ID, Name: r.Player.Name, Club: r.Player.Club,
			PlacementPoints: r.PlacementPoints, GamePoints: r.GamePoints, Games: r.GamesPlayed, Won: r.GamesWon,
			Status: string(r.Player.Status), Out: r.Player.Status != tournament.PlayerActive, Champion: r.Champion,
			RoundReached: r.RoundReached, RoundPoints: r.RoundStats.PlacementPoints,
			Shared: (i > 0 && rows[i-1].Rank == r.Rank) || (i+1 < len(rows) && rows[i+1].Rank == r.Rank)}
		if sm {
			out.Progress = progress(p, r)
			out.Tie = tieText(p, r.Tie, names)
		}
		out.Why = whyText(p, r)
		if bridge {
			out.Why = bridgeWhy(p, r)
		}
		v.Rows[i] = out
	}
	return v
}

// rankOrder says in words what ranks the standings.
func rankOrder(p *Page, tiebreaks []string, sm bool) string {
	var keys []string
	if sm {
		keys = append(keys, p.T("s.key.round"), p.T("s.key.roundpoints"))
	} else {
		keys = append(keys, p.T("s.key.points"))
	}
	for _, tb := range tiebreaks {
		if tb != tournament.TiebreakLot || sm { // Swiss standings share a rank rather than draw lots
			keys = append(keys, p.T("s.key."+tb))
		}
	}
	if sm {
		keys = append(keys, p.T("s.key.total"))
	}
	return p.T("s.order", strings.Join(keys, ", "))
}

// bridgeOrder says in a bridge player's words what ranks a bridge
// tournament's standings: the points over the other sides, then the
// tiebreaks that can differ (game points are the same points again, and
// equal rows share a rank rather than draw lots, as in Swiss).
func bridgeOrder(p *Page, tiebreaks []string) string {
	keys := []string{p.T("s.bridge.key.points")}
	for _, tb := range tiebreaks {
		if tb == tournament.TiebreakGamesWon || tb == tournament.TiebreakBestGame {
			keys = append(keys, p.T("s.bridge.key."+tb))
		}
	}
	return p.T("s.order", strings.Join(keys, "; "))
}

// bridgeWhy says which tiebreak put a bridge row below the row above.
func bridgeWhy(p *Page, r tournament.Standing) string {
	if r.DecidedBy == tournament.TiebreakGamesWon || r.DecidedBy == tournament.TiebreakBestGame {
		return p.T("s.bridge.by." + r.DecidedBy)
	}
	return ""
}

// progress is an sm player's way through the tournament in words.
func progress(p *Page, r tournament.Standing) string {
	switch r.Progress {
	case tournament.ProgressChampion:
		return p.T("s.champion")
	case tournament.ProgressWithdrawn, tournament.ProgressDisqualified:
		return p.T("pstatus." + r.Progress)
	case tournament.ProgressAdvanced:
		return p.T("s.advances", r.RoundReached+1)
	case tournament.ProgressEliminated:
		return p.T("s.eliminated", r.RoundReached)
	case tournament.ProgressPlaying:
		return p.T("s.playing", r.RoundReached)
	}
	return ""
}

// whyText says which tiebreak put r below the row above when their
// points were equal; other keys (points, round) explain themselves.
func whyText(p *Page, r tournament.Standing) string {
	switch r.DecidedBy {
	case tournament.TiebreakGamePoints, tournament.TiebreakGamesWon, tournament.TiebreakBestGame:
		return p.T("s.by." + r.DecidedBy)
	case tournament.DecidedTotal:
		return p.T("s.by.total", r.RoundReached)
	}
	return ""
}

// tieText says how a tie at the table decided who went on.
func tieText(p *Page, t *tournament.TableTie, names map[string]tournament.Player) string {
	if t == nil {
		return ""
	}
	who := make([]string, len(t.Players))
	for i, id := range t.Players {
		who[i] = names[id].Name
	}
	order := strings.Join(who, ", ")
	var s string
	switch {
	case t.Method == tournament.TieByChoice:
		s = p.T("s.tie.choice", t.Round, t.Table, order)
	case t.Resolved:
		s = p.T("s.tie.venue", t.Round, t.Table, order)
	default:
		s = p.T("s.tie.lot", t.Round, t.Table, t.Seed, order)
	}
	if t.Note != "" {
		s += " (" + t.Note + ")"
	}
	return s
}

// SeatView is one player at a table.
type SeatView struct {
	Seat          int
	ID, Name      string
	Club          string
	Dealer, Match bool
}

// TableView is one table of a round as the seating shows it.
type TableView struct {
	Number    int
	Seats     []SeatView
	Names     string // folded names (FoldName), for the live filter
	GamesDone int
	Match     bool // a player matches the search
}

// RoundTables builds the seating of round r; q (folded, foldName) marks
// the players whose folded name contains it.
func RoundTables(st *tournament.State, r *tournament.Round, q string) []TableView {
	players := PlayerIndex(st)
	done := gamesDone(st, r.Number)
	out := make([]TableView, len(r.Tables))
	for i, t := range r.Tables {
		tv := TableView{Number: t.Number, GamesDone: done[t.Number]}
		var names []string
		for j, pid := range t.Players {
			p := players[pid]
			sv := SeatView{Seat: j + 1, ID: pid, Name: p.Name, Club: p.Club, Dealer: pid == t.FirstDealer}
			folded := FoldName(p.Name)
			if q != "" && strings.Contains(folded, q) {
				sv.Match, tv.Match = true, true
			}
			tv.Seats = append(tv.Seats, sv)
			names = append(names, folded)
		}
		tv.Names = strings.Join(names, "|")
		out[i] = tv
	}
	return out
}

// gamesDone counts the games with a result at each table of round n.
func gamesDone(st *tournament.State, n int) map[int]int {
	m := map[int]int{}
	for _, res := range st.Results {
		if res.Key.Round == n {
			m[res.Key.Table]++
		}
	}
	return m
}

// PlayerIndex is st's players by ID.
func PlayerIndex(st *tournament.State) map[string]tournament.Player {
	m := make(map[string]tournament.Player, len(st.Players))
	for _, p := range st.Players {
		m[p.ID] = p
	}
	return m
}

// RoundOf returns round n of st (the current round when n is 0), or nil.
func RoundOf(st *tournament.State, n int) *tournament.Round {
	if n == 0 {
		n = len(st.Rounds)
	}
	if n < 1 || n > len(st.Rounds) {
		return nil
	}
	return &st.Rounds[n-1]
}

// gameLine is one game of a player's round.
type gameLine struct {
	Game                 int
	Played               bool
	Place, Score, Points int
}

// PlayerRound is one round of a player's page.
type PlayerRound struct {
	Round  int
	Table  int
	Final  bool
	Others []string // the other players at the table, in seat order
	Games  []gameLine
	Points int
}

// PlayerRounds lists the rounds player pid was drawn into.
func PlayerRounds(st *tournament.State, pid string) []PlayerRound {
	players := PlayerIndex(st)
	games := st.Tournament.Settings.GamesPerRound
	var out []PlayerRound
	for _, r := range st.Rounds {
		t, ok := r.TableOf(pid)
		if !ok {
			continue
		}
		pr := PlayerRound{Round: r.Number, Table: t.Number, Final: r.Final, Games: make([]gameLine, games)}
		for _, other := range t.Players {
			if other != pid {
				pr.Others = append(pr.Others, players[other].Name)
			}
		}
		for g := range pr.Games {
			pr.Games[g].Game = g + 1
		}
		for _, res := range st.Results {
			if res.Key.Round != r.Number || res.Key.Table != t.Number || res.Key.Game > games {
				continue
			}
			i := slices.IndexFunc(res.Places, func(p tournament.GamePlace) bool { return p.Player == pid })
			if i < 0 {
				continue
			}
			p := res.Places[i]
			pr.Games[res.Key.Game-1] = gameLine{Game: res.Key.Game, Played: true, Place: p.Place, Score: p.Score, Points: p.Points}
			pr.Points += p.Points
		}
		out = append(out, pr)
	}
	return out
}
