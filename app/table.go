package app

import (
	"context"
	"encoding/json"
	"math"
	"time"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/referee"
)

// Games is what the table's commands ask of the domain
// (play.Service): the deal-by-deal entry of a game, its corrections,
// its confirmations and the game as it stands.
type Games interface {
	SubmitGameIn(ctx context.Context, wrap tournament.Wrap, a tournament.Actor, k tournament.GameKey, data []byte) (*play.Submission, error)
	AppendDealIn(ctx context.Context, wrap tournament.Wrap, a tournament.Actor, k tournament.GameKey, n int, data []byte) (*tournament.DealProgress, error)
	CorrectDealIn(ctx context.Context, wrap tournament.Wrap, a tournament.Actor, k tournament.GameKey, n int, data []byte, reason string) (*tournament.CorrectedDeal, error)
	ConfirmGameIn(ctx context.Context, wrap tournament.Wrap, a tournament.Actor, k tournament.GameKey, player string) (*tournament.Confirmed, error)
	TableGame(ctx context.Context, k tournament.GameKey) (*tournament.TableGame, error)
	RoundClock(ctx context.Context, tid string, n int) (*tournament.Clock, error)
	Now() time.Time
}

// Disputes is what a table asks of the referees' desk
// (referee.Service).
type Disputes interface {
	OpenDisputeVia(ctx context.Context, via referee.OpenVia, a tournament.Actor, tid string, n referee.NewDispute) (*referee.Dispute, error)
}

// TablePlay is what the adapters ask of a round's games: the API's
// handlers and the pages take it (and a test may fake it); *Table
// implements it.
type TablePlay interface {
	SubmitGame(ctx context.Context, cmd SubmitGame) (*play.Submission, error)
	EnterDeal(ctx context.Context, cmd EnterDeal) (*tournament.DealProgress, error)
	CorrectDeal(ctx context.Context, cmd CorrectDeal) (*tournament.CorrectedDeal, error)
	ConfirmGame(ctx context.Context, cmd ConfirmGame) (*tournament.Confirmed, error)
	OpenDispute(ctx context.Context, cmd OpenDispute) (*referee.Dispute, error)
	GameDeals(ctx context.Context, q GameDeals) (*tournament.TableGame, error)
	RoundClock(ctx context.Context, q RoundClock) (*ClockReading, error)
}

var _ TablePlay = (*Table)(nil)

// Table runs what a table does during a round, for the JSON API and the
// pages alike: it enters games and deals and corrects deals, confirms
// games, opens disputes, and reads a game's deals and the round's clock.
type Table struct {
	games    Games
	disputes Disputes
}

// NewTable returns the table's commands on games and disputes.
func NewTable(games Games, disputes Disputes) *Table {
	return &Table{games: games, disputes: disputes}
}

// EnterDeal is the command to enter a deal of a game: a score-sheet line
// or a full deal, as JSON (an entry of a game record's deals).
type EnterDeal struct {
	Actor tournament.Actor
	Game  tournament.GameKey
	// Deal is the number the deal must get (1-based), so that sending it
	// again is answered rather than entered twice; 0 takes the next.
	Deal int
	Data []byte
	// Via is the unit of work the command runs in (Once.DoIn, Unit.Wrap);
	// nil: none.
	Via tournament.Wrap
}

// EnterDeal enters a deal. The deal that ends the game makes its result;
// a deal stored already under its number with the same content is
// answered again with Repeat set.
func (t *Table) EnterDeal(ctx context.Context, cmd EnterDeal) (*tournament.DealProgress, error) {
	if err := CheckJSONText(cmd.Data); err != nil {
		return nil, err
	}
	return t.games.AppendDealIn(ctx, cmd.Via, cmd.Actor, cmd.Game, cmd.Deal, cmd.Data)
}

// SubmitGame is the command to enter a whole game at once: a game record,
// from a table or the organizer (the console's result form).
type SubmitGame struct {
	Actor  tournament.Actor
	Game   tournament.GameKey
	Record []byte
	Via    tournament.Wrap // as EnterDeal's
}

// SubmitGame enters a game's result; the same record sent again is a
// harmless repeat (Created false).
func (t *Table) SubmitGame(ctx context.Context, cmd SubmitGame) (*play.Submission, error) {
	if err := CheckJSONText(cmd.Record); err != nil {
		return nil, err
	}
	return t.games.SubmitGameIn(ctx, cmd.Via, cmd.Actor, cmd.Game, cmd.Record)
}

// CorrectDeal is the command to replace a stored deal of a game with a
// new version, with the table's reason.
type CorrectDeal struct {
	Actor  tournament.Actor
	Game   tournament.GameKey
	Deal   int // 1-based
	Data   json.RawMessage
	Reason string
	Via    tournament.Wrap // as EnterDeal's
}

// CorrectDeal replaces a deal until every player has confirmed the game.
func (t *Table) CorrectDeal(ctx context.Context, cmd CorrectDeal) (*tournament.CorrectedDeal, error) {
	if len(cmd.Data) == 0 || string(cmd.Data) == "null" {
		return nil, tournament.Errorf(tournament.KindInvalid, tournament.CodeInvalidDeal,
			"deal is required: the deal's new version, as it is entered with POST …/deals")
	}
	if err := CheckJSONText(cmd.Data); err != nil {
		return nil, err
	}
	return t.games.CorrectDealIn(ctx, cmd.Via, cmd.Actor, cmd.Game, cmd.Deal, cmd.Data, cmd.Reason)
}

// ConfirmGame is the command by which a player at the table confirms a
// finished game's result.
type ConfirmGame struct {
	Actor  tournament.Actor
	Game   tournament.GameKey
	Player string          // the player's id
	Via    tournament.Wrap // as EnterDeal's
}

// ConfirmGame records a player's confirmation; confirming again is
// harmless (Created false).
func (t *Table) ConfirmGame(ctx context.Context, cmd ConfirmGame) (*tournament.Confirmed, error) {
	return t.games.ConfirmGameIn(ctx, cmd.Via, cmd.Actor, cmd.Game, cmd.Player)
}

// OpenDispute is the command that asks the referees to look at a game.
type OpenDispute struct {
	Actor      tournament.Actor
	Tournament string
	Dispute    referee.NewDispute
	// Via is the unit of work the dispute is opened in (Once.DoIn,
	// Unit.Disputes); nil: none.
	Via referee.OpenVia
}

// OpenDispute opens a dispute.
func (t *Table) OpenDispute(ctx context.Context, cmd OpenDispute) (*referee.Dispute, error) {
	if err := CheckJSONText(cmd.Dispute.Record); err != nil {
		return nil, err
	}
	return t.disputes.OpenDisputeVia(ctx, cmd.Via, cmd.Actor, cmd.Tournament, cmd.Dispute)
}

// GameDeals is the query of a game as it stands: its deals with their
// versions, its effective result and who confirmed it. Public.
type GameDeals struct {
	Game tournament.GameKey
}

// GameDeals answers the query.
func (t *Table) GameDeals(ctx context.Context, q GameDeals) (*tournament.TableGame, error) {
	return t.games.TableGame(ctx, q.Game)
}

// RoundClock is the query of a round's clock. Public.
type RoundClock struct {
	Tournament string
	Round      int
}

// ClockReading is a round's clock as it reads at a moment of the server's
// time.
type ClockReading struct {
	Clock *tournament.Clock
	At    time.Time
}

// RemainingSeconds is the clock's time left at At, rounded up to a whole
// second: a paused clock's stands still.
func (r *ClockReading) RemainingSeconds() int {
	return int(math.Ceil(r.Clock.RemainingAt(r.At).Seconds()))
}

// RoundClock answers the query.
func (t *Table) RoundClock(ctx context.Context, q RoundClock) (*ClockReading, error) {
	c, err := t.games.RoundClock(ctx, q.Tournament, q.Round)
	if err != nil {
		return nil, err
	}
	return &ClockReading{Clock: c, At: t.games.Now()}, nil
}
