package tournament

import (
	"context"
	"errors"
	"sync/atomic"
	"time"
)

// A KeyClaim is a request's Idempotency-Key on its way to the store (issue
// 17): instead of claiming the key in a round trip of its own and storing
// the answer in another, the API hands the claim down in the request's
// context, a store that can (postgres.Store's DealEntry) claims the key in
// the round trip of the write's first read, and the write that can
// (AppendNextDeal) stores the answer in its own statement, so that the
// answer is committed with the deal or not at all. Stores that cannot
// leave it alone and the API claims and completes the key itself.
type KeyClaim struct {
	Scope, Key  string
	Fingerprint []byte
	// TTL and Stale are the idempotency store's: how long a key is
	// remembered, and how long a claim without an answer stands before a
	// retry may take it over.
	TTL, Stale time.Duration

	// ClaimNow makes the claim on its own (one round trip): the service
	// calls it through Ensure before any write when the store's read did
	// not make it, so that no write ever precedes its key's claim.
	ClaimNow func(ctx context.Context) (stored []byte, err error)
	// Prepare, when set (by the API), builds the answer to store from the
	// write's outcome (a *DealProgress); the service calls it before the
	// write, which stores what it made as Answer.
	Prepare func(outcome any) ([]byte, error)
	Answer  []byte

	made     atomic.Bool // the claim was made (set by the store)
	owned    atomic.Bool // and the request owns the key
	answered atomic.Bool // the store committed Answer with the write
	Stored   []byte      // the answer stored before, when the key was answered (replay it)
	ClaimErr error       // the key's claim was refused (reused with another body, or in use)
}

// ErrKeyAnswered is what a store answers when the request's key was
// claimed with its first read and found answered before: the request
// stops, and the API replays KeyClaim.Stored.
var ErrKeyAnswered = errors.New("the Idempotency-Key was answered before")

type keyClaimCtx struct{}

// WithKeyClaim returns ctx carrying c.
func WithKeyClaim(ctx context.Context, c *KeyClaim) context.Context {
	return context.WithValue(ctx, keyClaimCtx{}, c)
}

// KeyClaimFrom returns the claim ctx carries that is still to be made, or
// nil.
func KeyClaimFrom(ctx context.Context) *KeyClaim {
	c, _ := ctx.Value(keyClaimCtx{}).(*KeyClaim)
	if c == nil || c.made.Load() {
		return nil
	}
	return c
}

// OwnedKeyClaim returns the claim ctx carries when the request owns its
// key, or nil.
func OwnedKeyClaim(ctx context.Context) *KeyClaim {
	c, _ := ctx.Value(keyClaimCtx{}).(*KeyClaim)
	if c == nil || !c.owned.Load() {
		return nil
	}
	return c
}

// Made records how the claim went: owned, or the answer stored before
// (stored), or refused (err). It returns the error the store's read then
// answers: nil when owned.
func (c *KeyClaim) Made(owned bool, stored []byte, err error) error {
	c.owned.Store(owned)
	c.Stored, c.ClaimErr = stored, err
	c.made.Store(true)
	switch {
	case owned:
		return nil
	case err != nil:
		return err
	}
	return ErrKeyAnswered
}

// Ensure makes the claim ctx carries when no store made it yet; it answers
// the error the request then stops with (nil when it owns the key).
func Ensure(ctx context.Context) error {
	c := KeyClaimFrom(ctx)
	if c == nil {
		return nil
	}
	stored, err := c.ClaimNow(ctx)
	return c.Made(err == nil && stored == nil, stored, err)
}

// IsMade reports whether the store made the claim.
func (c *KeyClaim) IsMade() bool { return c.made.Load() }

// Owned reports whether the claim was made and the request owns the key.
func (c *KeyClaim) Owned() bool { return c.owned.Load() }

// Answered reports whether the store committed Answer with the write.
func (c *KeyClaim) Answered() bool { return c.answered.Load() }

// SetAnswered records that the store committed Answer with the write.
func (c *KeyClaim) SetAnswered() { c.answered.Store(true) }

// prepareAnswer has the claim the context carries, when the request owns
// it, build the answer to outcome, to be stored with the write.
func prepareAnswer(ctx context.Context, outcome any) error {
	c := OwnedKeyClaim(ctx)
	if c == nil {
		return nil
	}
	return c.PrepareUnclaimed(outcome)
}

// PrepareUnclaimed has the claim build the answer to outcome before the
// claim is made, for a store that claims the key and stores the answer in
// the write's one statement (Store.AppendWarmDeal); nil Answer when the
// claim prepares no answer.
func (c *KeyClaim) PrepareUnclaimed(outcome any) error {
	c.Answer = nil
	if c.Prepare == nil {
		return nil
	}
	a, err := c.Prepare(outcome)
	if err != nil {
		return err
	}
	c.Answer = a
	return nil
}
