// Package sheet is the score sheet of a game as the table page
// (web/table), the console's result form, the referees' corrections and
// the printed sheets (web/console) all show it: its columns, the values of
// its fields, its rows, the words of the engine's problems beside them,
// and a bridge deal's choices.
package sheet

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/referee"
	"github.com/revisor-sm/revisor/web/site"
)

// Sources are the columns of a deal row, in the order of the score
// sheet; "last" is last trick or Chicago.
var Sources = []string{"hand1", "hand2", "last", "hand3"}

// FormField is one input of the result grid.
type FormField struct {
	Name, Value, Label string
	Bad                bool
}

// StoredResult is an accepted result as the result page shows it.
type StoredResult struct {
	By, At string
	Places []PlaceView
}

// PlaceView is one player's place, score and points in a game's result.
type PlaceView struct {
	Name                 string
	Place, Score, Points int
}

// Stored is the accepted result res as the pages show it, with the
// players' names.
func Stored(p *site.Page, res tournament.GameResult, names map[string]tournament.Player) *StoredResult {
	s := &StoredResult{By: SubmitterWords(p, res.SubmittedBy), At: p.Loc().DateTime(res.CreatedAt)}
	for _, pl := range res.Places {
		s.Places = append(s.Places, PlaceView{Name: names[pl.Player].Name, Place: pl.Place, Score: pl.Score, Points: pl.Points})
	}
	return s
}

// SourceLabel are the texts' keys of the columns of Sources.
var SourceLabel = []string{"sheet.p1", "sheet.p2", "sheet.lt", "sheet.fh"}

// LastTrickPoints reads last_trick_points from a tournament's rules (5
// under sm), to tell a last trick from a Chicago in the form.
func LastTrickPoints(rules json.RawMessage) int {
	var r struct {
		LastTrick *int `json:"last_trick_points"`
	}
	if json.Unmarshal(rules, &r) == nil && r.LastTrick != nil {
		return *r.LastTrick
	}
	return 5
}

// ChicagoPoints reads chicago_points from a tournament's rules (15 under
// sm), the value of a Chicago won or lost on the table page.
func ChicagoPoints(rules json.RawMessage) int {
	var r struct {
		Chicago *int `json:"chicago_points"`
	}
	if json.Unmarshal(rules, &r) == nil && r.Chicago != nil {
		return *r.Chicago
	}
	return 15
}

// ParseValue reads one field: a number, and for the last-trick column
// the source it scores (a C prefix, or a value other than the last
// trick's points, is a Chicago).
func ParseValue(src, s string, lastTrick int) (string, int, bool) {
	chicago := false
	if src == "last" {
		if rest, ok := strings.CutPrefix(strings.ToUpper(s), "C"); ok {
			s, chicago = strings.TrimSpace(rest), true
		}
	}
	s = strings.Replace(s, "−", "-", 1) // a typographic minus
	v, err := strconv.Atoi(strings.TrimPrefix(s, "+"))
	if err != nil {
		return "", 0, false
	}
	if src != "last" {
		return src, v, true
	}
	if chicago || v != lastTrick {
		return "chicago", v, true
	}
	return "last_trick", v, true
}

// Column is the form column of each source of a sheet line.
var Column = map[string]int{engine.SourceHand1: 0, engine.SourceHand2: 1, engine.SourceLastTrick: 2,
	engine.SourceChicago: 2, engine.SourceHand3: 3}

// Cell is one player's columns in one deal row of a score sheet.
type Cell struct {
	P1, P2, Last, Final, Total string
}

// Row is one deal of a score sheet.
type Row struct {
	Deal   int
	Dealer string
	Cells  []Cell
}

// ResultDeal is the part of the engine's deal result a sheet shows.
type ResultDeal struct {
	Awards []engine.Award `json:"awards"`
	Scores map[string]int `json:"scores"`
}

// ResultDeals reads the deals of an engine's result.
func ResultDeals(raw json.RawMessage) []ResultDeal {
	var res struct {
		Deals []ResultDeal `json:"deals"`
	}
	if json.Unmarshal(raw, &res) != nil {
		return nil
	}
	return res.Deals
}

// FillRow fills row with deal d's awards and scores, in the order of the
// table's players.
func FillRow(row *Row, d ResultDeal, players []string) {
	for i, pid := range players {
		row.Cells[i].Total = strconv.Itoa(d.Scores[pid])
	}
	for _, a := range d.Awards {
		i := slices.Index(players, a.Player)
		if i < 0 {
			continue
		}
		cell := &row.Cells[i]
		v := strconv.Itoa(a.Points)
		switch a.Source {
		case "hand1":
			cell.P1 = v
		case "hand2":
			cell.P2 = v
		case "last_trick":
			cell.Last = v
		case "chicago":
			cell.Last = "C " + v
		case "hand3":
			cell.Final = v
		}
	}
}

// DealOf is the deal a dispute names, 0 for none.
func DealOf(d *referee.Dispute) int {
	if d.Deal == nil {
		return 0
	}
	return *d.Deal
}

// Strain is a choice of the entry form's strain: its letter in the
// contract and the sign shown.
type Strain struct{ Code, Sign string }

// BridgeStrains are the strains of the entry form, lowest first.
var BridgeStrains = []Strain{{"C", "♣"}, {"D", "♦"}, {"H", "♥"}, {"S", "♠"}, {"NT", "NT"}}

// BridgeEntryOf is bridgeEntry reading the choices by name from get, as
// the console's result form does one row of deals at a time.
func BridgeEntryOf(get func(string) string, p *site.Page, t tournament.Table) ([]byte, []TableMessage) {
	level, suit, dbl := get("level"), get("strain"), get("double")
	decl, tricks := get("declarer"), get("tricks")
	if level == "" && suit == "" && dbl == "" && decl == "" && tricks == "" {
		return nil, []TableMessage{{Text: p.T("tbl.e.empty")}}
	}
	if level == "pass" {
		return []byte(`{"passed_out":true}`), nil
	}
	var msgs []TableMessage
	if n, err := strconv.Atoi(level); err != nil || n < 1 || n > 7 {
		msgs = append(msgs, TableMessage{Field: "level", Text: p.T("tbl.b.e.level")})
	}
	if !slices.ContainsFunc(BridgeStrains, func(x Strain) bool { return x.Code == suit }) {
		msgs = append(msgs, TableMessage{Field: "strain", Text: p.T("tbl.b.e.strain")})
	}
	if dbl != "" && dbl != "X" && dbl != "XX" {
		msgs = append(msgs, TableMessage{Field: "double", Text: p.T("tbl.b.e.double")})
	}
	if !slices.Contains(t.Players, decl) {
		msgs = append(msgs, TableMessage{Field: "declarer", Text: p.T("tbl.b.e.declarer")})
	}
	n, err := strconv.Atoi(tricks)
	if err != nil || n < 0 || n > 13 {
		msgs = append(msgs, TableMessage{Field: "tricks", Text: p.T("tbl.b.e.tricks")})
	}
	if msgs != nil {
		return nil, msgs
	}
	b, _ := json.Marshal(map[string]any{"contract": level + suit + dbl, "declarer": decl, "tricks": n})
	return b, nil
}

// TableMessage is one problem of a post, in the table's words: the text
// names players, never their IDs, and Field is the form input it concerns
// ("" for the deal as a whole).
type TableMessage struct {
	Field string `json:"field"`
	Text  string `json:"text"`
}

// ProblemWords words an engine problem at a table in the user's words:
// the player's name and the score sheet's column it concerns, never ids or
// field names. It returns the seat and column (Sources) of the field
// the problem concerns, col -1 when it concerns no one field.
func ProblemWords(p *site.Page, code string, at engine.Location, t tournament.Table, names map[string]tournament.Player) (seat, col int, text string) {
	seat = slices.Index(t.Players, at.Player)
	if at.Part != engine.PartSheet || seat < 0 {
		return seat, -1, CodeText(p, code)
	}
	col, ok := Column[at.Member]
	if !ok {
		return seat, -1, names[at.Player].Name + ": " + CodeText(p, code)
	}
	return seat, col, names[at.Player].Name + ", " + p.T(SourceLabel[col]) + ": " + CodeText(p, code)
}

// CodeText is the table's sentence for a problem code.
func CodeText(p *site.Page, code string) string {
	if s := p.T("tbl.e." + code); !strings.HasPrefix(s, "tbl.e.") {
		return s
	}
	return p.T("tbl.e.other")
}

// TablePlayer is one player at the table.
type TablePlayer struct {
	Seat     int
	ID, Name string
	Short    string // the first name, when no one else at the table has it
	Initials string // "CL" for Cecilia Lindqvist: the column head on a phone
}

// SubmitterWords names who submitted a result in the reader's words: "the
// organizer", "table 3" (from "table:1/3"), "a referee".
func SubmitterWords(p *site.Page, by string) string {
	role, rest, _ := strings.Cut(by, ":")
	switch role {
	case string(tournament.RoleOrganizer), string(tournament.RoleAdmin):
		return p.T("who." + role)
	case string(tournament.RoleTable):
		if _, t, ok := strings.Cut(rest, "/"); ok {
			return p.T("who.table", t)
		}
	case string(tournament.RoleReferee):
		return p.T("who.referee")
	}
	return by
}
