package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/internal/ratelimit"
	"github.com/revisor-sm/revisor/server"
)

// slowTokens knows no token and takes its time to say so, as a lookup in
// the database does.
type slowTokens struct{ fakeTokens }

func (s slowTokens) ResolveToken(ctx context.Context, tid, token string) (api.Principal, error) {
	time.Sleep(50 * time.Millisecond)
	return s.fakeTokens.ResolveToken(ctx, tid, token)
}

// TestConcurrentGuessesAreLimited (issue 13, item 7): simultaneous wrong
// tokens from one address get one decision: the burst is looked up, the
// rest are 429 at once.
func TestConcurrentGuessesAreLimited(t *testing.T) {
	t.Parallel()
	s := startServer(t, api.Config{}, server.Deps{Tokens: slowTokens{fakeTokens{}}})
	const n = 2 * ratelimit.DefaultBurst
	statuses := make(chan int, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			resp, _ := s.do(t, request{method: "GET", path: "/api/v1/whoami",
				header: map[string]string{"Authorization": fmt.Sprint("Bearer guess-", i)}})
			statuses <- resp.StatusCode
		})
	}
	close(start)
	wg.Wait()
	close(statuses)
	count := map[int]int{}
	for st := range statuses {
		count[st]++
	}
	if count[http.StatusUnauthorized] != ratelimit.DefaultBurst || count[http.StatusTooManyRequests] != n-ratelimit.DefaultBurst {
		t.Errorf("%d simultaneous wrong tokens: answers %v, want %d × 401 and %d × 429", n, count,
			ratelimit.DefaultBurst, n-ratelimit.DefaultBurst)
	}
}

// TestWhoamiKnowsTableCodes (issue 13, item 10): a valid table code is
// answered within its tournament, and asking without the tournament is a
// 401 that costs no try, so that a table cannot lock itself out.
func TestWhoamiKnowsTableCodes(t *testing.T) {
	t.Parallel()
	s := startTournamentServer(t)
	tt := s.createTournament(t, `{"name":"Koder","format":"swiss","rounds":1}`)
	s.importPlayers(t, tt, 8)
	r := s.draw(t, tt, 1)
	code := r.Tables[1].Code
	for i := range 2 * ratelimit.DefaultBurst {
		resp, body := s.call(t, "GET", "/api/v1/whoami", code, nil)
		wantProblem(t, fmt.Sprint("table code at /whoami, call ", i+1), resp, body, http.StatusUnauthorized, "tournament_required")
	}
	resp, body := s.call(t, "GET", "/api/v1/tournaments/"+tt.ID+"/whoami", code, nil)
	var got struct {
		Role, Tournament string
		Round, Table     int
	}
	if err := json.Unmarshal(body, &got); err != nil || resp.StatusCode != http.StatusOK || got.Role != "table" ||
		got.Tournament != tt.ID || got.Round != 1 || got.Table != r.Tables[1].Number {
		t.Errorf("table code at the tournament's whoami = %d %s, want 200 table %d of round 1 of %s", resp.StatusCode, body, r.Tables[1].Number, tt.ID)
	}
	resp, body = s.call(t, "GET", "/api/v1/tournaments/"+tt.ID+"/whoami", tt.OrganizerToken, nil)
	if err := json.Unmarshal(body, &got); err != nil || resp.StatusCode != http.StatusOK || got.Role != "organizer" {
		t.Errorf("organizer at the tournament's whoami = %d %s, want 200 organizer", resp.StatusCode, body)
	}
	other := s.createTournament(t, `{"name":"Annan","format":"swiss","rounds":1}`)
	resp, body = s.call(t, "GET", "/api/v1/tournaments/"+other.ID+"/whoami", tt.OrganizerToken, nil)
	wantProblem(t, "another tournament's organizer", resp, body, http.StatusForbidden, "wrong_tournament")
}
