package app_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/tournament"
)

// memKeys is an in-memory app.Keys with the claim rules of
// postgres.Idempotency (without expiry).
type memKeys struct {
	mu       sync.Mutex
	claims   map[string]*memClaim
	log      []string
	renewals int
}

type memClaim struct {
	fp     string
	answer []byte
}

func newMemKeys() *memKeys { return &memKeys{claims: map[string]*memClaim{}} }

func (m *memKeys) Claim(_ context.Context, scope, key string, fp []byte) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.log = append(m.log, "claim")
	c := m.claims[scope+" "+key]
	switch {
	case c == nil:
		m.claims[scope+" "+key] = &memClaim{fp: string(fp)}
		return nil, nil
	case c.fp != string(fp):
		return nil, tournament.Errorf(tournament.KindRejected, tournament.CodeIdempotencyKeyReused, "reused")
	case c.answer == nil:
		return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeIdempotencyKeyInUse, "in use")
	}
	return c.answer, nil
}

func (m *memKeys) Complete(_ context.Context, scope, key string, answer []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.log = append(m.log, "complete")
	m.claims[scope+" "+key].answer = answer
	return nil
}

func (m *memKeys) Release(_ context.Context, scope, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.log = append(m.log, "release")
	delete(m.claims, scope+" "+key)
	return nil
}

func (m *memKeys) Renew(_ context.Context, scope, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.claims[scope+" "+key] != nil {
		m.renewals++
	}
	return nil
}

func (m *memKeys) renewed() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.renewals
}

// keyedKeys is memKeys kept by the storage adapter (app.KeyedStore), as
// postgres.Idempotency is: its claiming reads claim the key; its writes
// are not used here.
type keyedKeys struct{ *memKeys }

func (k keyedKeys) TableClaiming(ctx context.Context, scope, key string, fp []byte, tid string, n, t int) (
	*tournament.Tournament, *tournament.Round, []byte, error, error) {
	stored, err := k.Claim(ctx, scope, key, fp)
	return &tournament.Tournament{ID: tid}, &tournament.Round{Number: n}, stored, err, nil
}

func (k keyedKeys) DealEntryClaiming(ctx context.Context, scope, key string, fp []byte, g tournament.GameKey) (
	*tournament.DealEntry, []byte, error, error) {
	stored, err := k.Claim(ctx, scope, key, fp)
	return &tournament.DealEntry{}, stored, err, nil
}

func (keyedKeys) AppendDealClaiming(context.Context, *tournament.DealWrite, string, string, []byte, []byte) (bool, error) {
	return false, errors.New("not used")
}

func (keyedKeys) AppendDealAnswered(context.Context, *tournament.DealWrite, string, string, []byte) (bool, bool, error) {
	return false, false, errors.New("not used")
}

func (keyedKeys) ConfirmGameAnswered(context.Context, tournament.GameKey, tournament.Confirmation,
	func(*tournament.TableGame) (*tournament.Confirmed, error), string, string,
	func(*tournament.Confirmed) ([]byte, error)) (*tournament.TableGame, bool, bool, error) {
	return nil, false, false, errors.New("not used")
}

func (keyedKeys) CorrectDealAnswered(context.Context, tournament.GameKey, int, json.RawMessage, string, time.Time,
	func(*tournament.Round, *tournament.TableGame) (*tournament.DealCorrection, error), string, string,
	func(*tournament.CorrectedDeal) ([]byte, error)) (bool, error) {
	return false, errors.New("not used")
}

// plainGames is a game store whose table read answers at once.
type plainGames struct{ tournament.GameStore }

func (plainGames) Table(_ context.Context, tid string, n, _ int) (*tournament.Tournament, *tournament.Round, error) {
	return &tournament.Tournament{ID: tid}, &tournament.Round{Number: n}, nil
}

// counted is a command that counts its runs and answers its run number,
// or fails with err.
type counted struct {
	runs int
	err  error
	read bool // read the game's table first, through the unit it runs in
}

func (c *counted) run(ctx context.Context, via app.Via) (any, error) {
	if c.read && via.Games != nil {
		if _, _, err := via.Games(plainGames{}).Table(ctx, "t", 1, 1); err != nil {
			return nil, err
		}
	}
	c.runs++
	return c.runs, c.err
}

// doer is Once.Do or Once.DoIn.
type doer func(ctx context.Context, k *app.Key, answer app.Answer, cmd func(context.Context, app.Via) (any, error)) ([]byte, bool, error)

// doOf is once's DoIn when inUnit, else its Do.
func doOf(once *app.Once, inUnit bool) doer {
	if inUnit {
		return once.DoIn
	}
	return func(ctx context.Context, k *app.Key, answer app.Answer, cmd func(context.Context, app.Via) (any, error)) ([]byte, bool, error) {
		return once.Do(ctx, k, answer, func(ctx context.Context) (any, error) { return cmd(ctx, app.Via{}) })
	}
}

func answer(result any, err error) ([]byte, bool) {
	if err != nil {
		return []byte("failed"), tournament.ErrorKind(err) != tournament.KindInternal
	}
	return []byte{byte('0' + result.(int))}, true
}

func TestOnce(t *testing.T) {
	key := &app.Key{Scope: "s", Key: "k", Fingerprint: []byte("fp")}
	for _, tt := range []struct {
		name     string
		keys     func() app.Keys
		withRead bool
	}{
		{"claim first", func() app.Keys { return newMemKeys() }, false},
		{"in a unit, keys not kept by the store", func() app.Keys { return newMemKeys() }, true},
		{"in a unit, claimed with the read", func() app.Keys { return keyedKeys{newMemKeys()} }, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			do := doOf(app.NewOnce(tt.keys(), nil), tt.withRead)
			cmd := &counted{read: tt.withRead}
			for try := range 3 {
				a, replayed, err := do(context.Background(), key, answer, cmd.run)
				if err != nil || string(a) != "1" || replayed != (try > 0) {
					t.Fatalf("try %d = %q replayed %v, %v; want the first answer %q, replayed after the first", try+1, a, replayed, err, "1")
				}
			}
			if cmd.runs != 1 {
				t.Errorf("the command ran %d times under one key, want 1", cmd.runs)
			}
			other := &app.Key{Scope: "s", Key: "k", Fingerprint: []byte("another")}
			if _, _, err := do(context.Background(), other, answer, cmd.run); tournament.ErrorCode(err) != tournament.CodeIdempotencyKeyReused {
				t.Errorf("the key with another command: %v, want %s", err, tournament.CodeIdempotencyKeyReused)
			}
			if cmd.runs != 1 {
				t.Errorf("the command ran %d times, want 1: a refused key runs nothing", cmd.runs)
			}
			// Without a key the command runs each time.
			for range 2 {
				if _, replayed, err := do(context.Background(), nil, answer, cmd.run); replayed || err != nil {
					t.Fatalf("without a key: replayed %v, %v", replayed, err)
				}
			}
			if cmd.runs != 3 {
				t.Errorf("the command ran %d times, want 3", cmd.runs)
			}
		})
	}
}

// TestOnceServerError: an answer that is not kept (a server's failure)
// releases the key, and the retry runs the command again; a refusal by
// the rules is kept and replayed.
func TestOnceServerError(t *testing.T) {
	for _, withRead := range []bool{false, true} {
		keys := keyedKeys{newMemKeys()}
		do := doOf(app.NewOnce(keys, nil), withRead)
		key := &app.Key{Scope: "s", Key: "k", Fingerprint: []byte("fp")}
		cmd := &counted{read: withRead, err: errors.New("the database went away")}
		for range 2 {
			if a, replayed, err := do(context.Background(), key, answer, cmd.run); string(a) != "failed" || replayed || err != nil {
				t.Fatalf("withRead %v: failed command = %q replayed %v, %v", withRead, a, replayed, err)
			}
		}
		if cmd.runs != 2 {
			t.Errorf("withRead %v: a server error ran %d times over 2 tries, want 2 (released, not kept)", withRead, cmd.runs)
		}
		cmd.err = tournament.Errorf(tournament.KindConflict, tournament.CodeGameOver, "over")
		key.Key = "k2"
		for try := range 2 {
			if a, replayed, err := do(context.Background(), key, answer, cmd.run); string(a) != "failed" || replayed != (try > 0) || err != nil {
				t.Fatalf("withRead %v: refused command, try %d = %q replayed %v, %v", withRead, try+1, a, replayed, err)
			}
		}
		if cmd.runs != 3 {
			t.Errorf("withRead %v: a refusal ran %d times in all, want 3 (kept and replayed)", withRead, cmd.runs)
		}
	}
}

// TestOnceOutlivesTheClient: a command whose caller hangs up runs to its
// end, so that its answer is kept for the retry.
func TestOnceOutlivesTheClient(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	once := app.NewOnce(newMemKeys(), nil)
	key := &app.Key{Scope: "s", Key: "k", Fingerprint: []byte("fp")}
	var sawCancel bool
	_, _, err := once.Do(ctx, key, answer, func(ctx context.Context) (any, error) {
		cancel()
		sawCancel = ctx.Err() != nil
		return 1, nil
	})
	if err != nil || sawCancel {
		t.Fatalf("Do = %v; the command saw the cancellation %v, want it to run on", err, sawCancel)
	}
	if a, replayed, err := once.Do(context.Background(), key, answer, nil); !replayed || string(a) != "1" || err != nil {
		t.Errorf("retry = %q replayed %v, %v; want the answer kept", a, replayed, err)
	}
}

// TestOnceRenews: the claim of a command still running is renewed, so
// that a retry does not take it over as if its server had died; a command
// that ends sooner never renews.
func TestOnceRenews(t *testing.T) {
	for _, withRead := range []bool{false, true} {
		keys := keyedKeys{newMemKeys()}
		do := doOf(app.NewOnce(keys, nil).WithRenewal(5*time.Millisecond), withRead)
		slow := func(ctx context.Context, via app.Via) (any, error) {
			if withRead {
				if _, _, err := via.Games(plainGames{}).Table(ctx, "t", 1, 1); err != nil {
					return nil, err
				}
			}
			// It runs until its claim was renewed twice (5 ms apart), or
			// 10 s: on a loaded machine (a clean clone's race pass, load 9)
			// a fixed 40 ms, eight periods, saw one renewal.
			for deadline := time.Now().Add(10 * time.Second); keys.renewed() < 2 && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond)
			}
			return 1, nil
		}
		if _, _, err := do(context.Background(), &app.Key{Scope: "s", Key: "slow", Fingerprint: []byte("fp")}, answer, slow); err != nil {
			t.Fatal(err)
		}
		if n := keys.renewed(); n < 2 {
			t.Errorf("withRead %v: a command running 10 s, 2,000 renewal periods, renewed its claim %d times, want several", withRead, n)
		}
		keys = keyedKeys{newMemKeys()} // the slow command's last renewal may still be under way
		before := keys.renewed()
		fast := &counted{read: withRead}
		quick := app.NewOnce(keys, nil).WithRenewal(200 * time.Millisecond)
		if _, _, err := doOf(quick, false)(context.Background(), &app.Key{Scope: "s", Key: "fast", Fingerprint: []byte("fp")}, answer, fast.run); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond) // past the first renewal, had the timer not been stopped
		if n := keys.renewed() - before; n != 0 {
			t.Errorf("withRead %v: a quick command renewed %d times, want 0", withRead, n)
		}
	}
}
