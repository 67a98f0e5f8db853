package postgres_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/internal/racecheck"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
)

// TestDrawLargestField registers the most players a server may allow and
// draws round 1 through the service and the store: the whole draw stays
// under 256 MiB allocated (an upper bound on its peak heap) and a few
// seconds (issue 13: 3.18 GB and 23-33 s before the limit and the linear
// seating search).
func TestDrawLargestField(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	// The draw's search, in one goroutine: without -race (36.7 s under it
	// on 7 December's fifth machine, nothing for the detector to watch).
	racecheck.OutOfRace(t)
	e := newEnv(t)
	svc := tournament.NewService(e.store, tournament.WithMaxPlayers(tournament.MaxPlayersLimit))
	c, err := svc.CreateTournament(e.ctx, admin, tournament.NewTournament{Name: "Big", Format: tournament.FormatSM})
	if err != nil {
		t.Fatal(err)
	}
	ps := make([]tournament.NewPlayer, tournament.MaxPlayersLimit)
	for i := range ps {
		ps[i] = tournament.NewPlayer{Name: fmt.Sprintf("Player %d", i+1)}
	}
	if _, err := svc.AddPlayers(e.ctx, org, c.Tournament.ID, ps); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	seed := int64(1)
	r, err := play.New(svc, e.store).DrawRound(e.ctx, org, c.Tournament.ID, &seed)
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("draw of %d players: %d tables, %.1f MB allocated, %v", tournament.MaxPlayersLimit, len(r.Tables), float64(alloc)/1e6, took)
	if alloc > 256<<20 {
		t.Errorf("draw of %d players allocated %d bytes, want under 256 MiB", tournament.MaxPlayersLimit, alloc)
	}
	if took > 10*time.Second {
		t.Errorf("draw of %d players took %v, want a few seconds", tournament.MaxPlayersLimit, took)
	}
}
