// Package servertest gives tests of one part of the HTTP server the
// dependencies they do not exercise. server.New requires every service
// (no handler checks for a missing one), so a test of, say, request IDs
// completes its server.Deps with stand-ins: a readiness check that says the
// test has no database, an idempotency store that remembers nothing (every
// request runs, as without the header), a token resolver that knows no
// token, and tournament services over no storage. A test that calls a
// service passes the real one (over dbtest) instead; a stand-in service
// that is called anyway panics, which the server answers with a 500.
//
// It also reads a page's live event stream as a test's browser would
// (Stream, WaitLine).
package servertest

import (
	"context"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/server"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/referee"
	"github.com/revisor-sm/revisor/tournament/registry"
	"github.com/revisor-sm/revisor/tournament/transfer"
)

// Complete returns deps with each missing required service filled by its
// stand-in.
func Complete(deps server.Deps) server.Deps {
	if deps.Ready == nil {
		deps.Ready = func(context.Context) error { return errNoDatabase() }
	}
	if deps.Idempotency == nil {
		deps.Idempotency = noIdempotency{}
	}
	if deps.Tokens == nil {
		deps.Tokens = noTokens{}
	}
	if deps.Tournaments == nil {
		deps.Tournaments = tournament.NewService(nil)
	}
	if deps.Play == nil {
		deps.Play = play.New(deps.Tournaments, nil)
	}
	if deps.Referees == nil {
		deps.Referees = referee.New(deps.Tournaments, deps.Play, nil)
	}
	if deps.Register == nil {
		deps.Register = registry.New(nil, nil, nil)
	}
	if deps.Transfer == nil {
		deps.Transfer = transfer.New(deps.Tournaments, nil)
	}
	if deps.Events == nil {
		deps.Events = tournament.NewBroker()
	}
	return deps
}

func errNoDatabase() error {
	return tournament.Errorf(tournament.KindUnavailable, tournament.CodeDatabaseUnavailable, "this test runs without a database")
}

// noIdempotency remembers nothing: every claim is the first.
type noIdempotency struct{}

func (noIdempotency) Claim(context.Context, string, string, []byte) ([]byte, error) { return nil, nil }
func (noIdempotency) Complete(context.Context, string, string, []byte) error        { return nil }
func (noIdempotency) Release(context.Context, string, string) error                 { return nil }
func (noIdempotency) Renew(context.Context, string, string) error                   { return nil }

// noTokens knows no token but the admin's, which the API checks itself.
type noTokens struct{}

func (noTokens) ResolveToken(context.Context, string, string) (api.Principal, error) {
	return api.Principal{}, tournament.Errorf(tournament.KindUnauthorized, tournament.CodeUnknownToken, "the token is not known")
}
