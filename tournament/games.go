package tournament

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/bridge"
)

// What the store keeps of the games a table plays (package play runs
// them): the deal being entered and its answer, the deals and
// confirmations of a game, a correction's write, the round's clock, and
// the conflict that answers with the deal a game holds. They stand here,
// not in package play, because the Store's methods take and return them.

// ResultTableCorrection is a result row made by a table's correction of a
// deal after the game had its result.
const ResultTableCorrection ResultKind = "table_correction"

// StoredDeal is one deal of a game entered deal by deal, as it stands now.
type StoredDeal struct {
	Deal    json.RawMessage // the latest version
	Version int             // 1 as first entered, +1 for each correction
	At      time.Time       // when the latest version was stored
}

// Confirmation is one player's confirmation of a result row of a game.
type Confirmation struct {
	Player      string
	ResultID    int64
	ConfirmedBy string // the actor, e.g. "table:2/3"
	At          time.Time
}

// TableGame is a game as the store holds it: its deals (when entered deal
// by deal), its effective result and the confirmations of that result.
type TableGame struct {
	Key           GameKey
	Deals         []StoredDeal
	Result        *GameResult // nil while the game goes on
	Confirmations []Confirmation
}

// HasConfirmed reports whether player has confirmed the game's effective
// result.
func (g *TableGame) HasConfirmed(player string) bool {
	return slices.ContainsFunc(g.Confirmations, func(c Confirmation) bool { return c.Player == player })
}

// DealCorrection is what a correction writes: nothing when Repeat (the
// deal already reads so), else the new version of the deal and, when the
// game has or gets a result, the result it gives (a submission when the
// corrected deal ends the game, a table correction that supersedes the
// result before).
type DealCorrection struct {
	Repeat bool
	Final  *GameResult
	// Outcome is what the correction answers once it is stored (the
	// result's ID assigned by the store's insert). The store does not
	// keep it; a unit of work may store an answer made from it with the
	// correction (Wrap).
	Outcome *CorrectedDeal
}

// CorrectedDeal is the answer to a correction: the deal's new standing and
// the game's.
type CorrectedDeal struct {
	DealProgress
	Version int
}

// DealEntry is what entering the next deal of a game needs, read at once
// (Store.DealEntry): the tournament, the round with only the game's table,
// how many deals the game holds, whether it has a result, whether a deal
// of it was corrected, and the engine's running state after its last deal
// (nil when it is not kept).
type DealEntry struct {
	Tournament *Tournament
	Round      *Round
	Deals      int
	HasResult  bool
	Corrected  bool
	State      json.RawMessage
	// Version names the state of what the deal is checked with besides
	// the game's deals (the tournament, the round, the table, its
	// withdrawals, the round's clock): Store.AppendDeal writes only
	// under the version read.
	Version string
}

// DealProgress is the answer to an appended deal: the deal's result and
// the game as it stands.
type DealProgress struct {
	Deal   int // 1-based number of the deal appended
	Result *engine.DealResult
	Game   *engine.GameResult
	Final  *GameResult // the game's result when this deal ended it
	Repeat bool        // the deal was already stored as deal Deal (AppendDealAt); nothing was written
	// Match and MatchDeal replace Game and Result at a bridge table: the
	// match as it stands and the deal's result in it.
	Match     *bridge.Result
	MatchDeal *bridge.DealResult
	// EndedByTime: the game ended after this deal because time was called
	// before anybody reached the target.
	EndedByTime bool
}

// ClockState is where a round's clock stands.
type ClockState string

// The states of a round's clock.
const (
	ClockIdle       ClockState = "idle"
	ClockRunning    ClockState = "running"
	ClockPaused     ClockState = "paused"
	ClockTimeCalled ClockState = "time_called"
)

// The organizer's clock actions.
const (
	ClockStart    = "start"
	ClockPause    = "pause"
	ClockResume   = "resume"
	ClockAdd      = "add"
	ClockCallTime = "call_time"
	// ClockUndoCall takes back a call of time made by mistake, within
	// UndoCallWindow and before any game has ended since: the clock is
	// again as it stood when time was called (a running clock's end stays
	// where it was). It needs a reason, which the audit log keeps.
	ClockUndoCall = "undo_call_time"
)

// UndoCallWindow is how long after calling time the call can be undone.
const UndoCallWindow = 10 * time.Minute

// MaxClockMinutes bounds a round's time and the time added at once.
const MaxClockMinutes = 24 * 60

// Clock is a round's clock. The clock only tells the time: games end when
// the organizer calls time (ClockTimeCalled), not when it runs out.
type Clock struct {
	Round     int
	State     ClockState
	EndsAt    *time.Time    // running: when time is up
	Remaining time.Duration // paused: what was left
	CalledAt  *time.Time    // time_called: when
	// Prior is, while time is called, the clock as it stood before (its
	// State, EndsAt and Remaining), which ClockUndoCall restores.
	Prior     *Clock
	Action    string // the last action ("" while idle)
	Minutes   int    // the minutes of the last start or add
	UpdatedBy string
	UpdatedAt time.Time
}

// RemainingAt is the time left at now (0 when it has run out, when idle
// and after time is called).
func (c *Clock) RemainingAt(now time.Time) time.Duration {
	switch c.State {
	case ClockRunning:
		return max(c.EndsAt.Sub(now), 0)
	case ClockPaused:
		return c.Remaining
	}
	return 0
}

// DealExists returns the conflict of deal n, which the game holds with
// other content (stored, as the game record holds it).
func DealExists(n int, stored json.RawMessage, what string) *Error {
	e := Errorf(KindConflict, CodeDealExists,
		"deal %d of this %s was already entered with other content; only a referee can change it", n, what)
	e.stored, e.storedDeal = stored, n
	e.Details = map[string]any{"deal": n, "stored": stored}
	return e
}

// Stored returns the deal a deal_exists conflict found under its number
// and that number, or nil and 0.
func (e *Error) Stored() (json.RawMessage, int) { return e.stored, e.storedDeal }

// WithdrawalHandling is the organizer's choice of how the game a player
// left counts (docs/tournaments.md, "A player withdrawn during a game").
type WithdrawalHandling string

// The organizer's choices.
const (
	// WithdrawFinish: the others finish the game; the player who left keeps
	// the total they had (they score nothing after leaving), is placed last
	// at the table and gets the last place's placement points.
	WithdrawFinish WithdrawalHandling = "finish"
	// WithdrawForfeit: the player who left forfeits the game: placed last,
	// no placement points, no game points, a forfeit in the ratings. The
	// others finish the game as under WithdrawFinish.
	WithdrawForfeit WithdrawalHandling = "forfeit"
)

// GameWithdrawal records a player withdrawn during game Game of a table
// (illness): who decided how it counts, when and why.
type GameWithdrawal struct {
	Player    string
	Round     int
	Table     int
	Game      int // the game in progress when the player left
	Handling  WithdrawalHandling
	Reason    string
	By        string // the actor ("organizer", "admin")
	CreatedAt time.Time
}

// WithdrawnFrom returns the withdrawals of the table that cover game g
// (the game a player left and the table's later games in the round).
func (t Table) WithdrawnFrom(g int) []GameWithdrawal {
	var out []GameWithdrawal
	for _, w := range t.Withdrawals {
		if g >= w.Game {
			out = append(out, w)
		}
	}
	return out
}

// Present returns the players of the table still at it in game g, in seat
// order: those who must confirm the game's result.
func (t Table) Present(g int) []string {
	gone := t.WithdrawnFrom(g)
	return slices.DeleteFunc(slices.Clone(t.Players), func(p string) bool {
		return slices.ContainsFunc(gone, func(w GameWithdrawal) bool { return w.Player == p })
	})
}

// Confirmed is the answer to a confirmation.
type Confirmed struct {
	Confirmation Confirmation
	Created      bool // false: the player had already confirmed this result
	Game         *TableGame
	Confirmed    bool // now every player at the table has confirmed
}
