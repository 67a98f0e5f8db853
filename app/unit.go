// Unit: a command sent with a client's key as one unit of work with the
// store (the key's claim, the command and its answer), decorating the
// game store the domain's command reads and writes through.
package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"time"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/referee"
)

// KeyedStore is the storage adapter's side of a command sent with a
// client's key (postgres.Idempotency): besides the keys themselves, the
// game store's reads with the key's claim in their round trip, and its
// writes with the key's answer in their statement. A claiming read answers
// the table or the entry when the key is now the caller's; else the
// answer stored under the key before (stored), or the claim's refusal
// (claimErr: the key reused with another command, or in use); err is the
// read's own.
type KeyedStore interface {
	Keys
	TableClaiming(ctx context.Context, scope, key string, fingerprint []byte, tid string, n, t int) (
		tt *tournament.Tournament, rd *tournament.Round, stored []byte, claimErr, err error)
	DealEntryClaiming(ctx context.Context, scope, key string, fingerprint []byte, k tournament.GameKey) (
		e *tournament.DealEntry, stored []byte, claimErr, err error)
	// AppendDealClaiming is GameStore.AppendDeal for a deal that does not
	// end its game, claiming the key with its answer in the same statement
	// (false: nothing written, the entry changed or the key was taken).
	AppendDealClaiming(ctx context.Context, w *tournament.DealWrite, scope, key string, fingerprint, answer []byte) (bool, error)
	// AppendDealAnswered is AppendDealClaiming for a key claimed before:
	// the answer is stored under it with the deal (answered).
	AppendDealAnswered(ctx context.Context, w *tournament.DealWrite, scope, key string, answer []byte) (inserted, answered bool, err error)
	// ConfirmGameAnswered is GameStore.ConfirmGame with the answer, made
	// by answer from the outcome decide foretells, stored under the key
	// (claimed before) with the confirmation (answered).
	ConfirmGameAnswered(ctx context.Context, k tournament.GameKey, c tournament.Confirmation,
		decide func(*tournament.TableGame) (*tournament.Confirmed, error), scope, key string,
		answer func(*tournament.Confirmed) ([]byte, error)) (g *tournament.TableGame, created, answered bool, err error)
	// CorrectDealAnswered is GameStore.CorrectDeal with the answer, made
	// by answer from the correction's outcome once written, stored under
	// the key (claimed before) in the correction's transaction
	// (answered).
	CorrectDealAnswered(ctx context.Context, k tournament.GameKey, seq int, deal json.RawMessage, reason string, now time.Time,
		decide func(*tournament.Round, *tournament.TableGame) (*tournament.DealCorrection, error), scope, key string,
		answer func(*tournament.CorrectedDeal) ([]byte, error)) (answered bool, err error)
}

// errKeyStops stops a command whose key was answered before, or whose
// claim was refused: the unit's read answers it, and the caller replays
// the stored answer or answers the refusal (Unit.Stored, Unit.ClaimErr).
var errKeyStops = errors.New("the command's key was answered before, or its claim was refused")

// A Unit is one command run with a client's key: the key is claimed with
// the command's first read of the game store, and the answer, which
// encode makes from the command's outcome before it is written, is stored
// with the write, so that the key, the command and its answer commit
// together. A command refused before it reads claims its key after
// (Claim). Its reads and writes go through Wrap.
type Unit struct {
	keys   KeyedStore
	key    Key
	encode func(outcome any) ([]byte, error)

	made, owned atomic.Bool // the claim was made; the command owns the key
	stored      []byte      // the answer stored before (replay it)
	claimErr    error       // the claim was refused
	answer      []byte      // the answer stored with the write
}

// NewUnit returns the unit of a command sent with k, whose answer encode
// makes from its outcome (a *tournament.DealProgress, a
// *tournament.CorrectedDeal or a *tournament.Confirmed).
func NewUnit(keys KeyedStore, k Key, encode func(outcome any) ([]byte, error)) *Unit {
	return &Unit{keys: keys, key: k, encode: encode}
}

// Wrap decorates gs with the unit (a tournament.Wrap).
func (u *Unit) Wrap(gs tournament.GameStore) tournament.GameStore { return &unitStore{u: u, gs: gs} }

// Via is what a command run in a unit of work decorates its stores with:
// the game store (Games) and the referees' opener of disputes (Disputes).
// The zero Via decorates nothing.
type Via struct {
	Games    tournament.Wrap
	Disputes referee.OpenVia
}

// Via returns the unit's decorations of both stores.
func (u *Unit) Via() Via { return Via{Games: u.Wrap, Disputes: u.Disputes} }

// KeyedOpener is the referees' store's side of a dispute sent with a
// client's key (refereepg.Store.WithKeys): the key claimed first in the
// dispute's transaction, and the answer made of the dispute stored under
// it before the transaction commits. ok false: the store keeps no keys, and did nothing. A dispute
// refused (err) leaves the key unclaimed; a key that was not the
// caller's writes nothing and returns the answer stored before or the
// claim's refusal.
type KeyedOpener interface {
	OpenDisputeKeyed(ctx context.Context, d *referee.Dispute, check func(*referee.State, int) error,
		scope, key string, fingerprint []byte, answer func(*referee.Dispute) ([]byte, error)) (ok bool, stored []byte, claimErr, err error)
}

// Disputes decorates the referees' opener with the unit (a
// referee.OpenVia): the key's claim, the dispute and its answer in one
// transaction when the store keeps keys (KeyedOpener), else the key
// claimed before the dispute is opened.
func (u *Unit) Disputes(o referee.Opener) referee.Opener { return &unitOpener{u: u, o: o} }

// unitOpener is the referees' opener as a unit decorates it.
type unitOpener struct {
	u *Unit
	o referee.Opener
}

func (s *unitOpener) OpenDispute(ctx context.Context, d *referee.Dispute, check func(*referee.State, int) error) error {
	u := s.u
	if ko, ok := s.o.(KeyedOpener); ok && !u.made.Load() && u.encode != nil {
		var a []byte
		did, stored, claimErr, err := ko.OpenDisputeKeyed(ctx, d, check, u.key.Scope, u.key.Key, u.key.Fingerprint,
			func(d *referee.Dispute) ([]byte, error) {
				var err error
				a, err = u.encode(d)
				return a, err
			})
		if did {
			switch {
			case stored != nil || claimErr != nil:
				return u.claimed(stored, claimErr)
			case err != nil:
				return err // refused, nothing written: the key is claimed after, with the refusal
			}
			_ = u.claimed(nil, nil)
			u.answer = a
			return nil
		}
	}
	if err := u.Claim(ctx); err != nil {
		return err
	}
	return s.o.OpenDispute(ctx, d, check)
}

// Owned reports whether the claim was made and the command owns the key.
func (u *Unit) Owned() bool { return u.owned.Load() }

// Stored is the answer stored under the key before, when it was.
func (u *Unit) Stored() []byte { return u.stored }

// ClaimErr is the refusal of the key's claim, when it was refused.
func (u *Unit) ClaimErr() error { return u.claimErr }

// Made reports whether the key's claim was made.
func (u *Unit) Made() bool { return u.made.Load() }

// Answer is the answer stored with the command's write, nil when none
// was.
func (u *Unit) Answer() []byte { return u.answer }

// answered reports whether a was stored with the command's write.
func (u *Unit) answered(a []byte) bool { return u.answer != nil && bytes.Equal(a, u.answer) }

// Claim claims the key when no read of the command did: nil when the
// command owns it.
func (u *Unit) Claim(ctx context.Context) error {
	if u.made.Load() {
		return u.outcome()
	}
	stored, err := u.keys.Claim(ctx, u.key.Scope, u.key.Key, u.key.Fingerprint)
	return u.claimed(stored, err)
}

// claimed records how the claim went.
func (u *Unit) claimed(stored []byte, claimErr error) error {
	u.stored, u.claimErr = stored, claimErr
	u.owned.Store(stored == nil && claimErr == nil)
	u.made.Store(true)
	return u.outcome()
}

func (u *Unit) outcome() error {
	if u.owned.Load() {
		return nil
	}
	return errKeyStops
}

// unitStore is the game store as a unit decorates it.
type unitStore struct {
	u  *Unit
	gs tournament.GameStore
}

func (s *unitStore) Table(ctx context.Context, tid string, n, t int) (*tournament.Tournament, *tournament.Round, error) {
	u := s.u
	if u.made.Load() {
		return s.gs.Table(ctx, tid, n, t)
	}
	tt, rd, stored, claimErr, err := u.keys.TableClaiming(ctx, u.key.Scope, u.key.Key, u.key.Fingerprint, tid, n, t)
	if err != nil {
		return nil, nil, err
	}
	if err := u.claimed(stored, claimErr); err != nil {
		return nil, nil, err
	}
	return tt, rd, nil
}

func (s *unitStore) DealEntry(ctx context.Context, k tournament.GameKey) (*tournament.DealEntry, error) {
	u := s.u
	if u.made.Load() {
		return s.gs.DealEntry(ctx, k)
	}
	e, stored, claimErr, err := u.keys.DealEntryClaiming(ctx, u.key.Scope, u.key.Key, u.key.Fingerprint, k)
	if err != nil {
		return nil, err
	}
	if err := u.claimed(stored, claimErr); err != nil {
		return nil, err
	}
	return e, nil
}

// AppendDeal stores a deal that goes on with its answer: the key claimed
// in the same statement when no read claimed it (a deal checked against
// this process's memory of the game). The deal that ends the game is
// answered after its write (its answer holds the result as stored).
func (s *unitStore) AppendDeal(ctx context.Context, w *tournament.DealWrite) (bool, error) {
	u := s.u
	if w.Final != nil || w.Outcome == nil || u.encode == nil {
		if err := u.Claim(ctx); err != nil {
			return false, err
		}
		return s.gs.AppendDeal(ctx, w)
	}
	a, err := u.encode(w.Outcome)
	if err != nil {
		return false, err
	}
	if a == nil { // no answer made before the write: it is stored after
		if err := u.Claim(ctx); err != nil {
			return false, err
		}
		return s.gs.AppendDeal(ctx, w)
	}
	if !u.made.Load() {
		ok, err := u.keys.AppendDealClaiming(ctx, w, u.key.Scope, u.key.Key, u.key.Fingerprint, a)
		if ok {
			_ = u.claimed(nil, nil)
			u.answer = a
		}
		return ok, err
	}
	if err := u.outcome(); err != nil {
		return false, err
	}
	ok, answered, err := u.keys.AppendDealAnswered(ctx, w, u.key.Scope, u.key.Key, a)
	if answered {
		u.answer = a
	}
	return ok, err
}

func (s *unitStore) SubmitResult(ctx context.Context, r *tournament.GameResult, closed func(*tournament.Round) error) (*tournament.GameResult, bool, error) {
	if err := s.u.Claim(ctx); err != nil {
		return nil, false, err
	}
	return s.gs.SubmitResult(ctx, r, closed)
}

// ConfirmGame stores the confirmation with its answer, made from the
// outcome decide foretells under the game's lock.
func (s *unitStore) ConfirmGame(ctx context.Context, k tournament.GameKey, c tournament.Confirmation,
	decide func(*tournament.TableGame) (*tournament.Confirmed, error)) (*tournament.TableGame, bool, error) {
	u := s.u
	if err := u.Claim(ctx); err != nil {
		return nil, false, err
	}
	if u.encode == nil {
		return s.gs.ConfirmGame(ctx, k, c, decide)
	}
	var a []byte
	answer := func(o *tournament.Confirmed) ([]byte, error) {
		var err error
		a, err = u.encode(o)
		return a, err
	}
	g, created, answered, err := u.keys.ConfirmGameAnswered(ctx, k, c, decide, u.key.Scope, u.key.Key, answer)
	if answered && a != nil {
		u.answer = a
	}
	return g, created, err
}

// CorrectDeal stores the correction with its answer, made from the
// outcome decide answers, in the correction's transaction.
func (s *unitStore) CorrectDeal(ctx context.Context, k tournament.GameKey, seq int, deal json.RawMessage, reason string, now time.Time,
	decide func(*tournament.Round, *tournament.TableGame) (*tournament.DealCorrection, error)) error {
	u := s.u
	if err := u.Claim(ctx); err != nil {
		return err
	}
	if u.encode == nil {
		return s.gs.CorrectDeal(ctx, k, seq, deal, reason, now, decide)
	}
	var a []byte
	answer := func(o *tournament.CorrectedDeal) ([]byte, error) {
		var err error
		a, err = u.encode(o)
		return a, err
	}
	answered, err := u.keys.CorrectDealAnswered(ctx, k, seq, deal, reason, now, decide, u.key.Scope, u.key.Key, answer)
	if answered && a != nil {
		u.answer = a
	}
	return err
}
