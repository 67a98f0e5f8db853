package play

import (
	"context"
	"encoding/json"
	"time"

	"github.com/revisor-sm/revisor/tournament"
)

// Store is the part of the tournament's store the tables' play works
// through: the game store a table's writes go through (tournament.GameStore,
// which a command's unit of work may decorate), the rounds and their
// results, the games' deals and confirmations, the round's clock, and the
// reads of the tournament a decision needs. Each method is one
// transaction; those that take a callback run it on what they load,
// holding the tournament's row lock (see tournament.Store).
type Store interface {
	tournament.GameStore

	// Tournament returns a tournament; not_found when there is none.
	Tournament(ctx context.Context, id string) (*tournament.Tournament, error)
	// Secrets returns a tournament's secrets (the key of its table codes).
	Secrets(ctx context.Context, id string) (tournament.Secrets, error)
	// Players returns a tournament's players in registration order.
	Players(ctx context.Context, tid string) ([]tournament.Player, error)
	// State returns a consistent snapshot of a tournament's state.
	State(ctx context.Context, tid string) (*tournament.State, error)

	// DrawRound stores the round plan makes from the state.
	DrawRound(ctx context.Context, tid string, plan func(*tournament.State) (*tournament.Round, error)) (*tournament.Round, error)
	// Reseat stores the tables decide changes in round n (decide gets the
	// tournament, the round with its tables and the numbers of the tables
	// with a deal or a result), keeping each table as drawn the first time
	// it changes, holding the tournament's row lock.
	Reseat(ctx context.Context, tid string, n int, decide func(*tournament.Tournament, *tournament.Round, []int) ([]tournament.Table, error)) (*tournament.Round, error)
	// WithdrawDuringGame stores the withdrawal decide makes from the
	// tournament, round n holding only its table t (with its withdrawals),
	// the numbers of that table's games with a result and player pid, and
	// sets the player withdrawn, holding the tournament's row lock.
	WithdrawDuringGame(ctx context.Context, tid string, n, t int, pid string,
		decide func(*tournament.Tournament, *tournament.Round, []int, tournament.Player) (*tournament.GameWithdrawal, error)) (*tournament.GameWithdrawal, error)
	// Round returns round n and its tables.
	Round(ctx context.Context, tid string, n int) (*tournament.Round, error)
	// CloseRound closes round n with the change decide makes from the state.
	CloseRound(ctx context.Context, tid string, n int, now time.Time, decide func(*tournament.State) (*tournament.RoundChange, error)) (*tournament.RoundChange, error)
	// AddTieResolution stores a resolution after check approves the state.
	AddTieResolution(ctx context.Context, tid string, r *tournament.TieResolution, check func(*tournament.State) error) error

	// Outcomes returns the recorded outcomes of round n (none while it is open).
	Outcomes(ctx context.Context, tid string, n int) ([]tournament.Outcome, error)
	// Results returns the effective results of round n (of every round
	// when n is 0), one per game.
	Results(ctx context.Context, tid string, n int) ([]tournament.GameResult, error)
	// Deals returns the deals appended so far to a game in progress, and
	// whether the game already has a result.
	Deals(ctx context.Context, k tournament.GameKey) (deals []json.RawMessage, hasResult bool, err error)
	// TableGame returns a game as it stands: its deals (latest versions),
	// its effective result and that result's confirmations.
	TableGame(ctx context.Context, k tournament.GameKey) (*tournament.TableGame, error)
	// TableGames returns every game of round n that has deals or a result.
	TableGames(ctx context.Context, tid string, n int) ([]tournament.TableGame, error)
	// CorrectDeal stores a new version of deal seq (0-based) of a game as
	// decide approves (see tournament.Store.CorrectDeal).
	CorrectDeal(ctx context.Context, k tournament.GameKey, seq int, deal json.RawMessage, reason string, now time.Time,
		decide func(*tournament.Round, *tournament.TableGame) (*tournament.DealCorrection, error)) error
	// RoundClock returns the clock of round n (idle when never started);
	// not found when there is no such round.
	RoundClock(ctx context.Context, tid string, n int) (*tournament.Clock, error)
	// SetRoundClock stores the clock decide makes from round n and its
	// clock as they are, holding the clock's lock.
	SetRoundClock(ctx context.Context, tid string, n int, decide func(*tournament.Round, *tournament.Clock) (*tournament.Clock, error)) (*tournament.Clock, error)
}

// Service runs the tables' play of the tournaments core runs, through
// store: rounds, games, deals, confirmations, the clock.
type Service struct {
	core  *tournament.Service
	store Store
	warm  warmGames // games entered deal by deal lately (deal_warm.go)
	// seatClock is the clock the seating's time budget reads (nil:
	// time.Now); see WithSeatingClock.
	seatClock func() time.Time
}

// Option configures a Service.
type Option func(*Service)

// WithSeatingClock makes the seating search of a draw read its time
// budget (seating.DefaultBudget) from now instead of time.Now: tests cut a
// draw's search short with it, as a loaded machine does.
func WithSeatingClock(now func() time.Time) Option { return func(s *Service) { s.seatClock = now } }

// WithWarmGames(false) makes every deal of a game entered deal by deal
// read the game's entry first (two round trips),
// as before the warm games (deal_warm.go) stored the next deal in one;
// benchmarks set the two side by side with it. On by default.
func WithWarmGames(on bool) Option { return func(s *Service) { s.warm.off = !on } }

// New returns the play of core's tournaments over store.
func New(core *tournament.Service, store Store, opts ...Option) *Service {
	s := &Service{core: core, store: store}
	for _, o := range opts {
		o(s)
	}
	return s
}

// clock is the time the service writes: core's clock.
func (s *Service) clock() time.Time { return s.core.Now() }

// games is the service's game store as wrap decorates it.
func (s *Service) games(wrap tournament.Wrap) tournament.GameStore {
	if wrap == nil {
		return s.store
	}
	return wrap(s.store)
}
