// Package registrypg keeps the register in PostgreSQL: the people, their
// merges and the register's log, the series, and the played games the
// ratings are computed from, with the version of them (migration 000310)
// that lets the register keep its ratings. It implements registry.Store on
// the tournament store of package postgres, whose transactions and error
// mapping it uses.
package registrypg

import (
	"github.com/revisor-sm/revisor/tournament/postgres"
	"github.com/revisor-sm/revisor/tournament/registry"
)

// Store implements registry.Store on PostgreSQL. Each method runs in one
// transaction of db or one statement on its pool.
type Store struct {
	db *postgres.Store
}

var (
	_ registry.Store            = (*Store)(nil)
	_ registry.RatingsVersioner = (*Store)(nil)
)

// New returns the register's store beside db, on db's pool.
func New(db *postgres.Store) *Store { return &Store{db: db} }
