package api_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/internal/servertest"
	"github.com/revisor-sm/revisor/internal/tokens"
	"github.com/revisor-sm/revisor/server"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// TestVerifiedTokensSpendNoBudget: once an address has spent its budget
// of wrong tokens, a table code and an organizer token the server verified
// lately still pass (many tables behind one address must not spend each
// other's budget by sending at once), while a token not verified yet is
// refused with 429 like any guess.
func TestVerifiedTokensSpendNoBudget(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	mem := tournamenttest.NewMemStore()
	svc := tournament.NewService(mem)
	plays := play.New(svc, mem)
	srv, err := server.New(api.Config{}, servertest.Complete(server.Deps{Tournaments: svc, Play: plays, Tokens: api.NewTokenResolver(svc)}))
	if err != nil {
		t.Fatal(err)
	}
	admin := tournament.Actor{Role: tournament.RoleAdmin}
	var tokens []string
	var tid string
	for range 2 {
		c, err := svc.CreateTournament(ctx, admin, tournament.NewTournament{Name: "Budget", Format: tournament.FormatSM})
		if err != nil {
			t.Fatal(err)
		}
		tid, tokens = c.Tournament.ID, append(tokens, c.OrganizerToken)
	}
	codes := drawnCodes(t, svc, plays, tid, 4)
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

// slowResolver is the token resolver, with each lookup taking a while (a
// loaded database): requests that arrive meanwhile are simultaneous.
type slowResolver struct {
	api.TokenResolver
	cached interface {
		CachedToken(tid, token string) (api.Principal, bool)
	}
	lookups atomic.Int64
}

func (s *slowResolver) ResolveToken(ctx context.Context, tid, token string) (api.Principal, error) {
	s.lookups.Add(1)
	time.Sleep(200 * time.Millisecond)
	return s.TokenResolver.ResolveToken(ctx, tid, token)
}

func (s *slowResolver) CachedToken(tid, token string) (api.Principal, bool) {
	return s.cached.CachedToken(tid, token)
}

// TestNewRoundCodesAtOnce: the 16 tables of a new round send at once from
// one address (a club's network) while the round's codes are not cached
// yet. One request looks the codes up, the others wait for it: none is
// refused for the address's budget of wrong tokens (ten tries), which each
// of them took before. Wrong codes sent at once still spend the budget.
func TestNewRoundCodesAtOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	mem := tournamenttest.NewMemStore()
	svc := tournament.NewService(mem)
	plays := play.New(svc, mem)
	resolver := api.NewTokenResolver(svc)
	slow := &slowResolver{TokenResolver: resolver, cached: resolver.(interface {
		CachedToken(tid, token string) (api.Principal, bool)
	})}
	srv, err := server.New(api.Config{}, servertest.Complete(server.Deps{Tournaments: svc, Play: plays, Tokens: slow}))
	if err != nil {
		t.Fatal(err)
	}
	admin := tournament.Actor{Role: tournament.RoleAdmin}
	c, err := svc.CreateTournament(ctx, admin, tournament.NewTournament{Name: "Club night", Format: tournament.FormatSM})
	if err != nil {
		t.Fatal(err)
	}
	tid := c.Tournament.ID
	codes := drawnCodes(t, svc, plays, tid, 64)
	atOnce := func(tokens []string) map[int]int {
		var (
			wg       sync.WaitGroup
			mu       sync.Mutex
			statuses = map[int]int{}
		)
		for _, token := range tokens {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req := httptest.NewRequest(http.MethodGet, "/api/v1/tournaments/"+tid+"/whoami", nil)
				req.Header.Set("Authorization", "Bearer "+token)
				rec := httptest.NewRecorder()
				srv.ServeHTTP(rec, req)
				mu.Lock()
				statuses[rec.Code]++
				mu.Unlock()
			}()
		}
		wg.Wait()
		return statuses
	}
	var tables []string
	for _, code := range codes {
		tables = append(tables, code)
	}
	if len(tables) != 16 {
		t.Fatalf("%d tables, want 16", len(tables))
	}
	if got := atOnce(tables); got[http.StatusOK] != 16 {
		t.Errorf("16 tables' codes at once: statuses %v, want 16 × 200", got)
	}
	if n := slow.lookups.Load(); n != 1 {
		t.Errorf("16 tables' codes at once: %d lookups, want 1 (the others waited for it)", n)
	}
	var guesses []string
	for i := range 16 {
		guesses = append(guesses, "ZZZZ-ZZ"+string(tokens.CodeAlphabet[i])+"Z") // code-shaped, wrong
	}
	if got := atOnce(guesses); got[http.StatusTooManyRequests] == 0 {
		t.Errorf("16 wrong codes at once: statuses %v, want some 429", got)
	}
}

// drawnCodes registers players in tournament tid, draws round 1 and
// returns its tables' codes.
func drawnCodes(t *testing.T, svc *tournament.Service, plays *play.Service, tid string, players int) map[int]string {
	t.Helper()
	ctx, org := context.Background(), tournament.Actor{Role: tournament.RoleOrganizer}
	ps := make([]tournament.NewPlayer, players)
	for i := range ps {
		ps[i] = tournament.NewPlayer{Name: fmt.Sprintf("Player %d", i+1)}
	}
	if _, err := svc.AddPlayers(ctx, org, tid, ps); err != nil {
		t.Fatal(err)
	}
	seed := int64(1)
	if _, err := plays.DrawRound(ctx, org, tid, &seed); err != nil {
		t.Fatal(err)
	}
	codes, err := plays.TableCodes(ctx, org, tid, 1)
	if err != nil {
		t.Fatal(err)
	}
	return codes
}
