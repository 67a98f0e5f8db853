package postgres_test

import (
	"testing"

	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/postgres"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// TestStoreContract holds postgres.Store to the contract the in-memory
// fake of the service's unit tests is held to (tournamenttest.StoreContract).
func TestStoreContract(t *testing.T) {
	t.Parallel()
	tournamenttest.StoreContract(t, func(tb testing.TB) tournamenttest.Store { return postgres.NewStore(dbtest.New(tb)) })
}

// TestMemStoreMatchesPostgres plays the same club night on both stores
// (the rounds as PostgreSQL's night drew them, the same records): the
// standings must be the same, rank for rank, so what the service's unit
// tests learn on the fake holds on PostgreSQL.
func TestMemStoreMatchesPostgres(t *testing.T) {
	t.Parallel()
	pg := postgres.NewStore(dbtest.New(t))
	svc := tournamenttest.NewService(pg)
	ev, want := tournamenttest.PlayEvening(t, svc, play.New(svc, pg), 10, 42)
	mem := tournamenttest.NewMemStore()
	memSvc := tournamenttest.NewService(mem)
	got := tournamenttest.ReplayEvening(t, memSvc, play.New(memSvc, mem), mem, ev)
	if len(got) != len(want) || len(got) != 10 {
		t.Fatalf("standings: %d rows on the fake, %d on PostgreSQL, want 10 each", len(got), len(want))
	}
	for i := range want {
		w, g := want[i], got[i]
		if w.Rank != g.Rank || w.Player.ID != g.Player.ID || w.Player.Name != g.Player.Name || w.Stats != g.Stats || w.RoundReached != g.RoundReached {
			t.Errorf("row %d: fake %d %s %+v, PostgreSQL %d %s %+v", i+1, g.Rank, g.Player.Name, g.Stats, w.Rank, w.Player.Name, w.Stats)
		}
	}
}
