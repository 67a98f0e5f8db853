package api

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/tournament"
)

// standingsRoutes registers the standings of a tournament.
func (s *Server) standingsRoutes(g *echo.Group) {
	g.GET("/tournaments/:tid/standings", s.getStandings, s.require(tournament.RolePublic))
}

// standingJSON is one row of the standings.
type standingJSON struct {
	Rank            int    `json:"rank"`
	Player          string `json:"player"`
	Name            string `json:"name"`
	Club            string `json:"club"`
	PlacementPoints int    `json:"placement_points"`
	GamePoints      int    `json:"game_points"`
	GamesPlayed     int    `json:"games_played"`
	GamesWon        int    `json:"games_won"`
	BestGame        int    `json:"best_game"`
	Status          string `json:"status"`
	RoundReached    int    `json:"round_reached"`
	RoundPoints     int    `json:"round_points"`
	Advanced        bool   `json:"advanced"`
	Champion        bool   `json:"champion"`
	Adjustments     int    `json:"adjustments"`
	// Progress (sm): champion, advanced, eliminated, playing, withdrawn,
	// disqualified.
	Progress  string         `json:"progress,omitempty"`
	DecidedBy string         `json:"decided_by,omitempty"`
	Tie       *brokenTieJSON `json:"tie,omitempty"`
	// For the CSV: the tie and the progress in words.
	tieText, progressText string
}

// brokenTieJSON is a tie at the table that a lot or the organizer broke.
type brokenTieJSON struct {
	Round    int      `json:"round"`
	Table    int      `json:"table"`
	Players  []string `json:"players"`
	Method   string   `json:"method"`
	Seed     int64    `json:"seed"`
	Resolved bool     `json:"resolved"`
	Note     string   `json:"note,omitempty"`
}

// standingsJSON is the standings of a tournament.
type standingsJSON struct {
	Tournament string         `json:"tournament"`
	Format     string         `json:"format"`
	Status     string         `json:"status"`
	Round      int            `json:"round"`
	Champion   string         `json:"champion,omitempty"`
	Rows       []standingJSON `json:"rows"`
}

// toStandings converts the rows of the standings, naming the tied players.
func toStandings(rows []tournament.Standing) []standingJSON {
	names := make(map[string]string, len(rows))
	for _, r := range rows {
		names[r.Player.ID] = r.Player.Name
	}
	name := func(id string) string { return names[id] }
	out := make([]standingJSON, len(rows))
	for i, r := range rows {
		out[i] = toStanding(r, name)
	}
	return out
}

func toStanding(r tournament.Standing, names func(string) string) standingJSON {
	out := standingJSON{Rank: r.Rank, Player: r.Player.ID, Name: r.Player.Name, Club: r.Player.Club,
		PlacementPoints: r.PlacementPoints, GamePoints: r.GamePoints, GamesPlayed: r.GamesPlayed,
		GamesWon: r.GamesWon, BestGame: r.BestGame, Status: string(r.Player.Status),
		RoundReached: r.RoundReached, RoundPoints: r.RoundStats.PlacementPoints, Advanced: r.Advanced, Champion: r.Champion,
		Adjustments: r.Adjustments, Progress: r.Progress, DecidedBy: r.DecidedBy}
	if t := r.Tie; t != nil {
		out.Tie = &brokenTieJSON{Round: t.Round, Table: t.Table, Players: t.Players, Method: t.Method, Seed: t.Seed,
			Resolved: t.Resolved, Note: t.Note}
		out.tieText = t.Summary(names)
	}
	out.progressText = r.ProgressText()
	return out
}

func (s *Server) getStandings(c echo.Context) error {
	svc := s.deps.Tournaments
	t, rows, err := svc.Standings(c.Request().Context(), c.Param("tid"))
	if err != nil {
		return err
	}
	out := standingsJSON{Tournament: t.ID, Format: string(t.Format), Status: string(t.Status), Round: t.CurrentRound,
		Champion: t.Champion, Rows: toStandings(rows)}
	if wantsCSV(c) {
		return writeStandingsCSV(c, out.Rows)
	}
	return c.JSON(http.StatusOK, out)
}

// wantsCSV reports whether the client asked for CSV: ?format=csv, or an
// Accept header that names text/csv.
func wantsCSV(c echo.Context) bool {
	if f := c.QueryParam("format"); f != "" {
		return strings.EqualFold(f, "csv")
	}
	return strings.Contains(strings.ToLower(c.Request().Header.Get(echo.HeaderAccept)), "text/csv")
}

// standingsCSVHeader is the first line of the CSV standings.
var standingsCSVHeader = []string{"rank", "player", "name", "club", "placement_points", "game_points",
	"games_played", "games_won", "best_game", "status", "round_reached", "round_points", "progress", "decided_by", "tie"}

func writeStandingsCSV(c echo.Context, rows []standingJSON) error {
	lines := [][]string{standingsCSVHeader}
	for _, r := range rows {
		lines = append(lines, []string{strconv.Itoa(r.Rank), r.Player, r.Name, r.Club,
			strconv.Itoa(r.PlacementPoints), strconv.Itoa(r.GamePoints), strconv.Itoa(r.GamesPlayed),
			strconv.Itoa(r.GamesWon), strconv.Itoa(r.BestGame), r.Status,
			strconv.Itoa(r.RoundReached), strconv.Itoa(r.RoundPoints), r.progressText, r.DecidedBy, r.tieText})
	}
	return httpx.WriteCSV(c, "standings.csv", lines)
}
