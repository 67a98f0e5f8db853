package site

import (
	"strconv"

	"github.com/revisor-sm/revisor/tournament"
)

// standingsCSVHeader is the first line of the CSV standings, the same
// columns as the API's CSV.
var standingsCSVHeader = []string{"rank", "player", "name", "club", "placement_points", "game_points",
	"games_played", "games_won", "best_game", "status", "round_reached", "round_points", "progress", "decided_by", "tie"}

// StandingsCSV returns the standings as CSV lines, the header first.
func StandingsCSV(rows []tournament.Standing, names func(string) string) [][]string {
	lines := [][]string{standingsCSVHeader}
	for _, r := range rows {
		lines = append(lines, []string{strconv.Itoa(r.Rank), r.Player.ID, r.Player.Name, r.Player.Club,
			strconv.Itoa(r.PlacementPoints), strconv.Itoa(r.GamePoints), strconv.Itoa(r.GamesPlayed),
			strconv.Itoa(r.GamesWon), strconv.Itoa(r.BestGame), string(r.Player.Status),
			strconv.Itoa(r.RoundReached), strconv.Itoa(r.RoundStats.PlacementPoints),
			r.ProgressText(), r.DecidedBy, tieSummary(r.Tie, names)})
	}
	return lines
}

// PlayersCSV returns the players as CSV lines in the columns an import
// reads (name, club), so that a list downloaded from one tournament imports
// into the next.
func PlayersCSV(ps []tournament.Player) [][]string {
	lines := [][]string{{"name", "club"}}
	for _, p := range ps {
		lines = append(lines, []string{p.Name, p.Club})
	}
	return lines
}

// tieSummary is a tie's summary for exports, or "" without one.
func tieSummary(t *tournament.TableTie, names func(string) string) string {
	if t == nil {
		return ""
	}
	return t.Summary(names)
}
