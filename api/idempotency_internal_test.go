package api

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// TestRecorderDropsLargeAnswers (issue 13, item 1): an answer larger than
// MaxStoredResponse is passed on whole but not kept, so it is neither held
// twice in memory nor stored.
func TestRecorderDropsLargeAnswers(t *testing.T) {
	t.Parallel()
	w := httptest.NewRecorder()
	rec := &recorder{ResponseWriter: w}
	chunk := make([]byte, 1<<20)
	for range MaxStoredResponse/len(chunk) + 1 {
		rec.Write(chunk)
	}
	if rec.size != MaxStoredResponse+len(chunk) || rec.body.Len() != 0 || w.Body.Len() != rec.size {
		t.Errorf("after %d bytes: size %d, kept %d, passed on %d; want the size counted, nothing kept, all passed on",
			MaxStoredResponse+len(chunk), rec.size, rec.body.Len(), w.Body.Len())
	}
	if rec.body.Cap() != 0 {
		t.Errorf("the recorder still holds a buffer of %d bytes", rec.body.Cap())
	}
}

// countRenewals is an idempotency store that counts renewals.
type countRenewals struct {
	IdempotencyStore
	n atomic.Int64
}

func (c *countRenewals) Renew(context.Context, string, string) error { c.n.Add(1); return nil }

// TestClaimRenewal: a claim is renewed every claimRenewEvery while its
// request runs, and no more once it ended (one renewal may be under way
// at that moment).
func TestClaimRenewal(t *testing.T) {
	// Not parallel: it sets the package's claimRenewEvery.
	defer func(d time.Duration) { claimRenewEvery = d }(claimRenewEvery)
	claimRenewEvery = 10 * time.Millisecond
	store := &countRenewals{}
	s := &Server{deps: Deps{Idempotency: store}, log: slog.New(slog.DiscardHandler)}
	stop := s.renewClaim(context.Background(), "scope", "key", func() bool { return true })
	for deadline := time.Now().Add(10 * time.Second); store.n.Load() < 3; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d renewals in 10 s at every 10 ms", store.n.Load())
		}
	}
	stop()
	ended := store.n.Load()
	time.Sleep(100 * time.Millisecond)
	if after := store.n.Load() - ended; after > 1 {
		t.Errorf("%d renewals after the request ended, want none", after)
	}

	notOwned := &countRenewals{}
	s.deps.Idempotency = notOwned
	stop = s.renewClaim(context.Background(), "scope", "key", func() bool { return false })
	time.Sleep(60 * time.Millisecond)
	stop()
	if n := notOwned.n.Load(); n != 0 {
		t.Errorf("%d renewals of a key the request does not hold, want none", n)
	}
}
