// Package refereepg keeps the referee side of tournaments in PostgreSQL:
// referee tokens, disputes and rulings, the correction window, reopenings,
// draw commitments and the audit log as referees read it. It implements
// referee.Store on the tournament store of package postgres, whose
// transactions, row locks, scanning of a tournament and error mapping it
// uses, so that a ruling takes the same lock as every write of its
// tournament.
package refereepg

import (
	"github.com/revisor-sm/revisor/tournament/postgres"
	"github.com/revisor-sm/revisor/tournament/referee"
)

// Store implements referee.Store on PostgreSQL. Each method runs in one
// transaction of db; methods that let the service decide hold the
// tournament's row lock, as the tournament store's own writes do.
type Store struct {
	db   *postgres.Store
	keys *postgres.Idempotency // nil: a dispute's key is claimed apart (OpenDisputeKeyed)
}

var _ referee.Store = (*Store)(nil)

// New returns the referee store beside db, on db's pool.
func New(db *postgres.Store) *Store { return &Store{db: db} }

// WithKeys returns the store opening a dispute sent with a client's key in
// one transaction with the key's claim and answer (OpenDisputeKeyed),
// the keys kept by keys.
func (s *Store) WithKeys(keys *postgres.Idempotency) *Store {
	c := *s
	c.keys = keys
	return &c
}
