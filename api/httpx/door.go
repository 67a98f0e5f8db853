package httpx

import (
	"context"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/internal/ratelimit"
	"github.com/revisor-sm/revisor/tournament"
)

// Carrier is where a request carries a credential. Every carrier goes
// through Verify, the one path that checks a credential against the
// budgets of wrong ones; package server resolves every carrier a request
// holds on every route (server.credentials), so that a route that ignores
// one still counts it wrong, and a new route cannot become a door around
// the budget.
type Carrier string

// The carriers.
const (
	CarrierHeader  Carrier = "authorization" // Authorization: Bearer <token>
	CarrierSession Carrier = "session"       // the revisor_session cookie
	CarrierTable   Carrier = "table"         // the revisor_table cookie
	CarrierForm    Carrier = "form"          // a login form's field
	// CarrierShortLink is a short link's code (/s/{code}): no credential,
	// but a guess of one is counted the same, so that the short links
	// cannot be enumerated faster than credentials are guessed.
	CarrierShortLink Carrier = "short link"
)

// The per-tournament budget of wrong table codes, whatever their address:
// a burst of a hundred, then one a second. Thirty addresses made 300
// guesses in 0.4 s against a tournament's codes before (issue 25).
const (
	TournamentBurst = 100
	TournamentEvery = time.Second
)

// Door holds the budgets of wrong credentials: one per client address
// (IPv6 by /64, ratelimit.AddrKey) and, for table codes, one per
// tournament across addresses.
type Door struct {
	addrs, tournaments *ratelimit.Failures
}

// NewDoor returns a door over the address budget addrs (shared by the
// processes when addrs is) and the per-tournament budget tournaments; nil
// tournaments is one of this process with TournamentBurst and
// TournamentEvery on the clock now.
func NewDoor(addrs, tournaments *ratelimit.Failures, now func() time.Time) *Door {
	if tournaments == nil {
		tournaments = ratelimit.NewBudget(now, TournamentBurst, TournamentEvery)
	}
	return &Door{addrs: addrs, tournaments: tournaments}
}

// Addresses is the door's per-address budget.
func (d *Door) Addresses() *ratelimit.Failures { return d.addrs }

// Tournaments is the door's per-tournament budget of wrong table codes.
func (d *Door) Tournaments() *ratelimit.Failures { return d.tournaments }

// Check says how to verify one credential.
type Check[T any] struct {
	// Cached finds a credential verified lately without a lookup; a hit is
	// no guess and takes nothing from the budgets. Nil: none.
	Cached func() (T, bool)
	// Lookup verifies the credential. An error of kind unauthorized is a
	// wrong credential; any other error (the database is down) keeps the
	// try spent in this process, so that an outage is no time to guess.
	Lookup func(ctx context.Context) (T, error)
	// Tournament is the tournament whose table code the credential may
	// be ("" when it is none): its budget is taken too.
	Tournament string
	// Wrong tells a wrong credential among Lookup's errors; nil: the
	// errors of kind unauthorized.
	Wrong func(error) bool
}

// verdict is a credential's outcome, kept for the rest of the request.
type verdict struct {
	token string
	value any
	err   error
}

func memoKey(carrier Carrier) string { return "revisor.credential." + string(carrier) }

// Verify is the one path of every credential: it finds token, presented in
// carrier by the request's client, with ch, taking a try from the client's
// budget (and the tournament's, for a code) before the lookup, so that
// simultaneous guesses cannot all pass the check before one of them has
// failed; a wrong credential spends the try, a good one gives it back.
// The outcome is kept for the request: a carrier verified once (by
// server.credentials, then by the handler) is counted once.
func Verify[T any](d *Door, c echo.Context, carrier Carrier, token string, ch Check[T]) (T, error) {
	if v, ok := c.Get(memoKey(carrier)).(verdict); ok && v.token == token {
		t, _ := v.value.(T)
		return t, v.err
	}
	t, err := verify(d, c, ch)
	c.Set(memoKey(carrier), verdict{token: token, value: t, err: err})
	return t, err
}

// Verified reports whether the request's carrier was verified and found
// wrong (unauthorized), for the pages that forget a wrong cookie.
func Verified(c echo.Context, carrier Carrier) (wrong bool) {
	v, ok := c.Get(memoKey(carrier)).(verdict)
	return ok && tournament.ErrorKind(v.err) == tournament.KindUnauthorized
}

func verify[T any](d *Door, c echo.Context, ch Check[T]) (T, error) {
	var zero T
	if ch.Cached != nil {
		if t, ok := ch.Cached(); ok {
			return t, nil
		}
	}
	addr := ratelimit.AddrKey(c.RealIP())
	if !d.addrs.Take(addr) {
		return zero, TooManyTries()
	}
	tid := ch.Tournament
	if tid != "" && !d.tournaments.Take(tid) {
		d.addrs.Refund(addr)
		return zero, tournament.Errorf(tournament.KindTooMany, tournament.CodeTooManyAttempts,
			"too many wrong table codes for this tournament; wait a minute")
	}
	ctx := c.Request().Context()
	t, err := ch.Lookup(ctx)
	wrong := ch.Wrong
	if wrong == nil {
		wrong = func(err error) bool { return tournament.ErrorKind(err) == tournament.KindUnauthorized }
	}
	switch {
	case err == nil:
		d.addrs.Good(addr)
		if tid != "" {
			d.tournaments.Good(tid)
		}
	case wrong(err):
		d.addrs.Fail(ctx, addr)
		if tid != "" {
			d.tournaments.Fail(ctx, tid)
		}
	default:
		// The database failed (or the client left): the credential may
		// be wrong, and its try stays spent in this process, so that 100
		// wrong codes during an outage are 10 and then 429 (issue 25,
		// point 5). The shared count is not reachable then anyway. The
		// next good credential from the address (of the tournament) gives
		// such tries back: they told nobody anything.
		d.addrs.Unsettled(addr)
		if tid != "" {
			d.tournaments.Unsettled(tid)
		}
	}
	return t, err
}

// TooManyTries is the answer when the client's address has no tries left.
func TooManyTries() error {
	return tournament.Errorf(tournament.KindTooMany, tournament.CodeTooManyAttempts,
		"too many wrong tokens or codes from this address; wait a minute")
}
