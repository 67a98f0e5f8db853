package tournament

import (
	"encoding/json"
	"errors"
	"fmt"
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
	// FormatBridge is an individual Chicago bridge event (docs/bridge.md):
	// each round every table of four plays one Chicago with new partners,
	// a table of two plays draw bridge, and the standings add each round's
	// difference between the own side's total and the other side's.
	FormatBridge Format = "bridge_chicago"
)

// Cumulative reports whether everyone plays every round and the standings
// add the rounds up (swiss and bridge), rather than sm's knockout.
func (f Format) Cumulative() bool { return f == FormatSwiss || f == FormatBridge }

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
	MaxNameLen       = 200
	MaxGamesPerRound = 20
	maxRounds        = 100
)

// Settings are a tournament's rules of play, set at creation and changeable
// (SettingsChange) until round 1 is drawn.
type Settings struct {
	Rules           json.RawMessage // the engine's rules object; nil means the sm preset
	GamesPerRound   int
	PlacementPoints []int // points by place, best first; a table of 3 uses the first three
	// AdvancePerTable is, in sm, how many of each table go on from each
	// round: the first value for round 1, the second for round 2, and the
	// last value for every round after (Chicago-SM: [2, 2, 1], two a table
	// on day 1 and one on day 2).
	AdvancePerTable []int
	Rounds          int // swiss: how many rounds are played
	FinalSize       int // sm: at most this many left play the final table
	// FinalGames is how many games the final table plays (0: GamesPerRound).
	FinalGames int
	// DayBreaks lists the rounds after which a day (session) ends,
	// ascending: [2] makes rounds 1-2 day 1 and the rest day 2. The first
	// round of a day is drawn by a fresh lot: meetings of earlier days are
	// not looked at.
	DayBreaks []int
	Tiebreaks []string
	Seating   string // swiss: SeatingMixed or SeatingByStandings
	// Language is the default language of the tournament's pages (one of
	// Languages), for visitors who chose none and whose browser asks for
	// none of them; "" leaves them English.
	Language string
	// TimeZone is where the tournament is played (an IANA name): the
	// pages show its times there. Default DefaultTimeZone.
	TimeZone string
	// CorrectionMinutes is how long a closed round's results stay
	// provisional (disputes are taken): DefaultCorrectionMinutes unless
	// set, 0 for none.
	CorrectionMinutes int
}

// DefaultTimeZone is where Chicago is mostly played.
const DefaultTimeZone = "Europe/Stockholm"

// Location returns the tournament's time zone (UTC for a name this
// server's time zone database does not know).
func (s Settings) Location() *time.Location {
	if s.TimeZone == "" {
		s.TimeZone = DefaultTimeZone
	}
	loc, err := time.LoadLocation(s.TimeZone)
	if err != nil {
		return time.UTC
	}
	return loc
}

// Languages are the languages of the pages, which a tournament may name as
// its default.
var Languages = []string{"sv", "nb", "da", "fi", "en"}

// AdvanceIn returns how many of each table go on from round n (sm).
func (s Settings) AdvanceIn(n int) int {
	if len(s.AdvancePerTable) == 0 {
		return 0
	}
	return s.AdvancePerTable[min(n, len(s.AdvancePerTable))-1]
}

// AdvanceQuota returns how many of each table of round r go on: in the
// SM the quota of its round (one from the final), in the other formats
// none (nobody is eliminated).
func (t *Tournament) AdvanceQuota(r *Round) int {
	if t.Format != FormatSM {
		return 0
	}
	if r.Final {
		return 1
	}
	return t.Settings.AdvanceIn(r.Number)
}

// DayOf returns the day (1, 2, ...) round n is played on.
func (s Settings) DayOf(n int) int {
	day := 1
	for _, b := range s.DayBreaks {
		if n > b {
			day++
		}
	}
	return day
}

// FirstRoundOfDay returns the first round of round n's day.
func (s Settings) FirstRoundOfDay(n int) int {
	first := 1
	for _, b := range s.DayBreaks {
		if n > b {
			first = b + 1
		}
	}
	return first
}

// GamesIn returns how many games each table plays in a round (final or not).
func (s Settings) GamesIn(final bool) int {
	if final && s.FinalGames > 0 {
		return s.FinalGames
	}
	return s.GamesPerRound
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
	Listing
}

// NewTournament is what the admin gives to create a tournament. Nil and
// zero fields take their defaults.
type NewTournament struct {
	Name            string
	Format          Format
	Rules           json.RawMessage
	GamesPerRound   *int
	PlacementPoints []int
	AdvancePerTable []int // nil: [2]
	Rounds          *int
	FinalSize       *int
	FinalGames      *int
	DayBreaks       []int
	Tiebreaks       []string
	Seating         string
	Language        string
	TimeZone        string // "": DefaultTimeZone
	// CorrectionMinutes is the correction window (nil: DefaultCorrectionMinutes).
	CorrectionMinutes *int
	// Listing says whether the home page lists the tournament, and where
	// and when it is played; its ShortCode is made by the service.
	Listing Listing
}

// Settings validates n and returns the settings with defaults filled in.
func (n NewTournament) Settings() (Settings, error) {
	s := Settings{
		Rules:           n.Rules,
		GamesPerRound:   intOr(n.GamesPerRound, 3),
		PlacementPoints: n.PlacementPoints,
		AdvancePerTable: slices.Clone(n.AdvancePerTable),
		Rounds:          intOr(n.Rounds, 0),
		FinalSize:       intOr(n.FinalSize, 4),
		FinalGames:      intOr(n.FinalGames, 0),
		DayBreaks:       slices.Clone(n.DayBreaks),
		Tiebreaks:       n.Tiebreaks,
		Seating:         n.Seating,
		Language:        n.Language,
		TimeZone:        n.TimeZone,

		CorrectionMinutes: intOr(n.CorrectionMinutes, DefaultCorrectionMinutes),
	}
	if s.TimeZone == "" {
		s.TimeZone = DefaultTimeZone
	}
	if s.PlacementPoints == nil {
		s.PlacementPoints = slices.Clone(defaultPlacementPoints)
	}
	if s.Tiebreaks == nil {
		s.Tiebreaks = slices.Clone(defaultTiebreaks)
		if n.Format == FormatBridge {
			s.Tiebreaks = slices.Clone(bridgeTiebreaks)
		}
	}
	if n.Format == FormatBridge && n.GamesPerRound == nil {
		s.GamesPerRound = 1
	}
	if len(s.AdvancePerTable) == 0 {
		s.AdvancePerTable = []int{2}
	}
	if s.DayBreaks == nil {
		s.DayBreaks = []int{}
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
	if ps := settingsProblems(strings.TrimSpace(n.Name), n.Format, s); len(ps) > 0 {
		return InvalidField(ps[0].Field, "%s", ps[0].Message)
	}
	return nil
}

// FieldProblem is what is wrong with one field of a tournament's settings.
type FieldProblem struct {
	Field   string // the API's name of the field ("placement_points")
	Message string
}

// problems collects at most one FieldProblem per field, the first found.
type problems []FieldProblem

func (ps *problems) add(field, format string, args ...any) {
	for _, p := range *ps {
		if p.Field == field {
			return
		}
	}
	*ps = append(*ps, FieldProblem{Field: field, Message: fmt.Sprintf(format, args...)})
}

// addErr adds err's message under its field when err is a field's error.
func (ps *problems) addErr(err error) {
	var e *Error
	if errors.As(err, &e) && e.Field() != "" {
		ps.add(e.Field(), "%s", e.Message)
	}
}

// settingsProblems checks a tournament's name and settings in format f
// and returns every field at fault, each with its first problem, in the
// order of the checks (the order NewTournament reports the first of).
func settingsProblems(name string, f Format, s Settings) []FieldProblem {
	var ps problems
	ps.addErr(CheckLine("name", name, MaxNameLen, true))
	if f != FormatSM && f != FormatSwiss && f != FormatBridge {
		ps.add("format", "format must be \"sm\", \"swiss\" or \"bridge_chicago\", not %q", f)
	}
	if f == FormatBridge && s.GamesPerRound != 1 {
		ps.add("games_per_round", "a bridge_chicago round is one Chicago a table: games_per_round is 1")
	}
	if f == FormatBridge && s.Seating != SeatingMixed {
		ps.add("seating", "bridge_chicago seats players mixed (new partners every round)")
	}
	if s.GamesPerRound < 1 || s.GamesPerRound > MaxGamesPerRound {
		ps.add("games_per_round", "games_per_round must be between 1 and %d", MaxGamesPerRound)
	}
	if len(s.PlacementPoints) != 4 {
		ps.add("placement_points", "placement_points must list points for places 1 to 4")
	} else if !nonIncreasing(s.PlacementPoints) {
		ps.add("placement_points", "placement_points must be non-negative and never grow with the place")
	}
	if s.FinalSize < 3 || s.FinalSize > 4 {
		ps.add("final_size", "final_size must be 3 or 4")
	}
	if s.FinalGames < 0 || s.FinalGames > MaxGamesPerRound {
		ps.add("final_games", "final_games must be between 1 and %d (or left out: games_per_round)", MaxGamesPerRound)
	}
	if s.Seating != SeatingMixed && s.Seating != SeatingByStandings {
		ps.add("seating", "seating must be %q or %q", SeatingMixed, SeatingByStandings)
	}
	if !validTimeZone(s.TimeZone) {
		ps.add("time_zone", "time_zone must name a time zone such as %q, not %q", DefaultTimeZone, s.TimeZone)
	}
	if s.Language != "" && !slices.Contains(Languages, s.Language) {
		ps.add("language", "language must be one of %s (or left out)", strings.Join(Languages, ", "))
	}
	if s.CorrectionMinutes < 0 || s.CorrectionMinutes > MaxCorrectionMinutes {
		ps.add("correction_minutes", "correction_minutes must be between 0 and %d", MaxCorrectionMinutes)
	}
	ps.addErr(validateTiebreaks(s.Tiebreaks))
	ps.addErr(validateDayBreaks(s.DayBreaks))
	if f == FormatSM {
		ps.addErr(validateAdvance(s.AdvancePerTable))
		if s.Rounds != 0 {
			ps.add("rounds", "rounds is for swiss tournaments; sm plays until the final")
		}
	} else if s.Rounds < 1 || s.Rounds > maxRounds {
		ps.add("rounds", "a %s tournament needs rounds between 1 and %d", f, maxRounds)
	}
	return ps
}

// validateAdvance wants 1 or 2 for every round, for at most maxRounds.
func validateAdvance(as []int) error {
	if len(as) == 0 {
		return InvalidField("advance_per_table", "advance_per_table must say how many of each table go on (1 or 2)")
	}
	if len(as) > maxRounds {
		return InvalidField("advance_per_table", "advance_per_table lists at most %d rounds", maxRounds)
	}
	for _, a := range as {
		if a < 1 || a > 2 {
			return InvalidField("advance_per_table", "advance_per_table must be 1 or 2 in every round (a table of 3 must leave someone out)")
		}
	}
	return nil
}

// validateDayBreaks wants rounds in increasing order between 1 and maxRounds.
func validateDayBreaks(bs []int) error {
	if len(bs) > maxRounds {
		return InvalidField("day_breaks", "day_breaks lists at most %d rounds", maxRounds)
	}
	for i, b := range bs {
		if b < 1 || b > maxRounds || (i > 0 && b <= bs[i-1]) {
			return InvalidField("day_breaks", "day_breaks must list round numbers (1 to %d) in increasing order, each the last round of a day", maxRounds)
		}
	}
	return nil
}

func validateTiebreaks(tbs []string) error {
	seen := map[string]bool{}
	for _, tb := range tbs {
		switch tb {
		case TiebreakGamePoints, TiebreakGamesWon, TiebreakBestGame, TiebreakLot:
		default:
			return InvalidField("tiebreaks", "unknown tiebreak %q (known: game_points, games_won, best_game, lot)", tb)
		}
		if seen[tb] {
			return InvalidField("tiebreaks", "tiebreak %q is listed twice", tb)
		}
		seen[tb] = true
	}
	if len(tbs) > 0 && slices.Index(tbs, TiebreakLot) >= 0 && tbs[len(tbs)-1] != TiebreakLot {
		return InvalidField("tiebreaks", "lot must be the last tiebreak: nothing can follow a lot")
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

// Uses reports whether the tournament's tiebreaks include tb.
func (s Settings) Uses(tb string) bool { return slices.Contains(s.Tiebreaks, tb) }

// validTimeZone reports whether name is an IANA time zone this server
// knows ("Local" and "" are not: a tournament names its place).
func validTimeZone(name string) bool {
	if name == "" || name == "Local" || len(name) > 64 {
		return false
	}
	_, err := time.LoadLocation(name)
	return err == nil
}

// DefaultCorrectionMinutes is how long a closed round's results stay
// provisional unless the tournament says otherwise.
const DefaultCorrectionMinutes = 30

// MaxCorrectionMinutes bounds the correction window and a reopening: a week.
const MaxCorrectionMinutes = 7 * 24 * 60
