package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/server"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/postgres"
)

// adminToken is the admin token of the tournament test servers.
const adminToken = "test-admin-token-0123456789"

// startTournamentServer starts the API on a fresh database with the
// tournament service.
func startTournamentServer(t *testing.T) *testServer {
	t.Helper()
	pool := dbtest.New(t)
	svc := tournament.NewService(postgres.NewStore(pool))
	plays := play.New(svc, postgres.NewStore(pool))
	return startServer(t, api.Config{AdminTokenHash: api.HashToken(adminToken)},
		server.Deps{Tournaments: svc, Play: plays, Tokens: api.NewTokenResolver(svc)})
}

// call sends a request with an optional bearer token; a string body is
// sent as is (JSON unless ct says otherwise), anything else as JSON.
func (s *testServer) call(t *testing.T, method, path, token string, body any, ct ...string) (*http.Response, []byte) {
	t.Helper()
	r := request{method: method, path: path, header: map[string]string{}}
	if token != "" {
		r.header["Authorization"] = "Bearer " + token
	}
	if body != nil {
		var b []byte
		switch v := body.(type) {
		case string:
			b = []byte(v)
		case []byte:
			b = v
		default:
			var err error
			if b, err = json.Marshal(v); err != nil {
				t.Fatal(err)
			}
		}
		r.body, r.contentType = strings.NewReader(string(b)), "application/json"
	}
	if len(ct) > 0 {
		r.contentType = ct[0]
	}
	return s.do(t, r)
}

// must sends a request and decodes the answer into out, failing unless the
// status is want.
func (s *testServer) must(t *testing.T, want int, out any, method, path, token string, body any, ct ...string) {
	t.Helper()
	resp, b := s.call(t, method, path, token, body, ct...)
	if resp.StatusCode != want {
		t.Fatalf("%s %s = %d %s, want %d", method, path, resp.StatusCode, b, want)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, path, err, b)
		}
	}
}

// Client-side views of the API's answers.
type (
	tTournament struct {
		ID             string `json:"id"`
		Status         string `json:"status"`
		Champion       string `json:"champion"`
		CurrentRound   int    `json:"current_round"`
		OrganizerToken string `json:"organizer_token"`
	}
	tPlayer struct {
		ID, Name, Club, Status string
	}
	tTable struct {
		Number      int      `json:"number"`
		Players     []string `json:"players"`
		FirstDealer string   `json:"first_dealer"`
		Code        string   `json:"code"`
	}
	tRound struct {
		Number  int              `json:"number"`
		Seed    int64            `json:"seed"`
		Final   bool             `json:"final"`
		Status  string           `json:"status"`
		Tables  []tTable         `json:"tables"`
		Results []map[string]any `json:"results"`
	}
	tStanding struct {
		Rank            int    `json:"rank"`
		Player          string `json:"player"`
		Name            string `json:"name"`
		PlacementPoints int    `json:"placement_points"`
		GamePoints      int    `json:"game_points"`
		GamesPlayed     int    `json:"games_played"`
		GamesWon        int    `json:"games_won"`
		BestGame        int    `json:"best_game"`
		Status          string `json:"status"`
		RoundReached    int    `json:"round_reached"`
		RoundPoints     int    `json:"round_points"`
		Advanced        bool   `json:"advanced"`
		Champion        bool   `json:"champion"`
	}
	tStandings struct {
		Status   string      `json:"status"`
		Champion string      `json:"champion"`
		Rows     []tStanding `json:"rows"`
	}
	tClose struct {
		Outcomes []struct {
			Table    int    `json:"table"`
			Player   string `json:"player"`
			Rank     int    `json:"rank"`
			Advanced bool   `json:"advanced"`
		} `json:"outcomes"`
		Eliminated       []string `json:"eliminated"`
		TournamentStatus string   `json:"tournament_status"`
		Champion         string   `json:"champion"`
	}
)

// createTournament creates a tournament as the admin.
func (s *testServer) createTournament(t *testing.T, body string) tTournament {
	t.Helper()
	var out tTournament
	s.must(t, http.StatusCreated, &out, "POST", "/api/v1/tournaments", adminToken, body)
	return out
}

// importPlayers registers n players through the CSV import.
func (s *testServer) importPlayers(t *testing.T, tt tTournament, n int) []tPlayer {
	t.Helper()
	var csv strings.Builder
	csv.WriteString("name,club\n")
	for i := range n {
		fmt.Fprintf(&csv, "Player %d,Club %d\n", i+1, i%3)
	}
	var out struct{ Players []tPlayer }
	s.must(t, http.StatusCreated, &out, "POST", "/api/v1/tournaments/"+tt.ID+"/players:import", tt.OrganizerToken, csv.String(), "text/csv")
	return out.Players
}

func (s *testServer) draw(t *testing.T, tt tTournament, seed int64) tRound {
	t.Helper()
	var r tRound
	s.must(t, http.StatusCreated, &r, "POST", "/api/v1/tournaments/"+tt.ID+"/rounds", tt.OrganizerToken, map[string]int64{"seed": seed})
	return r
}

func gamePath(tid string, n, table, g int) string {
	return fmt.Sprintf("/api/v1/tournaments/%s/rounds/%d/tables/%d/games/%d", tid, n, table, g)
}

// firstDealerOf is the first dealer of game g at a table (documented rotation).
func firstDealerOf(tb tTable, g int) string {
	for i, p := range tb.Players {
		if p == tb.FirstDealer {
			return tb.Players[(i+g-1)%len(tb.Players)]
		}
	}
	return ""
}
