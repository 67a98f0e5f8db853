package tournament

import (
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
	MaxPlayerName = 100
	maxClubName   = 100
	MaxImportRows = 10000
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

// Normalize trims the registration and checks it; row is the CSV row number
// for error messages (0 when not importing).
func (n NewPlayer) Normalize() (NewPlayer, error) {
	n.Name = strings.TrimSpace(n.Name)
	n.Club = strings.TrimSpace(n.Club)
	if err := CheckPlayerName(n.Name); err != nil {
		return n, err
	}
	if n.Person != "" && !ValidPersonID(n.Person) {
		return n, InvalidField("person", "person must name an entry of the register (P and digits), not %q", n.Person)
	}
	return n, CheckClubName(n.Club)
}

// CheckPlayerName checks a player's (or a person's) name: one line, required.
func CheckPlayerName(name string) error { return CheckLine("name", name, MaxPlayerName, true) }

// CheckClubName checks a club's name: one line, may be empty.
func CheckClubName(club string) error { return CheckLine("club", club, maxClubName, false) }

// validate checks an update against the player's current status. Only the
// organizer's moves are allowed here: withdrawing and reinstating a
// withdrawn player. Elimination and disqualification are decided by rounds
// and referees.
func (u PlayerUpdate) validate(current PlayerStatus) error {
	if u.Name != nil {
		if err := CheckPlayerName(strings.TrimSpace(*u.Name)); err != nil {
			return err
		}
	}
	if u.Club != nil {
		if err := CheckClubName(strings.TrimSpace(*u.Club)); err != nil {
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

// ValidPersonID reports whether id names a person of the register: "P" and digits, so that nothing else reaches a query.
func ValidPersonID(id string) bool {
	if len(id) < 2 || len(id) > 20 || id[0] != 'P' {
		return false
	}
	for _, c := range id[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
