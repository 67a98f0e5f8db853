package web

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"strings"

	"github.com/revisor-sm/revisor/tournament"
)

// standingsCSVHeader is the first line of the CSV standings, the same
// columns as the API's CSV.
var standingsCSVHeader = []string{"rank", "player", "name", "club", "placement_points", "game_points",
	"games_played", "games_won", "best_game", "status", "round_reached", "round_points"}

// standingsCSV writes the standings as CSV.
func standingsCSV(rows []tournament.Standing) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write(standingsCSVHeader)
	for _, r := range rows {
		_ = w.Write([]string{strconv.Itoa(r.Rank), r.Player.ID, csvSafe(r.Player.Name), csvSafe(r.Player.Club),
			strconv.Itoa(r.PlacementPoints), strconv.Itoa(r.GamePoints), strconv.Itoa(r.GamesPlayed),
			strconv.Itoa(r.GamesWon), strconv.Itoa(r.BestGame), string(r.Player.Status),
			strconv.Itoa(r.RoundReached), strconv.Itoa(r.RoundStats.PlacementPoints)})
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

// csvSafe keeps a spreadsheet from reading a name as a formula.
func csvSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@", rune(s[0])) {
		return "'" + s
	}
	return s
}
