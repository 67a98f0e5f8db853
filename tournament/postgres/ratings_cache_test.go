package postgres_test

import (
	"context"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/registry"
	"github.com/revisor-sm/revisor/tournament/registry/registrypg"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// countingStore counts the replays' reads of every played game.
type countingStore struct {
	*registrypg.Store
	played atomic.Int64
}

func (c *countingStore) PlayedGames(ctx context.Context) ([]registry.PlayedGame, error) {
	c.played.Add(1)
	return c.Store.PlayedGames(ctx)
}

// TestRatingsKeptWhileTheVersionStands: reading the ratings again replays
// no game while nothing changed (issue 25, point 2: every anonymous read
// replayed every stored result); a new result moves the version
// (migration 000310) and the next read has it.
func TestRatingsKeptWhileTheVersionStands(t *testing.T) {
	e := newEnv(t)
	store := &countingStore{Store: e.registry}
	reg := registry.New(store, e.store, nil)
	night, _ := e.mustTournament(t, tournament.NewTournament{Name: "Night", Format: tournament.FormatSwiss, Rounds: intp(1), GamesPerRound: intp(2)}, 8)
	tid := night.Tournament.ID
	r := e.mustDraw(t, tid, 5)
	rng := rand.New(rand.NewPCG(5, 5))
	tb := r.Tables[0]
	e.mustSubmit(t, tournament.GameKey{TournamentID: tid, Round: 1, Table: tb.Number, Game: 1},
		tournamenttest.SheetGame(rng, tb.Players, tb.FirstDealerOf(1)))
	first, err := reg.Ratings(e.ctx)
	if err != nil || len(first) != 4 {
		t.Fatalf("Ratings after one game = %d, %v; want 4 people", len(first), err)
	}
	for range 5 {
		if _, err := reg.Ratings(e.ctx); err != nil {
			t.Fatal(err)
		}
		if _, _, _, err := reg.RatingHistory(e.ctx, first[0].Person.ID); err != nil {
			t.Fatal(err)
		}
	}
	if n := store.played.Load(); n != 1 {
		t.Errorf("11 reads without a change replayed the games %d times, want 1", n)
	}
	tb = r.Tables[1]
	e.mustSubmit(t, tournament.GameKey{TournamentID: tid, Round: 1, Table: tb.Number, Game: 1},
		tournamenttest.SheetGame(rng, tb.Players, tb.FirstDealerOf(1)))
	after, err := reg.Ratings(e.ctx)
	if err != nil || len(after) != 8 {
		t.Fatalf("Ratings after a second table's game = %d, %v; want 8 people", len(after), err)
	}
	_, rp, history, err := reg.RatingHistory(e.ctx, after[0].Person.ID)
	if err != nil || rp == nil || len(history) != 1 {
		t.Fatalf("RatingHistory = %v, %d changes, %v; want one game", rp, len(history), err)
	}
}
