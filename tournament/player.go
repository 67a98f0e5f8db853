package tournament

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// PlayerStatus says whether a player is still in the tournament.
type PlayerStatus string

// The statuses of a player.
const (
	PlayerActive       PlayerStatus = "active"       // drawn into the next round
	PlayerWithdrawn    PlayerStatus = "withdrawn"    // left by choice; not drawn again
	PlayerEliminated   PlayerStatus = "eliminated"   // sm: did not advance from a round
	PlayerDisqualified PlayerStatus = "disqualified" // removed by a referee's ruling
)

// Limits on what a player's registration may hold.
const (
	maxPlayerName = 100
	maxClubName   = 100
	maxImportRows = 10000
)

// Player is one person registered in a tournament. The ID is what game
// records name the player by.
type Player struct {
	ID           string
	TournamentID string
	Name         string
	Club         string
	Status       PlayerStatus
	Seq          int // registration order, 1-based
	CreatedAt    time.Time
	// PersonID is the player's entry in the server's register ("" only
	// for players stored before the register existed).
	PersonID string
}

// NewPlayer is a registration.
type NewPlayer struct {
	Name string
	Club string
	// Person is the register entry of the player, picked by the organizer;
	// "" adds a new person with the player's name and club.
	Person string
}

// PlayerUpdate changes a player; nil fields are left as they are.
type PlayerUpdate struct {
	Name   *string
	Club   *string
	Status *PlayerStatus
}

// normalize trims the registration and checks it; row is the CSV row number
// for error messages (0 when not importing).
func (n NewPlayer) normalize() (NewPlayer, error) {
	n.Name = strings.TrimSpace(n.Name)
	n.Club = strings.TrimSpace(n.Club)
	if err := checkPlayerName(n.Name); err != nil {
		return n, err
	}
	if n.Person != "" && !validPersonID(n.Person) {
		return n, InvalidField("person", "person must name an entry of the register (P and digits), not %q", n.Person)
	}
	return n, checkClubName(n.Club)
}

func checkPlayerName(name string) error { return checkLine("name", name, maxPlayerName, true) }

func checkClubName(club string) error { return checkLine("club", club, maxClubName, false) }

// validate checks an update against the player's current status. Only the
// organizer's moves are allowed here: withdrawing and reinstating a
// withdrawn player. Elimination and disqualification are decided by rounds
// and referees.
func (u PlayerUpdate) validate(current PlayerStatus) error {
	if u.Name != nil {
		if err := checkPlayerName(strings.TrimSpace(*u.Name)); err != nil {
			return err
		}
	}
	if u.Club != nil {
		if err := checkClubName(strings.TrimSpace(*u.Club)); err != nil {
			return err
		}
	}
	if u.Status == nil || *u.Status == current {
		return nil
	}
	switch *u.Status {
	case PlayerWithdrawn:
		if current != PlayerActive {
			return Errorf(KindConflict, CodeInvalidStatusChange, "a player who is %s cannot withdraw", current)
		}
	case PlayerActive:
		if current != PlayerWithdrawn {
			return Errorf(KindConflict, CodeInvalidStatusChange, "only a withdrawn player can be reinstated; this player is %s", current)
		}
	case PlayerEliminated, PlayerDisqualified:
		return InvalidField("status", "status %q is set by the tournament (closing rounds, referees' rulings), not by an update", *u.Status)
	default:
		return InvalidField("status", "unknown status %q (use \"withdrawn\" or \"active\")", *u.Status)
	}
	return nil
}

// apply returns p with the update applied.
func (u PlayerUpdate) apply(p Player) Player {
	if u.Name != nil {
		p.Name = strings.TrimSpace(*u.Name)
	}
	if u.Club != nil {
		p.Club = strings.TrimSpace(*u.Club)
	}
	if u.Status != nil {
		p.Status = *u.Status
	}
	return p
}

// RowError is one bad row of a CSV import.
type RowError struct {
	Row     int    // 1-based line of the CSV, the header counting as row 1 when present
	Column  string // "name" or "club", or "" for the whole row
	Message string
}

// ParsePlayersCSV reads a player list in CSV: columns name and club, an
// optional header row "name,club", UTF-8 (a byte-order mark is allowed).
// It returns every bad row, so the organizer can fix the file in one go; a
// file with any bad row imports nothing.
func ParsePlayersCSV(r io.Reader) ([]NewPlayer, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	var (
		players []NewPlayer
		bad     []RowError
	)
	for row := 1; ; row++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				bad = append(bad, RowError{Row: pe.StartLine, Message: pe.Err.Error()})
				return nil, importError(bad)
			}
			return nil, Errorf(KindInvalid, CodeInvalidCSV, "reading the CSV: %v", err)
		}
		if row == 1 {
			rec[0] = strings.TrimPrefix(rec[0], "\ufeff")
			if isHeader(rec) {
				continue
			}
		}
		line, _ := cr.FieldPos(0)
		p, rowErr := parseRow(rec, line)
		if rowErr != nil {
			bad = append(bad, *rowErr)
			continue
		}
		players = append(players, p)
		if len(players) > maxImportRows {
			return nil, Errorf(KindTooLarge, CodeTooManyRows, "an import holds at most %d players", maxImportRows)
		}
	}
	if len(bad) > 0 {
		return nil, importError(bad)
	}
	if len(players) == 0 {
		return nil, Errorf(KindInvalid, CodeEmptyImport, "the CSV holds no players")
	}
	return players, nil
}

func isHeader(rec []string) bool {
	return strings.EqualFold(strings.TrimSpace(rec[0]), "name") &&
		(len(rec) < 2 || strings.EqualFold(strings.TrimSpace(rec[1]), "club"))
}

func parseRow(rec []string, line int) (NewPlayer, *RowError) {
	if len(rec) > 2 {
		return NewPlayer{}, &RowError{Row: line, Message: fmt.Sprintf("%d columns; want name,club", len(rec))}
	}
	p := NewPlayer{Name: rec[0]}
	if len(rec) == 2 {
		p.Club = rec[1]
	}
	p, err := p.normalize()
	if err != nil {
		var e *Error
		errors.As(err, &e)
		return p, &RowError{Row: line, Column: e.Field(), Message: e.Message}
	}
	return p, nil
}

func importError(bad []RowError) error {
	rows := make([]map[string]any, len(bad))
	for i, b := range bad {
		rows[i] = map[string]any{"row": b.Row, "column": b.Column, "message": b.Message}
	}
	e := Errorf(KindRejected, CodeInvalidCSV, "%d bad row(s) in the CSV, first at row %d: %s; nothing was imported",
		len(bad), bad[0].Row, bad[0].Message)
	e.Details = map[string]any{"rows": rows}
	return e
}
