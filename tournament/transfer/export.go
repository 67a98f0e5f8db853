package transfer

import (
	"context"
	"encoding/json"
	"reflect"
	"time"

	"github.com/revisor-sm/revisor/tournament"
)

// ExportFormat names the file format of an exported tournament.
const ExportFormat = "revisor-tournament/1"

// Export is a whole tournament as a file: what `revisor import` loads into
// another server. It holds no secrets: the importing server makes a new
// organizer token and new table codes.
type Export struct {
	Format      string             `json:"format"`
	ExportedAt  time.Time          `json:"exported_at"`
	Tournament  ExportTournament   `json:"tournament"`
	Players     []ExportPlayer     `json:"players"`
	Rounds      []ExportRound      `json:"rounds"`
	Results     []ExportResult     `json:"results"`
	Outcomes    []ExportOutcome    `json:"outcomes"`
	Resolutions []ExportResolution `json:"tie_resolutions"`
	// History is everything else of the tournament (issue 13): absent
	// from files of older servers, whose import carries the effective
	// results only.
	History *ExportHistory `json:"history,omitempty"`
}

// ExportTournament is the tournament and its settings.
type ExportTournament struct {
	ID              string          `json:"id"`
	Name            string          `json:"name"`
	Format          string          `json:"format"`
	Rules           json.RawMessage `json:"rules,omitempty"`
	GamesPerRound   int             `json:"games_per_round"`
	PlacementPoints []int           `json:"placement_points"`
	AdvancePerTable IntOrList       `json:"advance_per_table"`
	Rounds          int             `json:"rounds"`
	FinalSize       int             `json:"final_size"`
	FinalGames      int             `json:"final_games,omitempty"`
	DayBreaks       []int           `json:"day_breaks,omitempty"`
	Tiebreaks       []string        `json:"tiebreaks"`
	Seating         string          `json:"seating"`
	Language        string          `json:"language,omitempty"`
	TimeZone        string          `json:"time_zone,omitempty"`
	Status          string          `json:"status"`
	Champion        string          `json:"champion,omitempty"`
	CreatedAt       time.Time       `json:"created_at"`
}

// ExportPlayer is one player.
type ExportPlayer struct {
	ID        string    `json:"id"`
	Seq       int       `json:"seq"`
	Name      string    `json:"name"`
	Club      string    `json:"club"`
	Status    string    `json:"status"`
	CreatedAt time.Time `json:"created_at"`
}

// ExportRound is one round with its seating.
type ExportRound struct {
	Number int   `json:"number"`
	Seed   int64 `json:"seed"`
	// Constraints are the fixed tables and players kept apart the round was drawn under.
	Constraints *tournament.ExportConstraints `json:"constraints,omitempty"`
	// SearchSteps is where the clock cut the draw's search (Round.SearchSteps).
	SearchSteps int           `json:"search_steps,omitempty"`
	Final       bool          `json:"final"`
	Status      string        `json:"status"`
	CreatedAt   time.Time     `json:"created_at"`
	ClosedAt    *time.Time    `json:"closed_at,omitempty"`
	Tables      []ExportTable `json:"tables"`
}

// ExportTable is one table: players in seat order, the seat (1 to 4) of
// each (absent: seats 1, 2, … in order) and the first dealer.
type ExportTable struct {
	Number      int      `json:"number"`
	Players     []string `json:"players"`
	Seats       []int    `json:"seats,omitempty"`
	FirstDealer string   `json:"first_dealer"`
	// Withdrawals are the players withdrawn during a game at the table,
	// which change that game's places and the later ones' (withdrawal.go).
	Withdrawals []ExportWithdrawal `json:"withdrawals,omitempty"`
}

// ExportWithdrawal is a player withdrawn during a game: the game, the
// organizer's choice, why, by whom and when.
type ExportWithdrawal struct {
	Player   string    `json:"player"`
	Game     int       `json:"game"`
	Handling string    `json:"handling"`
	Reason   string    `json:"reason"`
	By       string    `json:"by"`
	At       time.Time `json:"at"`
}

// ExportResult is the effective result of one game: the record and the
// places it gives. The engine's full judgement is left out: it follows from
// the record, and an import computes it again.
type ExportResult struct {
	Round       int             `json:"round"`
	Table       int             `json:"table"`
	Game        int             `json:"game"`
	Kind        string          `json:"kind"`
	Record      json.RawMessage `json:"record"`
	Places      []ExportPlace   `json:"places"`
	SubmittedBy string          `json:"submitted_by"`
	CreatedAt   time.Time       `json:"created_at"`
}

// ExportPlace is one player's place in a game.
type ExportPlace struct {
	Player  string `json:"player"`
	Place   int    `json:"place"`
	Score   int    `json:"score"`
	Points  int    `json:"points"`
	Forfeit bool   `json:"forfeit,omitempty"`
}

// ExportOutcome is one player's outcome of a closed round.
type ExportOutcome struct {
	Round    int    `json:"round"`
	Table    int    `json:"table"`
	Player   string `json:"player"`
	Rank     int    `json:"rank"`
	Advanced bool   `json:"advanced"`
}

// ExportResolution is an organizer's resolution of a tie.
type ExportResolution struct {
	Round     int       `json:"round"`
	Players   []string  `json:"players"`
	Method    string    `json:"method"`
	Note      string    `json:"note"`
	By        string    `json:"by"`
	CreatedAt time.Time `json:"created_at"`
}

// Export returns the whole tournament for the organizer to download.
func (s *Service) Export(ctx context.Context, a tournament.Actor, tid string) (*Export, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	st, err := s.store.State(ctx, tid)
	if err != nil {
		return nil, err
	}
	// The state holds places only; the export carries the records too.
	var full []tournament.GameResult
	if r, ok := s.store.(ExportReader); ok {
		full, err = r.ExportResults(ctx, tid)
	} else {
		full, err = s.store.Results(ctx, tid, 0)
	}
	if err != nil {
		return nil, err
	}
	st.Results = full
	ex := ExportOf(st, s.core.Now())
	if hs, ok := s.store.(HistoryStore); ok {
		if ex.History, err = hs.ExportHistory(ctx, tid); err != nil {
			return nil, err
		}
	}
	return ex, nil
}

// ExportOf converts a state into the export format.
func ExportOf(st *tournament.State, now time.Time) *Export {
	t := &st.Tournament
	ex := &Export{Format: ExportFormat, ExportedAt: now, Tournament: ExportTournament{ID: t.ID, Name: t.Name,
		Format: string(t.Format), Rules: t.Settings.Rules, GamesPerRound: t.Settings.GamesPerRound,
		PlacementPoints: t.Settings.PlacementPoints, AdvancePerTable: t.Settings.AdvancePerTable,
		FinalGames: t.Settings.FinalGames, DayBreaks: t.Settings.DayBreaks,
		Rounds: t.Settings.Rounds, FinalSize: t.Settings.FinalSize, Tiebreaks: t.Settings.Tiebreaks,
		Seating: t.Settings.Seating, Language: t.Settings.Language, TimeZone: t.Settings.TimeZone, Status: string(t.Status), Champion: t.Champion, CreatedAt: t.CreatedAt},
		Players: []ExportPlayer{}, Rounds: []ExportRound{}, Results: []ExportResult{},
		Outcomes: []ExportOutcome{}, Resolutions: []ExportResolution{}}
	for _, p := range st.Players {
		ex.Players = append(ex.Players, ExportPlayer{ID: p.ID, Seq: p.Seq, Name: p.Name, Club: p.Club,
			Status: string(p.Status), CreatedAt: p.CreatedAt})
	}
	for _, r := range st.Rounds {
		er := ExportRound{Number: r.Number, Seed: r.Seed, Constraints: r.Constraints.Export(), SearchSteps: r.SearchSteps, Final: r.Final, Status: string(r.Status),
			CreatedAt: r.CreatedAt, ClosedAt: r.ClosedAt, Tables: []ExportTable{}}
		for _, tb := range r.Tables {
			et := ExportTable{Number: tb.Number, Players: tb.Players, Seats: tb.Seats, FirstDealer: tb.FirstDealer}
			for _, w := range tb.Withdrawals {
				et.Withdrawals = append(et.Withdrawals, ExportWithdrawal{Player: w.Player, Game: w.Game,
					Handling: string(w.Handling), Reason: w.Reason, By: w.By, At: w.CreatedAt})
			}
			er.Tables = append(er.Tables, et)
		}
		ex.Rounds = append(ex.Rounds, er)
	}
	for _, res := range st.Results {
		xr := ExportResult{Round: res.Key.Round, Table: res.Key.Table, Game: res.Key.Game, Kind: string(res.Kind),
			Record: res.Record, SubmittedBy: res.SubmittedBy, CreatedAt: res.CreatedAt,
			Places: []ExportPlace{}}
		for _, p := range res.Places {
			xr.Places = append(xr.Places, ExportPlace{Player: p.Player, Place: p.Place, Score: p.Score, Points: p.Points, Forfeit: p.Forfeit})
		}
		ex.Results = append(ex.Results, xr)
	}
	for _, o := range st.Outcomes {
		ex.Outcomes = append(ex.Outcomes, ExportOutcome{Round: o.Round, Table: o.Table, Player: o.Player, Rank: o.Rank, Advanced: o.Advanced})
	}
	for _, r := range st.Resolutions {
		ex.Resolutions = append(ex.Resolutions, ExportResolution{Round: r.Round, Players: r.Players, Method: r.Method,
			Note: r.Note, By: r.By, CreatedAt: r.CreatedAt})
	}
	return ex
}

// ExportReader is a store that reads every game's effective record and
// places without the engine's judgement, which an export leaves out.
type ExportReader interface {
	ExportResults(ctx context.Context, tid string) ([]tournament.GameResult, error)
}

// IntOrList is a list of numbers written in JSON as one number when it has
// exactly one (advance_per_table: 2) and as an array otherwise ([2, 2, 1]);
// it reads either.
type IntOrList []int

// MarshalJSON writes one value as a number, several as an array.
func (l IntOrList) MarshalJSON() ([]byte, error) {
	if len(l) == 1 {
		return json.Marshal(l[0])
	}
	return json.Marshal([]int(l))
}

// UnmarshalJSON reads a number or an array of numbers.
func (l *IntOrList) UnmarshalJSON(b []byte) error {
	var n int
	if err := json.Unmarshal(b, &n); err == nil {
		*l = IntOrList{n}
		return nil
	}
	var xs []int
	if err := json.Unmarshal(b, &xs); err != nil {
		// The decoder adds the field's path to a type error.
		return &json.UnmarshalTypeError{Value: "not a number or an array of numbers", Type: reflect.TypeFor[[]int]()}
	}
	*l = xs
	return nil
}
