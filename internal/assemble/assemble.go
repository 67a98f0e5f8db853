// Package assemble wires Revisor's services over PostgreSQL, once for
// every caller: cmd/revisor serves what it returns, and the tests of the
// API, the pages and the load tool start the same server on a database of
// their own. A service added to server.Deps is wired here.
//
// It is the one place besides cmd that reaches the storage adapters
// (tournament/postgres and each subdomain's PostgreSQL part): the layers
// above them know only the domain's interfaces.
package assemble

import (
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/server"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/postgres"
	"github.com/revisor-sm/revisor/tournament/referee"
	"github.com/revisor-sm/revisor/tournament/referee/refereepg"
	"github.com/revisor-sm/revisor/tournament/registry"
	"github.com/revisor-sm/revisor/tournament/registry/registrypg"
	"github.com/revisor-sm/revisor/tournament/transfer"
	"github.com/revisor-sm/revisor/tournament/transfer/transferpg"
)

// Options change the services' defaults.
type Options struct {
	// MaxPlayers bounds a tournament's players; 0: the domain's default.
	MaxPlayers int
	// Now is the services' clock; nil: the system's.
	Now func() time.Time
	// Keys keeps the first answer to each command a client sent with an
	// idempotency key; the referees' store opens a dispute in one
	// transaction with its key's claim and answer. Nil: no keys (the
	// caller sets server.Deps.Idempotency, or leaves the stand-in).
	Keys *postgres.Idempotency
}

// Services returns the tournament's services over pool, as server.Deps
// with its services and its token resolver (the tournaments' tokens and
// the referees') set, and its idempotency keys when o has them; the
// caller adds the infrastructure it serves with (readiness, events,
// failure counts, metrics).
func Services(pool *pgxpool.Pool, o Options) server.Deps {
	var opts []tournament.Option
	if o.MaxPlayers > 0 {
		opts = append(opts, tournament.WithMaxPlayers(o.MaxPlayers))
	}
	if o.Now != nil {
		opts = append(opts, tournament.WithClock(o.Now))
	}
	store := postgres.NewStore(pool)
	tournaments := tournament.NewService(store, opts...)
	plays := play.New(tournaments, store)
	refs := refereepg.New(store)
	if o.Keys != nil {
		refs = refs.WithKeys(o.Keys)
	}
	referees := referee.New(tournaments, plays, refs)
	deps := server.Deps{
		Tokens:      api.NewRefereeTokenResolver(api.NewTokenResolver(tournaments), referees),
		Tournaments: tournaments,
		Play:        plays,
		Referees:    referees,
		Register:    registry.New(registrypg.New(store), store, o.Now),
		Transfer:    transfer.New(tournaments, transferpg.New(store)),
	}
	if o.Keys != nil {
		deps.Idempotency = o.Keys
	}
	return deps
}
