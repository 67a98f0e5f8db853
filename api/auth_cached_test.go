package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/internal/servertest"
	"github.com/revisor-sm/revisor/server"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// TestVerifiedTokensSpendNoBudget: once an address has spent its budget
// of wrong tokens, a table code and an organizer token the server verified
// lately still pass (many tables behind one address must not spend each
// other's budget by sending at once), while a token not verified yet is
// refused with 429 like any guess.
func TestVerifiedTokensSpendNoBudget(t *testing.T) {
	ctx := context.Background()
	svc := tournament.NewService(tournamenttest.NewMemStore())
	srv, err := server.New(api.Config{}, servertest.Complete(server.Deps{Tournaments: svc, Tokens: api.NewTokenResolver(svc)}))
	if err != nil {
		t.Fatal(err)
	}
	admin, org := tournament.Actor{Role: tournament.RoleAdmin}, tournament.Actor{Role: tournament.RoleOrganizer}
	var tokens []string
	var tid string
	for range 2 {
		c, err := svc.CreateTournament(ctx, admin, tournament.NewTournament{Name: "Budget", Format: tournament.FormatSM})
		if err != nil {
			t.Fatal(err)
		}
		tid, tokens = c.Tournament.ID, append(tokens, c.OrganizerToken)
	}
	if _, err := svc.AddPlayers(ctx, org, tid, []tournament.NewPlayer{{Name: "A"}, {Name: "B"}, {Name: "C"}, {Name: "D"}}); err != nil {
		t.Fatal(err)
	}
	seed := int64(1)
	if _, err := svc.DrawRound(ctx, org, tid, &seed); err != nil {
		t.Fatal(err)
	}
	codes, err := svc.TableCodes(ctx, org, tid, 1)
	if err != nil {
		t.Fatal(err)
	}
	whoami := func(token string) int {
		req := httptest.NewRequest(http.MethodGet, "/api/v1/tournaments/"+tid+"/whoami", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		return rec.Code
	}
	if got := whoami(codes[1]) + whoami(tokens[1]); got != 2*http.StatusOK {
		t.Fatalf("the table's code and the organizer's token: statuses summing to %d, want 200 each", got)
	}
	for i := 0; whoami("wrong-token-guess") != http.StatusTooManyRequests; i++ {
		if i > 100 {
			t.Fatal("100 wrong tokens and no 429")
		}
	}
	if got := whoami(codes[1]); got != http.StatusOK {
		t.Errorf("a table code verified before, after the budget was spent: %d, want 200", got)
	}
	if got := whoami(tokens[1]); got != http.StatusOK {
		t.Errorf("an organizer token verified before, after the budget was spent: %d, want 200", got)
	}
	if got := whoami(tokens[0]); got != http.StatusTooManyRequests {
		t.Errorf("an organizer token not verified yet, after the budget was spent: %d, want 429", got)
	}
}
