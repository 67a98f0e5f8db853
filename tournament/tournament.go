package tournament

import (
	"encoding/json"
	"slices"
	"strings"
	"time"
)

// Format is how a tournament moves players from round to round.
type Format string

// The formats Revisor runs.
const (
	// FormatSM is the Chicago-SM knockout: the best of each table go on until
	// a final table decides the champion.
	FormatSM Format = "sm"
	// FormatSwiss is the club format: everyone plays every round and the
	// standings are cumulative.
	FormatSwiss Format = "swiss"
)

// Status is where a tournament is in its life.
type Status string

// The statuses of a tournament.
const (
	StatusRegistration Status = "registration" // no round drawn yet
	StatusRunning      Status = "running"      // at least one round drawn
	StatusFinished     Status = "finished"     // sm final closed, or the last swiss round closed
)

// Seating modes for Swiss rounds.
const (
	SeatingMixed       = "mixed"        // as few repeat meetings as possible
	SeatingByStandings = "by_standings" // players of similar standing together
)

// The tiebreaks a tournament may list, applied in the given order after the
// placement points. TiebreakLot draws a lot from the round's seed; without it
// a tie at an advancement line is left for the organizer to resolve.
const (
	TiebreakGamePoints = "game_points"
	TiebreakGamesWon   = "games_won"
	TiebreakBestGame   = "best_game"
	TiebreakLot        = "lot"
)

// Defaults for a new tournament's settings.
var (
	defaultPlacementPoints = []int{20, 12, 8, 5}
	defaultTiebreaks       = []string{TiebreakGamePoints, TiebreakGamesWon, TiebreakBestGame, TiebreakLot}
)

// Limits on settings, so that a tournament stays something a club can run.
const (
	maxNameLen       = 200
	maxGamesPerRound = 20
	maxRounds        = 100
)

// Settings are a tournament's rules of play, fixed at creation.
type Settings struct {
	Rules           json.RawMessage // the engine's rules object; nil means the sm preset
	GamesPerRound   int
	PlacementPoints []int // points by place, best first; a table of 3 uses the first three
	AdvancePerTable int   // sm: how many of each table go on
	Rounds          int   // swiss: how many rounds are played
	FinalSize       int   // sm: at most this many left play the final table
	Tiebreaks       []string
	Seating         string // swiss: SeatingMixed or SeatingByStandings
}

// Tournament is one competition with its players and rounds.
type Tournament struct {
	ID       string
	Name     string
	Format   Format
	Settings Settings
	Status   Status
	Champion string // sm: the winner of the final table, once it is closed
	// CurrentRound is the number of the latest round drawn (0: none yet).
	CurrentRound int
	CreatedAt    time.Time
}

// NewTournament is what the admin gives to create a tournament. Nil and
// zero fields take their defaults.
type NewTournament struct {
	Name            string
	Format          Format
	Rules           json.RawMessage
	GamesPerRound   *int
	PlacementPoints []int
	AdvancePerTable *int
	Rounds          *int
	FinalSize       *int
	Tiebreaks       []string
	Seating         string
}

// settings validates n and returns the settings with defaults filled in.
func (n NewTournament) settings() (Settings, error) {
	s := Settings{
		Rules:           n.Rules,
		GamesPerRound:   intOr(n.GamesPerRound, 3),
		PlacementPoints: n.PlacementPoints,
		AdvancePerTable: intOr(n.AdvancePerTable, 2),
		Rounds:          intOr(n.Rounds, 0),
		FinalSize:       intOr(n.FinalSize, 4),
		Tiebreaks:       n.Tiebreaks,
		Seating:         n.Seating,
	}
	if s.PlacementPoints == nil {
		s.PlacementPoints = slices.Clone(defaultPlacementPoints)
	}
	if s.Tiebreaks == nil {
		s.Tiebreaks = slices.Clone(defaultTiebreaks)
	}
	if s.Seating == "" {
		s.Seating = SeatingMixed
	}
	if len(s.Rules) == 0 || string(s.Rules) == "null" {
		s.Rules = nil
	}
	return s, n.validate(s)
}

func (n NewTournament) validate(s Settings) error {
	if err := checkLine("name", strings.TrimSpace(n.Name), maxNameLen, true); err != nil {
		return err
	}
	switch {
	case n.Format != FormatSM && n.Format != FormatSwiss:
		return invalidField("format", "format must be \"sm\" or \"swiss\", not %q", n.Format)
	case s.GamesPerRound < 1 || s.GamesPerRound > maxGamesPerRound:
		return invalidField("games_per_round", "games_per_round must be between 1 and %d", maxGamesPerRound)
	case len(s.PlacementPoints) != 4:
		return invalidField("placement_points", "placement_points must list points for places 1 to 4")
	case !nonIncreasing(s.PlacementPoints):
		return invalidField("placement_points", "placement_points must be non-negative and never grow with the place")
	case s.FinalSize < 3 || s.FinalSize > 4:
		return invalidField("final_size", "final_size must be 3 or 4")
	case s.Seating != SeatingMixed && s.Seating != SeatingByStandings:
		return invalidField("seating", "seating must be %q or %q", SeatingMixed, SeatingByStandings)
	}
	if err := validateTiebreaks(s.Tiebreaks); err != nil {
		return err
	}
	if n.Format == FormatSM {
		if s.AdvancePerTable < 1 || s.AdvancePerTable > 2 {
			return invalidField("advance_per_table", "advance_per_table must be 1 or 2 (a table of 3 must leave someone out)")
		}
		if n.Rounds != nil && *n.Rounds != 0 {
			return invalidField("rounds", "rounds is for swiss tournaments; sm plays until the final")
		}
		return nil
	}
	if s.Rounds < 1 || s.Rounds > maxRounds {
		return invalidField("rounds", "a swiss tournament needs rounds between 1 and %d", maxRounds)
	}
	return nil
}

func validateTiebreaks(tbs []string) error {
	seen := map[string]bool{}
	for _, tb := range tbs {
		switch tb {
		case TiebreakGamePoints, TiebreakGamesWon, TiebreakBestGame, TiebreakLot:
		default:
			return invalidField("tiebreaks", "unknown tiebreak %q (known: game_points, games_won, best_game, lot)", tb)
		}
		if seen[tb] {
			return invalidField("tiebreaks", "tiebreak %q is listed twice", tb)
		}
		seen[tb] = true
	}
	if len(tbs) > 0 && slices.Index(tbs, TiebreakLot) >= 0 && tbs[len(tbs)-1] != TiebreakLot {
		return invalidField("tiebreaks", "lot must be the last tiebreak: nothing can follow a lot")
	}
	return nil
}

func nonIncreasing(pts []int) bool {
	for i, p := range pts {
		if p < 0 || (i > 0 && p > pts[i-1]) {
			return false
		}
	}
	return true
}

func intOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

// invalidField is a 400 naming the field at fault.
func invalidField(field, format string, args ...any) *Error {
	e := Errorf(KindInvalid, "invalid_"+field, format, args...)
	e.Details = map[string]any{"field": field}
	return e
}

// Uses reports whether the tournament's tiebreaks include tb.
func (s Settings) Uses(tb string) bool { return slices.Contains(s.Tiebreaks, tb) }
