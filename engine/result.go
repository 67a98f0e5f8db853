package engine

import "encoding/json"

// Problem is an error in a record: it could not have happened.
type Problem struct {
	// Code is a stable snake_case code from docs/records.md.
	Code string `json:"code"`
	// Path is an RFC 6901 JSON Pointer into the record ("" is the whole record).
	Path    string `json:"path"`
	Message string `json:"message"`
	Player  string `json:"player,omitempty"`
	// At is the place Path names, as data.
	At Location `json:"-"`
}

// Error returns "path: message".
func (p Problem) Error() string { return p.Path + ": " + p.Message }

// Violation is a rule breach that did happen at the table and is scored as played.
type Violation struct {
	Code   string `json:"code"`
	Path   string `json:"path"`
	Player string `json:"player"`
	// Consequence is "forfeit_game" or "penalty".
	Consequence string `json:"consequence"`
	Message     string `json:"message"`
}

// Award is points scored in a deal by one player from one source.
type Award struct {
	Player string `json:"player"`
	// Source is "hand1", "hand2", "last_trick", "chicago" or "hand3".
	Source string `json:"source"`
	Points int    `json:"points"`
	// Category is the category scored for hand sources of full deals.
	Category string `json:"category,omitempty"`
}

// Ways a deal ends (DealResult.Ended).
const (
	EndedComplete    = "complete"
	EndedChicagoLost = "chicago_lost"
)

// DealResult is the answer to a deal record.
type DealResult struct {
	Valid      bool        `json:"valid"`
	Errors     []Problem   `json:"errors"`
	Violations []Violation `json:"violations"`
	Awards     []Award     `json:"awards"`
	// Points is the net change per player in this deal after the floor.
	Points map[string]int `json:"points"`
	// Scores are the totals after the deal.
	Scores map[string]int `json:"scores"`
	// Ended is "complete" or "chicago_lost"; empty for an invalid deal.
	Ended    string   `json:"ended,omitempty"`
	GameOver bool     `json:"game_over"`
	Winners  []string `json:"winners"`
}

// Placement is one player's place in a game.
type Placement struct {
	Player string `json:"player"`
	Place  int    `json:"place"`
	Score  int    `json:"score"`
}

// GameResult is the answer to a game record.
type GameResult struct {
	Valid bool `json:"valid"`
	// Errors holds the game's errors and those of its deals, with paths from
	// the game record's root: the first MaxReportedErrors of them.
	Errors []Problem `json:"errors"`
	// ErrorsOmitted is the number of errors past MaxReportedErrors, which
	// are not listed.
	ErrorsOmitted int `json:"errors_omitted,omitempty"`
	// Violations holds the violations of all deals, with paths from the root.
	Violations []Violation `json:"violations"`
	// Deals holds one result per deal, with paths inside that deal.
	Deals      []DealResult   `json:"deals"`
	Scores     map[string]int `json:"scores"`
	GameOver   bool           `json:"game_over"`
	Winners    []string       `json:"winners"`
	Placements []Placement    `json:"placements"`
	// Forfeits are the players who forfeited the game, in seat order.
	Forfeits []string `json:"forfeits"`
}

// MarshalJSON writes r with empty lists as [] and empty maps as {}.
func (r DealResult) MarshalJSON() ([]byte, error) {
	type plain DealResult
	c := plain(r)
	c.Errors = nonNil(c.Errors)
	c.Violations = nonNil(c.Violations)
	c.Awards = nonNil(c.Awards)
	c.Winners = nonNil(c.Winners)
	c.Points = nonNilMap(c.Points)
	c.Scores = nonNilMap(c.Scores)
	return json.Marshal(c)
}

// boundErrors keeps the first MaxReportedErrors errors and counts the rest.
func (r *GameResult) boundErrors() {
	if len(r.Errors) > MaxReportedErrors {
		r.ErrorsOmitted = len(r.Errors) - MaxReportedErrors
		r.Errors = r.Errors[:MaxReportedErrors:MaxReportedErrors]
	}
}

// MarshalJSON writes r with empty lists as [] and empty maps as {}.
func (r GameResult) MarshalJSON() ([]byte, error) {
	type plain GameResult
	c := plain(r)
	c.Errors = nonNil(c.Errors)
	c.Violations = nonNil(c.Violations)
	c.Deals = nonNil(c.Deals)
	c.Winners = nonNil(c.Winners)
	c.Placements = nonNil(c.Placements)
	c.Forfeits = nonNil(c.Forfeits)
	c.Scores = nonNilMap(c.Scores)
	return json.Marshal(c)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func nonNilMap(m map[string]int) map[string]int {
	if m == nil {
		return map[string]int{}
	}
	return m
}
