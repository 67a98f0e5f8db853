// The storage side of a command sent with a client's key, as one unit of
// work (app.KeyedStore): the key claimed in the round trip of the
// command's first read, the answer stored by the command's write.
package postgres

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/revisor-sm/revisor/tournament"
)

// readClaiming runs sql, a read of one row that scan scans (scan answers
// nil: the read's own error is scan's to keep), in one round trip with the
// claim of c: one batch, one implicit transaction. It answers the answer
// stored under the key before, or the claim's refusal (the key reused
// with another command, or in use) as claimErr; err is the batch's.
func (s *Idempotency) readClaiming(ctx context.Context, c keyClaim, sql string, args []any, scan func(pgx.Row) error) (stored []byte, claimErr, err error) {
	var retry bool
	b := &pgx.Batch{}
	// The batch's commit (the claim's) need not wait for the disk: a claim
	// lost in a crash of the database only lets the retry claim again, and
	// the write's own commit, synchronous, flushes the claim's record
	// before it.
	b.Queue(asyncCommitSQL)
	b.Queue(claimKeySQL, s.claimKeyArgs(c)...).QueryRow(func(row pgx.Row) error {
		stored, retry, claimErr = claimOutcome(row, c)
		return nil
	})
	b.Queue(sql, args...).QueryRow(scan)
	if err := s.pool.SendBatch(ctx, b).Close(); err != nil {
		return nil, nil, MapError(err, "idempotency key")
	}
	if retry {
		stored, claimErr = s.claimKey(ctx, c)
	}
	return stored, claimErr, nil
}

// TableClaiming is Store.Table with the claim of key made in the same
// round trip (readClaiming): the answer stored before, or the claim's
// refusal, instead of the table when the key is not the caller's.
func (s *Idempotency) TableClaiming(ctx context.Context, scope, key string, fingerprint []byte, tid string, n, t int) (
	tt *tournament.Tournament, rd *tournament.Round, stored []byte, claimErr, err error) {
	var readErr error
	scan := func(row pgx.Row) error {
		tt, rd, readErr = scanTable(row, n, t)
		return nil
	}
	stored, claimErr, err = s.readClaiming(ctx, s.claim(scope, key, fingerprint), tableSQL, []any{tid, n, t}, scan)
	if err == nil && claimErr == nil && stored == nil {
		err = readErr
	}
	return tt, rd, stored, claimErr, err
}

// DealEntryClaiming is Store.DealEntry with the claim of key made in the
// same round trip, as TableClaiming.
func (s *Idempotency) DealEntryClaiming(ctx context.Context, scope, key string, fingerprint []byte, k tournament.GameKey) (
	e *tournament.DealEntry, stored []byte, claimErr, err error) {
	var r dealEntryRead
	scan := func(row pgx.Row) error { return r.scan(row, k) }
	stored, claimErr, err = s.readClaiming(ctx, s.claim(scope, key, fingerprint), dealEntrySQL, dealEntryArgs(k), scan)
	if err != nil || claimErr != nil || stored != nil {
		return nil, stored, claimErr, err
	}
	e, err = r.entry()
	return e, nil, nil, err
}

// AppendDealClaiming is Store.AppendDeal for a deal that does not end its
// game, with key claimed and answered in the same statement: both are
// written or neither (false: the entry no longer stands, or the key was
// taken).
func (s *Idempotency) AppendDealClaiming(ctx context.Context, w *tournament.DealWrite, scope, key string, fingerprint, answer []byte) (bool, error) {
	args := append(appendDealArgs(ctx, w), scope, key, fingerprint, answer)
	inserted, _, err := execAppendDeal(ctx, s.pool, appendDealSQL[appendClaiming], args)
	return inserted, err
}

// AppendDealAnswered is Store.AppendDeal for a deal that does not end its
// game, with the answer stored under key (claimed before) in the same
// statement; answered says it was.
func (s *Idempotency) AppendDealAnswered(ctx context.Context, w *tournament.DealWrite, scope, key string, answer []byte) (inserted, answered bool, err error) {
	args := append(appendDealArgs(ctx, w), scope, key, answer)
	return execAppendDeal(ctx, s.pool, appendDealSQL[appendAnswering], args)
}

// ConfirmGameAnswered is Store.ConfirmGame with the answer stored under
// key (claimed before) by the confirmation's statement: answer makes it
// from the outcome decide foretells; answered says it was stored.
func (s *Idempotency) ConfirmGameAnswered(ctx context.Context, k tournament.GameKey, c tournament.Confirmation,
	decide func(*tournament.TableGame) (*tournament.Confirmed, error), scope, key string,
	answer func(*tournament.Confirmed) ([]byte, error)) (g *tournament.TableGame, created, answered bool, err error) {
	return confirmGame(ctx, s.pool, k, c, decide, &confirmAnswer{scope: scope, key: key, answer: answer})
}

// CorrectDealAnswered is Store.CorrectDeal with the answer stored under
// key (claimed before) in the correction's transaction: answer makes it
// from the correction's outcome once written; answered says it was
// stored.
func (s *Idempotency) CorrectDealAnswered(ctx context.Context, k tournament.GameKey, seq int, deal json.RawMessage, reason string, now time.Time,
	decide func(*tournament.Round, *tournament.TableGame) (*tournament.DealCorrection, error), scope, key string,
	answer func(*tournament.CorrectedDeal) ([]byte, error)) (answered bool, err error) {
	return NewStore(s.pool).correctDeal(ctx, k, seq, deal, reason, now, decide, &correctionAnswer{scope: scope, key: key, answer: answer})
}

// TxKey is a client's key claimed and answered in a transaction of
// another store (refereepg's dispute): the claim, the command's write and
// its answer commit together, or none of them does.
type TxKey struct {
	s *Idempotency
	c keyClaim
}

// InTx returns the key to claim and answer in a transaction (TxKey).
func (s *Idempotency) InTx(scope, key string, fingerprint []byte) TxKey {
	return TxKey{s: s, c: s.claim(scope, key, fingerprint)}
}

// Claim claims the key in tx: nil, nil, nil when the transaction owns it
// now; else the answer stored under it before, or the claim's refusal
// (claimErr: the key reused with another command, or in use); err is the
// statement's.
func (k TxKey) Claim(ctx context.Context, tx pgx.Tx) (stored []byte, claimErr, err error) {
	for attempt := 0; ; attempt++ {
		var retry bool
		var scanErr error
		row := tx.QueryRow(ctx, claimKeySQL, k.s.claimKeyArgs(k.c)...)
		stored, retry, claimErr = claimOutcome(row, k.c)
		if retry && attempt < 3 {
			continue // the other claim committed after this statement began: ask again
		}
		if retry {
			claimErr = tournament.Errorf(tournament.KindConflict, tournament.CodeIdempotencyKeyInUse,
				"a request with the Idempotency-Key %q is still being handled; retry later", k.c.key)
		}
		if code := tournament.ErrorCode(claimErr); claimErr != nil && code != tournament.CodeIdempotencyKeyReused &&
			code != tournament.CodeIdempotencyKeyInUse {
			scanErr, claimErr = claimErr, nil // the statement failed, not the claim
		}
		return stored, claimErr, scanErr
	}
}

// Answer stores the command's answer under the key, in tx.
func (k TxKey) Answer(ctx context.Context, tx pgx.Tx, answer []byte) error {
	_, err := tx.Exec(ctx, `UPDATE idempotency_keys SET response = $3 WHERE scope = $1 AND key = $2`, k.c.scope, k.c.key, answer)
	return MapError(err, "idempotency key")
}

// ambientTx is the transaction of a command run with a client's key
// (Atomically), which the store's own transactions (Store.inTx) join as
// savepoints, one at a time: a pgx.Tx is one connection, which runs one
// statement at a time.
type ambientTx struct {
	mu    sync.Mutex
	tx    pgx.Tx
	wrote bool // the command has written in it
}

// joins reports whether a transaction of the store's, a write or not,
// joins the command's: every write, and a read once the command has
// written. When it does, it holds a.mu (the caller unlocks it).
func (a *ambientTx) joins(write bool) bool {
	a.mu.Lock()
	if write {
		a.wrote = true
	}
	if !a.wrote {
		a.mu.Unlock()
		return false
	}
	return true
}

type ambientKey struct{}

// ambientOf is the command's transaction that ctx carries, if any.
func ambientOf(ctx context.Context) *ambientTx {
	a, _ := ctx.Value(ambientKey{}).(*ambientTx)
	return a
}

// Atomically runs run, a command sent with a client's key, as one
// transaction with the key's claim and its answer (app.Atomic): the key is
// claimed first, every write of the store run gets (through the ctx it is
// given) is a savepoint of the transaction, and the answer run returns is
// stored under the key before it commits. So the command, its audit rows
// and its answer commit together, or none of them does: a server that
// dies halfway leaves the key free and nothing written, and the retry
// runs the command once. A second send while the first runs waits for
// its end and gets its answer. keep false (a failure of the server) stores
// no answer: the command's writes commit and the key is freed, so the
// retry runs again. When the key is not the caller's, run does not run:
// stored is the answer stored before, or claimErr the claim's refusal (the
// key reused with another command); err is the database's.
func (s *Idempotency) Atomically(ctx context.Context, scope, key string, fingerprint []byte,
	run func(context.Context) (answer []byte, keep bool)) (stored []byte, claimErr, err error) {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted})
	if err != nil {
		return nil, nil, MapError(err, "idempotency key")
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	k := s.InTx(scope, key, fingerprint)
	if stored, claimErr, err = k.Claim(ctx, tx); err != nil || claimErr != nil || stored != nil {
		return stored, claimErr, err
	}
	a := &ambientTx{tx: tx}
	answer, keep := run(context.WithValue(ctx, ambientKey{}, a))
	a.mu.Lock() // a statement of the command's still under way
	defer a.mu.Unlock()
	if keep {
		err = k.Answer(ctx, tx, answer)
	} else {
		_, err = tx.Exec(ctx, `DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2`, scope, key)
		err = MapError(err, "idempotency key")
	}
	if err != nil {
		return nil, nil, err
	}
	return nil, nil, MapError(tx.Commit(ctx), "idempotency key")
}
