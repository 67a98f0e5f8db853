package app

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/revisor-sm/revisor/internal/tokens"
	"github.com/revisor-sm/revisor/tournament"
)

// Keys keeps the first answer to each command a client sent with an
// idempotency key (postgres.Idempotency): Claim answers (nil, nil) when
// the caller now owns the key, the answer stored before when the same
// command was answered, a rejected error when the key came with another
// command, a conflict while the first is still being run.
type Keys interface {
	Claim(ctx context.Context, scope, key string, fingerprint []byte) ([]byte, error)
	Complete(ctx context.Context, scope, key string, answer []byte) error
	Release(ctx context.Context, scope, key string) error
	Renewer
}

// Renewer renews the claim of a key whose command is still running, so
// that it does not go stale (be taken over by a retry, as if its server
// had died).
type Renewer interface {
	Renew(ctx context.Context, scope, key string) error
}

// RenewEvery is how often Once renews the claim of a command still
// running; postgres.Idempotency lets a claim stand 30 s unrenewed.
const RenewEvery = 5 * time.Second

// Renewing renews the claim of key every `every` until the returned stop
// is called, once owned says the caller holds it (never before the claim
// is made, never another's). Commands that end sooner never renew; they
// cost a timer, not a goroutine to start and to wake again at the end.
func Renewing(ctx context.Context, r Renewer, scope, key string, every time.Duration, owned func() bool, log *slog.Logger) (stop func()) {
	var (
		mu      sync.Mutex
		stopped bool
		t       *time.Timer
	)
	mu.Lock()
	defer mu.Unlock()
	t = time.AfterFunc(every, func() {
		if owned() {
			if err := r.Renew(ctx, scope, key); err != nil {
				log.Warn("renew idempotency key", "error", err.Error())
			}
		}
		mu.Lock()
		defer mu.Unlock()
		if !stopped {
			t.Reset(every)
		}
	})
	return func() {
		mu.Lock()
		defer mu.Unlock()
		stopped = true
		t.Stop()
	}
}

// Atomic is a store of keys that runs a command with its key as one
// transaction (postgres.Idempotency.Atomically): the key's claim, the
// command's writes through the store (which the ctx run gets carries) and
// the answer run returns commit together, or none of them does. When the
// key is not the caller's, run does not run: stored is the answer stored
// before, or claimErr the claim's refusal.
type Atomic interface {
	Atomically(ctx context.Context, scope, key string, fingerprint []byte,
		run func(context.Context) (answer []byte, keep bool)) (stored []byte, claimErr, err error)
}

// Key is a client's idempotency key for one command: Scope keeps the keys
// of different clients and commands apart, Fingerprint names the
// command's content (the same key with another content is refused).
//
// Credential, when set, is the credential of the caller who sent the
// command (a page session's token): the answer is then kept sealed under
// it and the key (tokens.SealAnswer), for an answer that carries a secret
// (a new referee token), and opens only for a retry that presents both.
type Key struct {
	Scope, Key  string
	Fingerprint []byte
	Credential  string
}

// Answer builds what the caller answers to a command's outcome (its result,
// or err), as it is kept for a replay; keep false says it is not kept (a
// failure of the server: the retry runs the command again).
type Answer func(result any, err error) (answer []byte, keep bool)

// Once runs the commands sent with a key at most once per key: a retry
// after a lost answer gets the first answer again, however many servers
// there are, and after a crash (the key's claim goes stale and the retry
// takes it over).
type Once struct {
	keys  Keys
	log   *slog.Logger
	renew time.Duration
}

// NewOnce returns Once on keys, logging failures to store an answer on log.
func NewOnce(keys Keys, log *slog.Logger) *Once {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Once{keys: keys, log: log, renew: RenewEvery}
}

// WithRenewal is o renewing its claims every `every` instead of RenewEvery.
func (o *Once) WithRenewal(every time.Duration) *Once {
	c := *o
	c.renew = every
	return &c
}

// Do runs cmd for k (nil: no key, cmd just runs) and answers what answer
// built from its outcome, or the answer stored for k before (replayed).
// Its error is the key's refusal only (reused with another command, or in
// use), or the store's failure to keep the key; the command's own errors
// are in the answer. With keys that run a command atomically (Atomic),
// the claim, the command and its answer are one transaction. The command runs to
// its end even when ctx is cancelled (a client that hangs up), so that
// its answer is stored for the retry; ctx's deadline still holds.
func (o *Once) Do(ctx context.Context, k *Key, answer Answer, cmd func(context.Context) (any, error)) (a []byte, replayed bool, err error) {
	if k != nil && k.Credential != "" {
		return o.sealed(k, answer, func(answer Answer) ([]byte, bool, error) { return o.do(ctx, k, answer, cmd) })
	}
	return o.do(ctx, k, answer, cmd)
}

func (o *Once) do(ctx context.Context, k *Key, answer Answer, cmd func(context.Context) (any, error)) (a []byte, replayed bool, err error) {
	ctx, cancel := detached(ctx)
	defer cancel()
	if k == nil {
		a, _ = answer(cmd(ctx))
		return a, false, nil
	}
	if at, ok := o.keys.(Atomic); ok {
		stored, claimErr, err := at.Atomically(ctx, k.Scope, k.Key, k.Fingerprint, func(ctx context.Context) ([]byte, bool) {
			var keep bool
			a, keep = answer(cmd(ctx))
			return a, keep
		})
		switch {
		case err != nil:
			return nil, false, err
		case claimErr != nil:
			return nil, false, claimErr
		case stored != nil:
			return stored, true, nil
		}
		return a, false, nil
	}
	// The keys kept apart from the command's store (in memory): the key
	// claimed, the command run, its answer stored, one after the other.
	stored, err := o.keys.Claim(ctx, k.Scope, k.Key, k.Fingerprint)
	if err != nil || stored != nil {
		return stored, stored != nil, err
	}
	stop := Renewing(ctx, o.keys, k.Scope, k.Key, o.renew, func() bool { return true }, o.log)
	a, keep := answer(cmd(ctx))
	stop()
	o.finish(ctx, k, a, keep)
	return a, false, nil
}

// DoIn is Do for a command whose reads and write go through the game
// store (tournament.GameStore) or the referees' opener of disputes: when
// the keys are kept by the storage adapter (KeyedStore), the command runs
// in one unit of work with its key (Unit), whose decorations cmd gets
// (Via): the key is claimed in the round trip of the command's first read
// (a dispute's: in its transaction) and the answer stored by its write,
// one round trip fewer for each. Otherwise it runs as Do, with the zero
// Via.
func (o *Once) DoIn(ctx context.Context, k *Key, answer Answer, cmd func(context.Context, Via) (any, error)) (a []byte, replayed bool, err error) {
	keys, ok := o.keys.(KeyedStore)
	// A sealed answer (k.Credential) is kept by Do, which seals it: the
	// unit stores what the command's write hands it, in the clear.
	if k == nil || !ok || k.Credential != "" {
		return o.Do(ctx, k, answer, func(ctx context.Context) (any, error) { return cmd(ctx, Via{}) })
	}
	ctx, cancel := detached(ctx)
	defer cancel()
	u := NewUnit(keys, *k, func(result any) ([]byte, error) {
		a, _ := answer(result, nil)
		return a, nil
	})
	stop := Renewing(ctx, o.keys, k.Scope, k.Key, o.renew, u.Owned, o.log)
	result, cerr := cmd(ctx, u.Via())
	stop()
	// The command stopped before its first read (it was refused):
	// nothing was written, the key is claimed now.
	if err := u.Claim(ctx); err != nil {
		return u.Stored(), u.Stored() != nil, u.ClaimErr()
	}
	a, keep := answer(result, cerr)
	if u.answered(a) {
		return a, false, nil // stored with the write
	}
	o.finish(ctx, k, a, keep)
	return a, false, nil
}

// sealed runs a command whose answer is kept sealed under k's credential
// (run with answer wrapped): the caller gets the answer in the clear, the
// store only sealed. A kept answer that does not open under k (the same
// key and scope from another credential) is refused as a key in use with
// another command.
func (o *Once) sealed(k *Key, answer Answer, run func(Answer) ([]byte, bool, error)) ([]byte, bool, error) {
	var plain []byte
	a, replayed, err := run(func(result any, cerr error) ([]byte, bool) {
		var keep bool
		plain, keep = answer(result, cerr)
		s, err := tokens.SealAnswer(k.Credential, k.Key, plain)
		if err != nil {
			o.log.Error("seal idempotent answer", "error", err.Error())
			return plain, false // not kept: a retry runs again
		}
		return s, keep
	})
	switch {
	case err != nil:
		return nil, false, err
	case !replayed:
		return plain, false, nil
	}
	opened, ok := tokens.OpenAnswer(k.Credential, k.Key, a)
	if !ok {
		return nil, false, tournament.Errorf(tournament.KindRejected, tournament.CodeIdempotencyKeyReused,
			"the Idempotency-Key %q was already used with a different request", k.Key)
	}
	return opened, true, nil
}

// finish stores the answer of an owned key, or releases the key when the
// answer is not kept.
func (o *Once) finish(ctx context.Context, k *Key, a []byte, keep bool) {
	if !keep {
		if err := o.keys.Release(ctx, k.Scope, k.Key); err != nil {
			o.log.Error("release idempotency key", "error", err.Error())
		}
		return
	}
	if err := o.keys.Complete(ctx, k.Scope, k.Key, a); err != nil {
		o.log.Error("store idempotent answer", "error", err.Error())
	}
}

// detached is ctx without its cancellation, with its deadline.
func detached(ctx context.Context) (context.Context, context.CancelFunc) {
	d, ok := ctx.Deadline()
	ctx = context.WithoutCancel(ctx)
	if ok {
		return context.WithDeadline(ctx, d)
	}
	return ctx, func() {}
}
