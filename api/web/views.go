package web

import (
	"slices"
	"strings"

	"github.com/revisor-sm/revisor/tournament"
)

// standingRow is one line of the standings as the pages show it.
type standingRow struct {
	Rank            int
	Shared          bool // the rank is shared with a neighbour
	ID, Name, Club  string
	PlacementPoints int
	GamePoints      int
	Games           int
	Status          string
	Out             bool // no longer in play
	Champion        bool
}

// standingRows turns the standings into rows, marking shared ranks.
func standingRows(rows []tournament.Standing) []standingRow {
	out := make([]standingRow, len(rows))
	for i, r := range rows {
		out[i] = standingRow{Rank: r.Rank, ID: r.Player.ID, Name: r.Player.Name, Club: r.Player.Club,
			PlacementPoints: r.PlacementPoints, GamePoints: r.GamePoints, Games: r.GamesPlayed,
			Status: string(r.Player.Status), Out: r.Player.Status != tournament.PlayerActive, Champion: r.Champion}
		shared := (i > 0 && rows[i-1].Rank == r.Rank) || (i+1 < len(rows) && rows[i+1].Rank == r.Rank)
		out[i].Shared = shared
	}
	return out
}

// seatView is one player at a table.
type seatView struct {
	Seat          int
	ID, Name      string
	Club          string
	Dealer, Match bool
}

// tableView is one table of a round as the seating shows it.
type tableView struct {
	Number    int
	Seats     []seatView
	Names     string // lower-cased names, for the live filter
	GamesDone int
	Match     bool // a player matches the search
}

// roundTables builds the seating of round r; q (lower case) marks the
// players whose name contains it.
func roundTables(st *tournament.State, r *tournament.Round, q string) []tableView {
	players := playerIndex(st)
	done := gamesDone(st, r.Number)
	out := make([]tableView, len(r.Tables))
	for i, t := range r.Tables {
		tv := tableView{Number: t.Number, GamesDone: done[t.Number]}
		var names []string
		for j, pid := range t.Players {
			p := players[pid]
			sv := seatView{Seat: j + 1, ID: pid, Name: p.Name, Club: p.Club, Dealer: pid == t.FirstDealer}
			if q != "" && strings.Contains(strings.ToLower(p.Name), q) {
				sv.Match, tv.Match = true, true
			}
			tv.Seats = append(tv.Seats, sv)
			names = append(names, strings.ToLower(p.Name))
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

func playerIndex(st *tournament.State) map[string]tournament.Player {
	m := make(map[string]tournament.Player, len(st.Players))
	for _, p := range st.Players {
		m[p.ID] = p
	}
	return m
}

// roundOf returns round n of st (the current round when n is 0), or nil.
func roundOf(st *tournament.State, n int) *tournament.Round {
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

// playerRound is one round of a player's page.
type playerRound struct {
	Round  int
	Table  int
	Final  bool
	Others []string // the other players at the table, in seat order
	Games  []gameLine
	Points int
}

// playerRounds lists the rounds player pid was drawn into.
func playerRounds(st *tournament.State, pid string) []playerRound {
	players := playerIndex(st)
	games := st.Tournament.Settings.GamesPerRound
	var out []playerRound
	for _, r := range st.Rounds {
		t, ok := r.TableOf(pid)
		if !ok {
			continue
		}
		pr := playerRound{Round: r.Number, Table: t.Number, Final: r.Final, Games: make([]gameLine, games)}
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
