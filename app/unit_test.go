package app_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/referee"
)

// loggedKeys is keyedKeys whose deal writes are logged (and succeed), so
// that a test sees the order of the claim and the writes.
type loggedKeys struct{ keyedKeys }

func (k loggedKeys) AppendDealClaiming(ctx context.Context, _ *tournament.DealWrite, scope, key string, fp, _ []byte) (bool, error) {
	if stored, err := k.Claim(ctx, scope, key, fp); stored != nil || err != nil {
		return false, nil // the key taken: the statement writes nothing
	}
	k.logf("append with the claim")
	return true, nil
}

func (k loggedKeys) AppendDealAnswered(context.Context, *tournament.DealWrite, string, string, []byte) (bool, bool, error) {
	k.logf("append with the answer")
	return true, true, nil
}

func (k loggedKeys) CorrectDealAnswered(_ context.Context, _ tournament.GameKey, _ int, _ json.RawMessage, _ string, _ time.Time,
	decide func(*tournament.Round, *tournament.TableGame) (*tournament.DealCorrection, error), _, _ string,
	answer func(*tournament.CorrectedDeal) ([]byte, error)) (bool, error) {
	c, err := decide(&tournament.Round{}, &tournament.TableGame{})
	if err != nil {
		return false, err
	}
	k.logf("correct with the answer")
	a, err := answer(c.Outcome)
	return a != nil, err
}

func (k loggedKeys) logf(s string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.log = append(k.log, s)
}

// loggedGames is a game store that logs its plain writes.
type loggedGames struct {
	plainGames
	keys loggedKeys
}

func (g loggedGames) AppendDeal(context.Context, *tournament.DealWrite) (bool, error) {
	g.keys.logf("append")
	return true, nil
}

func (g loggedGames) DealEntry(context.Context, tournament.GameKey) (*tournament.DealEntry, error) {
	return &tournament.DealEntry{}, nil
}

// TestUnitClaimsBeforeItWrites: whatever way a deal goes, its key is
// claimed before it is written or with it, never after: a deal checked
// against memory claims the key in its write's statement, a deal after a
// claiming read stores its answer with it, the deal that ends the game
// (answered after it is stored) claims first; and a key answered before
// writes nothing.
func TestUnitClaimsBeforeItWrites(t *testing.T) {
	answerOf := func(any) ([]byte, error) { return []byte("answer"), nil }
	next := &tournament.DealWrite{Outcome: &tournament.DealProgress{Deal: 2}}
	final := &tournament.DealWrite{Outcome: &tournament.DealProgress{Deal: 2}, Final: &tournament.GameResult{}}
	for _, tt := range []struct {
		name  string
		read  bool
		w     *tournament.DealWrite
		want  []string
		owned bool
	}{
		{"from memory", false, next, []string{"claim", "append with the claim"}, true},
		{"after the entry's read", true, next, []string{"claim", "append with the answer"}, true},
		{"ending the game, from memory", false, final, []string{"claim", "append"}, true},
		{"ending the game, after the read", true, final, []string{"claim", "append"}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			keys := loggedKeys{keyedKeys{newMemKeys()}}
			u := app.NewUnit(keys, app.Key{Scope: "s", Key: "k", Fingerprint: []byte("fp")}, answerOf)
			gs := u.Wrap(loggedGames{keys: keys})
			if tt.read {
				if _, err := gs.DealEntry(context.Background(), tournament.GameKey{}); err != nil {
					t.Fatal(err)
				}
			}
			ok, err := gs.AppendDeal(context.Background(), tt.w)
			if !ok || err != nil || u.Owned() != tt.owned {
				t.Fatalf("AppendDeal = %v, %v, owned %v", ok, err, u.Owned())
			}
			if !slices.Equal(keys.log, tt.want) {
				t.Errorf("calls %q, want %q", keys.log, tt.want)
			}
			if wantAnswer := tt.w.Final == nil; (u.Answer() != nil) != wantAnswer {
				t.Errorf("answer stored with the write: %q, want one %v", u.Answer(), wantAnswer)
			}
		})
	}
	t.Run("a key answered before", func(t *testing.T) {
		keys := loggedKeys{keyedKeys{newMemKeys()}}
		k := app.Key{Scope: "s", Key: "k", Fingerprint: []byte("fp")}
		if _, err := keys.Claim(context.Background(), k.Scope, k.Key, k.Fingerprint); err != nil {
			t.Fatal(err)
		}
		if err := keys.Complete(context.Background(), k.Scope, k.Key, []byte("first")); err != nil {
			t.Fatal(err)
		}
		keys.log = nil
		u := app.NewUnit(keys, k, answerOf)
		gs := u.Wrap(loggedGames{keys: keys})
		if _, err := gs.DealEntry(context.Background(), tournament.GameKey{}); err == nil {
			t.Fatal("the entry's read went on under a key answered before")
		}
		if ok, err := gs.AppendDeal(context.Background(), final); ok || err == nil {
			t.Errorf("AppendDeal under a key answered before = %v, %v; want nothing written", ok, err)
		}
		if string(u.Stored()) != "first" || u.Owned() || slices.Contains(keys.log, "append") {
			t.Errorf("stored %q, owned %v, calls %q; want the first answer, nothing written", u.Stored(), u.Owned(), keys.log)
		}
	})
}

// TestUnitCorrectionAnswersInItsWrite: a correction's key is claimed with
// the table's read and its answer, made from the outcome its decide
// answers, stored in the correction's write; a correction under a key
// answered before writes nothing.
func TestUnitCorrectionAnswersInItsWrite(t *testing.T) {
	ctx := context.Background()
	k := app.Key{Scope: "s", Key: "k", Fingerprint: []byte("fp")}
	decide := func(*tournament.Round, *tournament.TableGame) (*tournament.DealCorrection, error) {
		return &tournament.DealCorrection{Outcome: &tournament.CorrectedDeal{Version: 2}}, nil
	}
	answerOf := func(o any) ([]byte, error) {
		return []byte(fmt.Sprintf("version %d", o.(*tournament.CorrectedDeal).Version)), nil
	}
	keys := loggedKeys{keyedKeys{newMemKeys()}}
	u := app.NewUnit(keys, k, answerOf)
	gs := u.Wrap(loggedGames{keys: keys})
	if _, _, err := gs.Table(ctx, "t", 1, 1); err != nil {
		t.Fatal(err)
	}
	if err := gs.CorrectDeal(ctx, tournament.GameKey{}, 0, nil, "typo", time.Time{}, decide); err != nil {
		t.Fatal(err)
	}
	if want := []string{"claim", "correct with the answer"}; !slices.Equal(keys.log, want) || !u.Owned() {
		t.Errorf("calls %q owned %v, want %q owned", keys.log, u.Owned(), want)
	}
	if string(u.Answer()) != "version 2" {
		t.Errorf("answer stored with the correction = %q, want %q", u.Answer(), "version 2")
	}

	keys = loggedKeys{keyedKeys{newMemKeys()}}
	if _, err := keys.Claim(ctx, k.Scope, k.Key, k.Fingerprint); err != nil {
		t.Fatal(err)
	}
	if err := keys.Complete(ctx, k.Scope, k.Key, []byte("first")); err != nil {
		t.Fatal(err)
	}
	keys.log = nil
	u = app.NewUnit(keys, k, answerOf)
	gs = u.Wrap(loggedGames{keys: keys})
	if err := gs.CorrectDeal(ctx, tournament.GameKey{}, 0, nil, "typo", time.Time{}, decide); err == nil {
		t.Error("a correction under a key answered before went on")
	}
	if string(u.Stored()) != "first" || slices.Contains(keys.log, "correct with the answer") {
		t.Errorf("stored %q, calls %q; want the first answer, nothing written", u.Stored(), keys.log)
	}
}

// keyedOpener is a referees' store that keeps its keys in keys, as
// refereepg's does in the dispute's transaction: the claim, the dispute
// and its answer together, or nothing (a refusal rolls the claim back).
type keyedOpener struct {
	keys   *memKeys
	opened int
	refuse error
}

func (o *keyedOpener) OpenDispute(context.Context, *referee.Dispute, func(*referee.State, int) error) error {
	return errors.New("a store that keeps keys opens a dispute sent with one with its key")
}

func (o *keyedOpener) OpenDisputeKeyed(ctx context.Context, d *referee.Dispute, _ func(*referee.State, int) error,
	scope, key string, fp []byte, answer func(*referee.Dispute) ([]byte, error)) (bool, []byte, error, error) {
	stored, claimErr := o.keys.Claim(ctx, scope, key, fp)
	if stored != nil || claimErr != nil {
		return true, stored, claimErr, nil
	}
	if o.refuse != nil {
		_ = o.keys.Release(ctx, scope, key) // rolled back with the dispute
		return true, nil, nil, o.refuse
	}
	o.opened++
	d.ID = int64(o.opened)
	a, err := answer(d)
	if err != nil {
		_ = o.keys.Release(ctx, scope, key)
		return true, nil, nil, err
	}
	o.keys.mu.Lock()
	o.keys.claims[scope+" "+key].answer = a
	o.keys.mu.Unlock()
	return true, nil, nil, nil
}

// TestDisputeInUnit: a dispute run in a unit of work (Once.DoIn) over a
// store that keeps keys is opened with its key's claim and answer in
// one write (no claim or completion of the key apart); sent again it is
// answered from the key without a second dispute; a dispute the rules
// refuse is answered, and its refusal kept under the key claimed after.
func TestDisputeInUnit(t *testing.T) {
	t.Parallel()
	keys := keyedKeys{newMemKeys()}
	once := app.NewOnce(keys, nil)
	store := &keyedOpener{keys: keys.memKeys}
	open := func(ctx context.Context, via app.Via) (any, error) {
		d := &referee.Dispute{}
		if err := via.Disputes(store).OpenDispute(ctx, d, nil); err != nil {
			return nil, err
		}
		return d, nil
	}
	answer := func(result any, err error) ([]byte, bool) {
		if err != nil {
			return []byte("refused"), true
		}
		return fmt.Appendf(nil, "dispute %d", result.(*referee.Dispute).ID), true
	}
	k := &app.Key{Scope: "s", Key: "k1", Fingerprint: []byte("fp")}
	a, replayed, err := once.DoIn(context.Background(), k, answer, open)
	if string(a) != "dispute 1" || replayed || err != nil || store.opened != 1 || len(keys.log) != 1 {
		t.Fatalf("first: %q replayed %v err %v, %d opened, keys did %v; want dispute 1 in one claim", a, replayed, err, store.opened, keys.log)
	}
	a, replayed, err = once.DoIn(context.Background(), k, answer, open)
	if string(a) != "dispute 1" || !replayed || err != nil || store.opened != 1 {
		t.Errorf("sent again: %q replayed %v err %v, %d opened; want the first answer replayed", a, replayed, err, store.opened)
	}
	store.refuse = tournament.Errorf(tournament.KindConflict, tournament.CodeTooManyDisputes, "too many")
	k2 := &app.Key{Scope: "s", Key: "k2", Fingerprint: []byte("fp")}
	if a, _, err := once.DoIn(context.Background(), k2, answer, open); string(a) != "refused" || err != nil {
		t.Fatalf("refused: %q, %v; want the refusal answered", a, err)
	}
	if stored, _ := keys.Claim(context.Background(), "s", "k2", []byte("fp")); string(stored) != "refused" {
		t.Errorf("the refusal kept under its key: %q, want \"refused\"", stored)
	}
}
