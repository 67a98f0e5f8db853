package tournament_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// lookupCounter counts the store's reads of organizer tokens and secrets.
type lookupCounter struct {
	tournament.Store
	byHash, secrets atomic.Int64
}

func (c *lookupCounter) TournamentByTokenHash(ctx context.Context, hash []byte) (string, error) {
	c.byHash.Add(1)
	return c.Store.TournamentByTokenHash(ctx, hash)
}

func (c *lookupCounter) Secrets(ctx context.Context, id string) (tournament.Secrets, error) {
	c.secrets.Add(1)
	return c.Store.Secrets(ctx, id)
}

// TestOrganizerTokenCached: an organizer token verified once is taken
// again without reading the store; a wrong token is read (and refused)
// every time, and each token stays its own tournament's.
func TestOrganizerTokenCached(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := &lookupCounter{Store: tournamenttest.NewMemStore()}
	svc := tournament.NewService(store)
	var tokens [2]string
	var ids [2]string
	for i := range tokens {
		c, err := svc.CreateTournament(ctx, tournament.Actor{Role: tournament.RoleAdmin}, tournament.NewTournament{Name: "Cache", Format: tournament.FormatSM})
		if err != nil {
			t.Fatal(err)
		}
		tokens[i], ids[i] = c.OrganizerToken, c.Tournament.ID
	}
	for range 3 {
		for i, tok := range tokens {
			id, err := svc.Identify(ctx, "", tok, tournament.Where{})
			if err != nil || id.Role != tournament.RoleOrganizer || id.Tournament != ids[i] {
				t.Fatalf("Identify(organizer %d) = %+v, %v; want the organizer of %s", i, id, err, ids[i])
			}
		}
	}
	if store.byHash.Load() != 2 || store.secrets.Load() != 2 {
		t.Errorf("3 requests of each of 2 organizers read the store %d + %d times, want 2 + 2 (once per token)",
			store.byHash.Load(), store.secrets.Load())
	}
	for range 2 {
		if _, err := svc.Identify(ctx, "", tokens[0]+"x", tournament.Where{}); tournament.ErrorKind(err) != tournament.KindUnauthorized {
			t.Fatalf("a wrong token: %v, want unauthorized", err)
		}
	}
	if store.byHash.Load() != 4 {
		t.Errorf("2 wrong tokens read the store %d times in all, want 2 more than the 2 good ones", store.byHash.Load())
	}
}
