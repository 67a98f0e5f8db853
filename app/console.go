// The organizer's commands on rounds, for the console's forms (and the
// API): each runs at most once per client's key (Once), so that a form
// sent twice (a double click, a reload that posts again) does not draw
// twice.
package app

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
)

// Rounds is what the organizer's commands on rounds ask of the domain
// (play.Service).
type Rounds interface {
	DrawRoundWith(ctx context.Context, a tournament.Actor, tid string, o tournament.DrawOptions) (*tournament.Round, error)
	CloseRound(ctx context.Context, a tournament.Actor, tid string, n int, opts ...play.CloseOption) (*tournament.RoundChange, error)
}

// Runner runs a command at most once per key (*Once).
type Runner interface {
	Do(ctx context.Context, k *Key, answer Answer, cmd func(context.Context) (any, error)) (a []byte, replayed bool, err error)
}

var _ Runner = (*Once)(nil)

// Console runs the organizer's commands on rounds.
type Console struct {
	rounds Rounds
	once   Runner
}

// NewConsole returns the organizer's commands on rounds, each run once
// per key by once.
func NewConsole(rounds Rounds, once Runner) *Console {
	return &Console{rounds: rounds, once: once}
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
	var drawn *tournament.Round
	n, replayed, err := runOnce(ctx, c.once, cmd.Key, func(ctx context.Context) (int, error) {
		r, err := c.rounds.DrawRoundWith(ctx, cmd.Actor, cmd.Tournament, cmd.Options)
		if err != nil {
			return 0, err
		}
		drawn = r
		return r.Number, nil
	})
	if err != nil {
		return nil, err
	}
	return &Drawn{Round: n, Drawn: drawn, Replayed: replayed}, nil
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
	var change *tournament.RoundChange
	n, replayed, err := runOnce(ctx, c.once, cmd.Key, func(ctx context.Context) (int, error) {
		ch, err := c.rounds.CloseRound(ctx, cmd.Actor, cmd.Tournament, cmd.Round, opts...)
		if err != nil {
			return 0, err
		}
		change = ch
		return cmd.Round, nil
	})
	if err != nil {
		return nil, err
	}
	return &Closed{Round: n, Change: change, Replayed: replayed}, nil
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
