// The organizer's and the referees' commands that a form sent twice would
// do twice, refuse the second time, or (sent again late) set back over a
// later change (draw and close a round, register, change and delete
// players, change the settings, resolve a tie, re-seat, withdraw a player,
// set the clock, open a dispute, rule on one), for
// the console's forms and the API: each runs at most once per client's
// key (Once), so that a form sent twice (a double click, a tap again on a
// slow network, a reload that posts again) draws, registers or adds time
// once.
package app

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/referee"
)

// Rounds is what the organizer's commands on rounds ask of the domain
// (play.Service).
type Rounds interface {
	DrawRoundWith(ctx context.Context, a tournament.Actor, tid string, o tournament.DrawOptions) (*tournament.Round, error)
	CloseRound(ctx context.Context, a tournament.Actor, tid string, n int, opts ...play.CloseOption) (*tournament.RoundChange, error)
	ResolveTie(ctx context.Context, a tournament.Actor, tid string, n int, players []string, method, note string) (*tournament.TieResolution, error)
	ReseatTable(ctx context.Context, a tournament.Actor, tid string, n int, rs play.Reseat) (*tournament.Round, error)
	WithdrawDuringGame(ctx context.Context, a tournament.Actor, tid string, n, t int, w play.Withdrawal) (*tournament.GameWithdrawal, error)
}

// Clock is what the clock's command asks of the domain (play.Service).
type Clock interface {
	SetRoundClock(ctx context.Context, a tournament.Actor, tid string, n int, act play.ClockAction) (*tournament.Clock, error)
}

// Registration is what registering players, changing them and the
// tournament's settings ask of the domain (tournament.Service).
type Registration interface {
	AddPlayers(ctx context.Context, a tournament.Actor, tid string, ps []tournament.NewPlayer) ([]tournament.Player, error)
	DeletePlayer(ctx context.Context, a tournament.Actor, tid, pid string) error
	UpdatePlayer(ctx context.Context, a tournament.Actor, tid, pid string, u tournament.PlayerUpdate) (tournament.Player, error)
	UpdateSettings(ctx context.Context, a tournament.Actor, tid string, c tournament.SettingsChange) (*tournament.Tournament, error)
}

// OrganizerDisputes is what the organizer's dispute asks of the domain
// (referee.Service).
type OrganizerDisputes interface {
	OpenDispute(ctx context.Context, a tournament.Actor, tid string, n referee.NewDispute) (*referee.Dispute, error)
}

// Rulings is what a referee's ruling asks of the domain (referee.Service).
type Rulings interface {
	Rule(ctx context.Context, a tournament.Actor, tid string, id int64, n referee.NewRuling) (*referee.RulingChange, error)
}

// Tournaments is what creating a tournament asks of the domain
// (tournament.Service).
type Tournaments interface {
	CreateTournament(ctx context.Context, a tournament.Actor, n tournament.NewTournament) (*tournament.Created, error)
}

// RefereeTokens is what issuing a referee token asks of the domain
// (referee.Service).
type RefereeTokens interface {
	IssueToken(ctx context.Context, a tournament.Actor, tid, name string) (*referee.IssuedRefereeToken, error)
}

// ConsoleServices are the domain's services the console's commands call;
// a command whose service is nil is not offered by its caller.
type ConsoleServices struct {
	Rounds   Rounds
	Clock    Clock
	Players  Registration
	Disputes OrganizerDisputes
	Rulings  Rulings
	Referees RefereeTokens
	// Tournaments creates tournaments (the admin's form).
	Tournaments Tournaments
}

// Runner runs a command at most once per key (*Once).
type Runner interface {
	Do(ctx context.Context, k *Key, answer Answer, cmd func(context.Context) (any, error)) (a []byte, replayed bool, err error)
}

var _ Runner = (*Once)(nil)

// Console runs the organizer's commands.
type Console struct {
	rounds   Rounds
	clock    Clock
	players  Registration
	disputes OrganizerDisputes
	rulings  Rulings
	referees RefereeTokens
	created  Tournaments
	once     Runner
}

// NewConsole returns the organizer's commands on s, each run once per key
// by once.
func NewConsole(s ConsoleServices, once Runner) *Console {
	return &Console{rounds: s.Rounds, clock: s.Clock, players: s.Players, disputes: s.Disputes, rulings: s.Rulings, referees: s.Referees, created: s.Tournaments, once: once}
}

// DrawRound is the command to draw a tournament's next round. Key (nil:
// none) is the client's key for it: the same key sent again is answered
// as the first time, without a second draw.
type DrawRound struct {
	Actor      tournament.Actor
	Tournament string
	// Options are the draw's seed (nil: at random) and the organizer's
	// constraints (fixed tables, players kept apart).
	Options tournament.DrawOptions
	Key     *Key
}

// Drawn is the answer to a draw: the number of the round it drew.
type Drawn struct {
	Round int
	// Drawn is the round with its tables, when this call drew it (nil
	// when the draw was answered from its key).
	Drawn *tournament.Round
	// Replayed says the draw was answered from the first time its key
	// was sent.
	Replayed bool
}

// DrawRound draws the next round, or answers the draw made before under
// cmd.Key. Its errors are the domain's (*tournament.Error), the refusal
// of the key (reused with another draw, or in use) among them.
func (c *Console) DrawRound(ctx context.Context, cmd DrawRound) (*Drawn, error) {
	r, n, replayed, err := runKept(ctx, c.once, cmd.Key, func(ctx context.Context) (*tournament.Round, error) {
		return c.rounds.DrawRoundWith(ctx, cmd.Actor, cmd.Tournament, cmd.Options)
	}, func(r *tournament.Round) int { return r.Number })
	if err != nil {
		return nil, err
	}
	return &Drawn{Round: n, Drawn: r, Replayed: replayed}, nil
}

// runKept runs call once per key k on r (runOnce), keeping of its result
// what kept takes: the call that runs it answers its whole result, a
// replay the zero result and what was kept.
func runKept[R, T any](ctx context.Context, r Runner, k *Key, call func(context.Context) (R, error), kept func(R) T) (res R, v T, replayed bool, err error) {
	v, replayed, err = runOnce(ctx, r, k, func(ctx context.Context) (T, error) {
		var err error
		if res, err = call(ctx); err != nil {
			var zero T
			return zero, err
		}
		return kept(res), nil
	})
	return res, v, replayed, err
}

// runDone runs call once per key k (runKept) and answers Done: a replay
// needs nothing of the result but that the call ran.
func runDone[T any](ctx context.Context, r Runner, k *Key, call func(context.Context) (*T, error)) (*Done[T], error) {
	res, _, replayed, err := runKept(ctx, r, k, call, func(*T) bool { return true })
	if err != nil {
		return nil, err
	}
	return &Done[T]{Result: res, Replayed: replayed}, nil
}

// runOnce runs cmd once per key k on r, its result kept as JSON
// (keptAnswer). The command run by this call answers its own result and
// error (with all their details); a replay's are read back from the
// answer kept.
func runOnce[T any](ctx context.Context, r Runner, k *Key, cmd func(context.Context) (T, error)) (out T, replayed bool, err error) {
	var (
		ran    bool
		cmdErr error
	)
	a, replayed, err := r.Do(ctx, k, keptAnswer, func(ctx context.Context) (any, error) {
		ran = true
		out, cmdErr = cmd(ctx)
		return out, cmdErr
	})
	switch {
	case err != nil:
		return out, false, err
	case ran:
		return out, false, cmdErr
	}
	var zero T
	return zero, replayed, readAnswer(a, &zero)
}

// CloseRound is the command to close a round: its results become final
// and the players who go on are decided. Key as DrawRound's.
type CloseRound struct {
	Actor      tournament.Actor
	Tournament string
	Round      int
	// AskLots refuses the close while a tie only a lot would break is
	// open (the organizer resolves it first); AcceptUnconfirmed closes
	// although games wait for their players' confirmations.
	AskLots, AcceptUnconfirmed bool
	Key                        *Key
}

// Closed is the answer to a close: the round it closed.
type Closed struct {
	Round int
	// Change is what the close decided (the players' outcomes, who goes
	// on, the tournament's status), when this call closed the round (nil
	// when the close was answered from its key).
	Change   *tournament.RoundChange
	Replayed bool // as Drawn's
}

// CloseRound closes the round, or answers the close made before under
// cmd.Key. Its errors are the domain's, as DrawRound's.
func (c *Console) CloseRound(ctx context.Context, cmd CloseRound) (*Closed, error) {
	var opts []play.CloseOption
	if cmd.AskLots {
		opts = append(opts, play.AskLots())
	}
	if cmd.AcceptUnconfirmed {
		opts = append(opts, play.AcceptUnconfirmed())
	}
	change, n, replayed, err := runKept(ctx, c.once, cmd.Key, func(ctx context.Context) (*tournament.RoundChange, error) {
		return c.rounds.CloseRound(ctx, cmd.Actor, cmd.Tournament, cmd.Round, opts...)
	}, func(*tournament.RoundChange) int { return cmd.Round })
	if err != nil {
		return nil, err
	}
	return &Closed{Round: n, Change: change, Replayed: replayed}, nil
}

// AddPlayers is the command to register players: one from the console's
// form, a list from its import (all or none). Key as DrawRound's.
type AddPlayers struct {
	Actor      tournament.Actor
	Tournament string
	Players    []tournament.NewPlayer
	Key        *Key
}

// Registered is the answer to AddPlayers.
type Registered struct {
	Count int // the players registered
	// Players are the players registered by this call (nil when answered
	// from its key).
	Players  []tournament.Player
	Replayed bool
}

// AddPlayers registers the players, or answers the registration made
// before under cmd.Key. Its errors are the domain's, as DrawRound's.
func (c *Console) AddPlayers(ctx context.Context, cmd AddPlayers) (*Registered, error) {
	ps, n, replayed, err := runKept(ctx, c.once, cmd.Key, func(ctx context.Context) ([]tournament.Player, error) {
		return c.players.AddPlayers(ctx, cmd.Actor, cmd.Tournament, cmd.Players)
	}, func(ps []tournament.Player) int { return len(ps) })
	if err != nil {
		return nil, err
	}
	return &Registered{Count: n, Players: ps, Replayed: replayed}, nil
}

// DeletePlayer is the command to remove a player registered by mistake,
// before round 1 is drawn. Key as DrawRound's: sent twice under one key,
// the second is answered as the first rather than refused (the player is
// gone).
type DeletePlayer struct {
	Actor      tournament.Actor
	Tournament string
	Player     string
	Key        *Key
}

// DeletePlayer removes the player, or answers the removal made before
// under cmd.Key; it reports whether the answer is a replay. Its errors
// are the domain's, as DrawRound's.
func (c *Console) DeletePlayer(ctx context.Context, cmd DeletePlayer) (replayed bool, err error) {
	_, _, replayed, err = runKept(ctx, c.once, cmd.Key, func(ctx context.Context) (bool, error) {
		return true, c.players.DeletePlayer(ctx, cmd.Actor, cmd.Tournament, cmd.Player)
	}, func(bool) bool { return true })
	return replayed, err
}

// ConsoleDispute is the command to open a dispute on a game from the
// console (the organizer's, to have an accepted result corrected). Key as
// DrawRound's: sent twice under one key, it opens one dispute.
type ConsoleDispute struct {
	Actor      tournament.Actor
	Tournament string
	Dispute    referee.NewDispute
	Key        *Key
}

// Recorded is the answer to a command that records something with an
// id: a dispute, a tie's resolution.
type Recorded[T any] struct {
	ID int64
	// Record is what this call recorded (nil when answered from its key).
	Record   *T
	Replayed bool
}

// DisputeOpened is the answer to ConsoleDispute.
type DisputeOpened = Recorded[referee.Dispute]

// ConsoleDispute opens the dispute, or answers the one opened before
// under cmd.Key. Its errors are the domain's, as DrawRound's.
func (c *Console) ConsoleDispute(ctx context.Context, cmd ConsoleDispute) (*DisputeOpened, error) {
	d, id, replayed, err := runKept(ctx, c.once, cmd.Key, func(ctx context.Context) (*referee.Dispute, error) {
		return c.disputes.OpenDispute(ctx, cmd.Actor, cmd.Tournament, cmd.Dispute)
	}, func(d *referee.Dispute) int64 { return d.ID })
	if err != nil {
		return nil, err
	}
	return &DisputeOpened{ID: id, Record: d, Replayed: replayed}, nil
}

// ResolveTie is the command to record the organizer's order of tied
// players of round Round (best first), decided by Method ("lot" or
// "choice"). Key as DrawRound's.
type ResolveTie struct {
	Actor        tournament.Actor
	Tournament   string
	Round        int
	Players      []string
	Method, Note string
	Key          *Key
}

// TieResolved is the answer to ResolveTie.
type TieResolved = Recorded[tournament.TieResolution]

// ResolveTie records the order, or answers the one recorded before under
// cmd.Key. Its errors are the domain's, as DrawRound's.
func (c *Console) ResolveTie(ctx context.Context, cmd ResolveTie) (*TieResolved, error) {
	res, id, replayed, err := runKept(ctx, c.once, cmd.Key, func(ctx context.Context) (*tournament.TieResolution, error) {
		return c.rounds.ResolveTie(ctx, cmd.Actor, cmd.Tournament, cmd.Round, cmd.Players, cmd.Method, cmd.Note)
	}, func(r *tournament.TieResolution) int64 { return r.ID })
	if err != nil {
		return nil, err
	}
	return &TieResolved{ID: id, Record: res, Replayed: replayed}, nil
}

// Reseat is the command to swap two players of round Round between their
// tables, or move one to another table, before their tables start. Key
// as DrawRound's: a swap sent twice under one key swaps once (sent again
// without it, it would swap the two back).
type Reseat struct {
	Actor      tournament.Actor
	Tournament string
	Round      int
	Reseat     play.Reseat
	Key        *Key
}

// Done is the answer to a command whose replay needs nothing of its
// result: what this call did (nil when answered from its key).
type Done[T any] struct {
	Result   *T
	Replayed bool
}

// Reseated is the answer to Reseat: the round with its tables after the
// change.
type Reseated = Done[tournament.Round]

// Reseat changes the tables, or answers the change made before under
// cmd.Key. Its errors are the domain's, as DrawRound's.
func (c *Console) Reseat(ctx context.Context, cmd Reseat) (*Reseated, error) {
	return runDone(ctx, c.once, cmd.Key, func(ctx context.Context) (*tournament.Round, error) {
		return c.rounds.ReseatTable(ctx, cmd.Actor, cmd.Tournament, cmd.Round, cmd.Reseat)
	})
}

// SetClock is the command to start, pause, resume, add time to or call
// time on round Round's clock, or undo a call of time. Key as
// DrawRound's: the same five minutes sent twice under one key are added
// once.
type SetClock struct {
	Actor      tournament.Actor
	Tournament string
	Round      int
	Action     play.ClockAction
	Key        *Key
}

// ClockSet is the answer to SetClock: the clock after the action.
type ClockSet = Done[tournament.Clock]

// SetClock acts on the clock, or answers the action taken before under
// cmd.Key. Its errors are the domain's, as DrawRound's.
func (c *Console) SetClock(ctx context.Context, cmd SetClock) (*ClockSet, error) {
	return runDone(ctx, c.once, cmd.Key, func(ctx context.Context) (*tournament.Clock, error) {
		return c.clock.SetRoundClock(ctx, cmd.Actor, cmd.Tournament, cmd.Round, cmd.Action)
	})
}

// Withdraw is the command to record that a player left table Table of
// round Round during a game, and how the game goes on. Key as
// DrawRound's: sent twice under one key, the second is answered as the
// first rather than refused (the player has left).
type Withdraw struct {
	Actor        tournament.Actor
	Tournament   string
	Round, Table int
	Withdrawal   play.Withdrawal
	Key          *Key
}

// Withdrawn is the answer to Withdraw.
type Withdrawn = Done[tournament.GameWithdrawal]

// Withdraw records the withdrawal, or answers the one recorded before
// under cmd.Key. Its errors are the domain's, as DrawRound's.
func (c *Console) Withdraw(ctx context.Context, cmd Withdraw) (*Withdrawn, error) {
	return runDone(ctx, c.once, cmd.Key, func(ctx context.Context) (*tournament.GameWithdrawal, error) {
		return c.rounds.WithdrawDuringGame(ctx, cmd.Actor, cmd.Tournament, cmd.Round, cmd.Table, cmd.Withdrawal)
	})
}

// UpdatePlayer is the command to change a player's name, club or status.
// Key as DrawRound's: a form sent again late does not set the player back
// over a change made since.
type UpdatePlayer struct {
	Actor              tournament.Actor
	Tournament, Player string
	Update             tournament.PlayerUpdate
	Key                *Key
}

// PlayerUpdated is the answer to UpdatePlayer: the player after the change.
type PlayerUpdated = Done[tournament.Player]

// UpdatePlayer changes the player, or answers the change made before
// under cmd.Key. Its errors are the domain's, as DrawRound's.
func (c *Console) UpdatePlayer(ctx context.Context, cmd UpdatePlayer) (*PlayerUpdated, error) {
	return runDone(ctx, c.once, cmd.Key, func(ctx context.Context) (*tournament.Player, error) {
		p, err := c.players.UpdatePlayer(ctx, cmd.Actor, cmd.Tournament, cmd.Player, cmd.Update)
		if err != nil {
			return nil, err
		}
		return &p, nil
	})
}

// UpdateSettings is the command to change a tournament's settings. Key as
// DrawRound's: a form sent again late does not set the settings back
// over a change made since.
type UpdateSettings struct {
	Actor      tournament.Actor
	Tournament string
	Change     tournament.SettingsChange
	Key        *Key
}

// SettingsUpdated is the answer to UpdateSettings: the tournament after
// the change.
type SettingsUpdated = Done[tournament.Tournament]

// UpdateSettings changes the settings, or answers the change made before
// under cmd.Key. Its errors are the domain's, as DrawRound's.
func (c *Console) UpdateSettings(ctx context.Context, cmd UpdateSettings) (*SettingsUpdated, error) {
	return runDone(ctx, c.once, cmd.Key, func(ctx context.Context) (*tournament.Tournament, error) {
		return c.players.UpdateSettings(ctx, cmd.Actor, cmd.Tournament, cmd.Change)
	})
}

// Rule is the command to rule on dispute Dispute (a referee's, or the
// organizer's). Key as DrawRound's: sent twice under one key, the second
// is answered as the first rather than refused (the dispute is ruled).
type Rule struct {
	Actor      tournament.Actor
	Tournament string
	Dispute    int64
	Ruling     referee.NewRuling
	Key        *Key
}

// Ruled is the answer to Rule: what the ruling changed.
type Ruled = Done[referee.RulingChange]

// Rule records the ruling, or answers the one recorded before under
// cmd.Key. Its errors are the domain's, as DrawRound's.
func (c *Console) Rule(ctx context.Context, cmd Rule) (*Ruled, error) {
	return runDone(ctx, c.once, cmd.Key, func(ctx context.Context) (*referee.RulingChange, error) {
		return c.rulings.Rule(ctx, cmd.Actor, cmd.Tournament, cmd.Dispute, cmd.Ruling)
	})
}

// answer is a command's outcome as Once keeps it: its result as JSON, or
// its refusal (the domain's error without its cause).
type answer struct {
	Result json.RawMessage `json:"result,omitempty"`
	Error  *keptError      `json:"error,omitempty"`
}

// keptError is a refusal as kept for a replay.
type keptError struct {
	Kind    tournament.Kind `json:"kind"`
	Code    string          `json:"code"`
	Message string          `json:"message"`
	Field   string          `json:"field,omitempty"`
}

// keptAnswer is the Answer of a command whose result is a JSON value: a
// failure of the server (an error that is not the domain's, or of kind
// internal or unavailable) is not kept, so that the retry runs again.
func keptAnswer(result any, err error) ([]byte, bool) {
	var out answer
	keep := true
	if err != nil {
		te := (*tournament.Error)(nil)
		if !errors.As(err, &te) {
			te = tournament.Errorf(tournament.KindInternal, tournament.CodeInternal, "%s", err.Error())
		}
		// A failure of the server is not kept, nor a refusal with ties
		// (its ties do not live through the answer's JSON): the retry runs
		// again, which a refusal, having written nothing, allows.
		keep = te.Kind != tournament.KindInternal && te.Kind != tournament.KindUnavailable && len(te.Ties()) == 0
		out.Error = &keptError{Kind: te.Kind, Code: te.Code, Message: te.Message, Field: te.Field()}
	} else if b, merr := json.Marshal(result); merr == nil {
		out.Result = b
	} else {
		return nil, false
	}
	b, merr := json.Marshal(out)
	return b, keep && merr == nil
}

// readAnswer reads an answer kept by keptAnswer into result, or answers
// its refusal as the domain's error.
func readAnswer(a []byte, result any) error {
	var out answer
	if err := json.Unmarshal(a, &out); err != nil {
		return tournament.Errorf(tournament.KindInternal, tournament.CodeInternal, "an answer kept for a replay does not read")
	}
	if e := out.Error; e != nil {
		if e.Field != "" {
			te := tournament.InvalidField(e.Field, "%s", e.Message)
			te.Kind, te.Code = e.Kind, e.Code
			return te
		}
		return tournament.Errorf(e.Kind, e.Code, "%s", e.Message)
	}
	if err := json.Unmarshal(out.Result, result); err != nil {
		return tournament.Errorf(tournament.KindInternal, tournament.CodeInternal, "an answer kept for a replay does not read")
	}
	return nil
}

// IssueRefereeToken is the command to make a referee token named Name.
// Key as DrawRound's, with its Credential: the answer carries the token's
// secret, so it is kept sealed under the caller's credential (Once), and a
// form sent twice makes one token and shows it both times.
type IssueRefereeToken struct {
	Actor      tournament.Actor
	Tournament string
	Name       string
	Key        *Key
}

// Sealed is the answer to a command whose answer carries a secret: its
// result whole (with the secret), the first time and on a replay.
type Sealed[T any] struct {
	Result   T
	Replayed bool
}

// RefereeTokenIssued is the answer to IssueRefereeToken: the token with its
// secret.
type RefereeTokenIssued = Sealed[referee.IssuedRefereeToken]

// IssueRefereeToken makes the token, or answers the one made before under
// cmd.Key. A key without the caller's credential is refused (its answer
// would be kept with the secret in the clear). Its errors are the domain's,
// as DrawRound's.
func (c *Console) IssueRefereeToken(ctx context.Context, cmd IssueRefereeToken) (*RefereeTokenIssued, error) {
	return runSealed(ctx, c.once, cmd.Key, func(ctx context.Context) (*referee.IssuedRefereeToken, error) {
		return c.referees.IssueToken(ctx, cmd.Actor, cmd.Tournament, cmd.Name)
	})
}

// CreateTournament is the admin's command to create a tournament. Key as
// IssueRefereeToken's: the answer carries the organizer's token, kept
// sealed under the caller's credential, so that the form sent twice
// creates one tournament and shows its token both times.
type CreateTournament struct {
	Actor      tournament.Actor
	Tournament tournament.NewTournament
	Key        *Key
}

// TournamentCreated is the answer to CreateTournament: the tournament with
// its organizer's token.
type TournamentCreated = Sealed[tournament.Created]

// CreateTournament creates the tournament, or answers the one created
// before under cmd.Key; a key without the caller's credential is refused,
// as IssueRefereeToken's. Its errors are the domain's, as DrawRound's.
func (c *Console) CreateTournament(ctx context.Context, cmd CreateTournament) (*TournamentCreated, error) {
	return runSealed(ctx, c.once, cmd.Key, func(ctx context.Context) (*tournament.Created, error) {
		return c.created.CreateTournament(ctx, cmd.Actor, cmd.Tournament)
	})
}

// runSealed runs call once per key k (runOnce) for a command whose answer
// carries a secret: a key without the caller's credential is refused
// before anything runs, since its answer would be kept in the clear.
func runSealed[T any](ctx context.Context, r Runner, k *Key, call func(context.Context) (*T, error)) (*Sealed[T], error) {
	if k != nil && k.Credential == "" {
		return nil, tournament.Errorf(tournament.KindInternal, tournament.CodeInternal,
			"the Idempotency-Key of an answer with a secret needs the caller's credential to seal it")
	}
	v, replayed, err := runOnce(ctx, r, k, call)
	if err != nil {
		return nil, err
	}
	return &Sealed[T]{Result: *v, Replayed: replayed}, nil
}
