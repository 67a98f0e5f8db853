package tournamenttest_test

import (
	"testing"

	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// TestMemStoreContract holds the fake to the store's contract, the same
// checks postgres.Store passes (TestStoreContract there).
func TestMemStoreContract(t *testing.T) {
	t.Parallel()
	tournamenttest.StoreContract(t, func(testing.TB) tournamenttest.Store { return tournamenttest.NewMemStore() })
}
