package tournament

import (
	"context"
	"encoding/json"
	"time"
)

// Every change to a tournament is written to an append-only audit log in
// the same transaction as the change (tournament/postgres does it with
// database triggers). The store learns who is changing things from the
// context: each Service method that writes puts its caller there with
// auditAs, and the store hands it to the database at the start of the
// transaction. A store write whose context carries no actor is attributed
// to the role "system" (command-line imports, tests that call the store);
// a write that bypasses the store altogether is refused by the database.

// AuditActor is who a write is made for, as the audit log records it.
type AuditActor struct {
	Role   Role
	Token  string // the token's id ("organizer", "table:2/3", "referee:<id>"), never the token
	Reason string // why, when the change has a reason (rulings, reopenings)
}

// SystemActor is the actor of writes made without a caller: command-line
// imports and tests that use the store directly.
var SystemActor = AuditActor{Role: "system", Token: "system"}

type auditKey struct{}

// WithAuditActor returns ctx carrying a as the actor of the writes made
// with it.
func WithAuditActor(ctx context.Context, a AuditActor) context.Context {
	return context.WithValue(ctx, auditKey{}, a)
}

// AuditActorFrom returns the actor ctx carries, or SystemActor.
func AuditActorFrom(ctx context.Context) AuditActor {
	if a, ok := ctx.Value(auditKey{}).(AuditActor); ok && a.Role != "" {
		return a
	}
	return SystemActor
}

// AuditAs returns ctx carrying a as the actor of the writes made with it.
func AuditAs(ctx context.Context, a Actor) context.Context { return AuditBecause(ctx, a, "") }

// AuditBecause is AuditAs with the reason a gave for the change.
func AuditBecause(ctx context.Context, a Actor, reason string) context.Context {
	return WithAuditActor(ctx, AuditActor{Role: a.Role, Token: a.AuditName(), Reason: reason})
}

// AuditName names the actor's token for the audit log.
func (a Actor) AuditName() string {
	if a.TokenID != "" {
		return a.TokenID
	}
	return a.String()
}

// AuditEntry is one entry of the audit log: one row of one table changed.
type AuditEntry struct {
	ID         int64
	Tournament string
	At         time.Time
	Role       string // the actor's role
	Token      string // the actor's token id
	Reason     string
	Kind       string // registration, seating, submission, correction, ruling, …
	Subject    string // the table changed
	Operation  string // INSERT, UPDATE or DELETE
	Round      int    // 0: none
	Table      int    // 0: none
	Players    []string
	Before     json.RawMessage // nil for an insert
	After      json.RawMessage // nil for a delete
}

// AuditFilter selects audit entries; zero fields select everything.
// Entries come in the order they were written; After is the ID of the last
// entry of the previous page.
type AuditFilter struct {
	Round  int
	Table  int
	Player string
	Kind   string
	After  int64
	Limit  int
}

// Limits on an audit page.
const (
	DefaultAuditLimit = 100
	MaxAuditLimit     = 1000
)
