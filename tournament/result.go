package tournament

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/revisor-sm/revisor/engine"
)

// ResultKind tells an original submission from a referee's correction.
// Results are append-only: a correction is a new row that supersedes an
// earlier one, and the effective result of a game is its latest row.
type ResultKind string

// The kinds of result row.
const (
	ResultSubmission ResultKind = "submission"
	ResultCorrection ResultKind = "correction"
)

// GamePlace is one player's outcome in one game: what the standings need.
type GamePlace struct {
	Player  string
	Place   int // 1-based; players sharing a place share its number
	Score   int // game points (final total)
	Points  int // placement points earned
	Forfeit bool
}

// GameResult is one stored result of a game: the record as submitted, the
// engine's result of it, and the places it gives.
type GameResult struct {
	ID          int64
	Key         GameKey
	Kind        ResultKind
	Supersedes  *int64 // the row a correction replaces
	Record      json.RawMessage
	RecordHash  []byte // SHA-256 of the record's canonical JSON
	Result      json.RawMessage
	Places      []GamePlace
	SubmittedBy string // the actor, e.g. "organizer" or "table:2/3"; never a token
	CreatedAt   time.Time
}

// PlacementPoints returns each player's placement points in the game.
func (r *GameResult) PlacementPoints() map[string]int {
	m := make(map[string]int, len(r.Places))
	for _, p := range r.Places {
		m[p.Player] = p.Points
	}
	return m
}

// PointsFor returns the placement points for a (1-based) place.
func (s Settings) PointsFor(place int) int {
	if place < 1 || place > len(s.PlacementPoints) {
		return 0
	}
	return s.PlacementPoints[place-1]
}

// Places builds the game places from the engine's placements, giving each
// its placement points.
func (s Settings) Places(res *engine.GameResult) []GamePlace {
	out := make([]GamePlace, len(res.Placements))
	for i, p := range res.Placements {
		out[i] = GamePlace{Player: p.Player, Place: p.Place, Score: p.Score, Points: s.PointsFor(p.Place),
			Forfeit: slices.Contains(res.Forfeits, p.Player)}
	}
	return out
}
