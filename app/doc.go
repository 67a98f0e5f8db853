// Package app is Revisor's application layer: the typed commands and
// queries that both adapters of the outside world, the JSON API (package
// api) and the pages (package web), call, so that a deal entered at the
// table page and one sent by a client of the API pass the same checks, the
// same idempotency and the same audit trail without HTTP inside the
// process. An API handler decodes a request into a command, runs it and
// encodes the answer; a page handler reads its form into the same command
// and renders a template.
//
// The commands answer the domain's results (package tournament) and its
// one error type, *tournament.Error, whose Kind the adapters map to a
// status and whose Code they word. The layer adds what is neither HTTP nor
// a rule of the game: checks of the input's text, and Once, which runs a
// command sent with a client's key at most once.
//
// Dependencies point one way: api and web import app, app imports
// tournament, and nothing here imports an adapter (docs/architecture.md,
// checked by TestArchitecture).
package app
