package main

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/internal/servertest"
)

// TestWebLiveAcrossProcesses runs two `revisor serve` on one database, as
// two processes behind one address: a result submitted through the API of
// the first reaches a browser's event stream on the second, and the second
// one's standings page shows it.
func TestWebLiveAcrossProcesses(t *testing.T) {
	env := mapEnv{"DATABASE_URL": dbtest.NewURL(t), "REVISOR_ADMIN_TOKEN": "web-e2e-admin-token-0123456789"}
	a := startRun(t, []string{"serve", "--addr", "127.0.0.1:0"}, env)
	b := startRun(t, []string{"serve", "--addr", "127.0.0.1:0", "--no-migrate"}, env)
	admin := env["REVISOR_ADMIN_TOKEN"]

	var tok struct {
		ID    string `json:"id"`
		Token string `json:"organizer_token"`
	}
	webDecode(t, webSend(t, a.url+"/api/v1/tournaments", admin, `{"name":"Live","format":"sm","games_per_round":1}`, http.StatusCreated), &tok)
	for _, n := range []string{"Anna", "Bo", "Cia", "Dan"} {
		webSend(t, a.url+"/api/v1/tournaments/"+tok.ID+"/players", tok.Token, `{"name":"`+n+`"}`, http.StatusCreated)
	}
	var round struct {
		Tables []struct {
			Players     []string `json:"players"`
			FirstDealer string   `json:"first_dealer"`
		} `json:"tables"`
	}
	webDecode(t, webSend(t, a.url+"/api/v1/tournaments/"+tok.ID+"/rounds", tok.Token, `{"seed":1}`, http.StatusCreated), &round)

	lines := servertest.Stream(t, b.url+"/t/"+tok.ID+"/events")

	tb := round.Tables[0]
	players, _ := json.Marshal(tb.Players)
	rec := `{"players":` + string(players) + `,"first_dealer":"` + tb.FirstDealer + `","deals":[{"sheet":{"` + tb.Players[1] +
		`":{"last_trick":5}}}],"ended_by":"time"}`
	start := time.Now()
	webSendMethod(t, http.MethodPut, a.url+"/api/v1/tournaments/"+tok.ID+"/rounds/1/tables/1/games/1", tok.Token, rec, http.StatusCreated)
	// The result's own event: one of the setup's (a player, the round) may
	// reach B after its stream opened.
	servertest.WaitLine(t, lines, `data: {"kind":"game_results"`, 2*time.Second)
	t.Logf("a result on server A reached server B's event stream in %v", time.Since(start).Round(time.Millisecond))
	code, page := get(t, b.url+"/t/"+tok.ID+"/standings", "")
	if code != http.StatusOK || !strings.Contains(string(page), `data-player="`+tb.Players[1]+`">`+"\n"+`<td class="num">1</td>`) {
		t.Errorf("B's standings = %d; want %s first after A accepted the result", code, tb.Players[1])
	}
}

func webSend(t *testing.T, url, token, body string, want int) []byte {
	t.Helper()
	return webSendMethod(t, http.MethodPost, url, token, body, want)
}

func webSendMethod(t *testing.T, method, url, token, body string, want int) []byte {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	var buf strings.Builder
	_, _ = bufio.NewReader(resp.Body).WriteTo(&buf)
	if resp.StatusCode != want {
		t.Fatalf("%s %s = %d, want %d\n%s", method, url, resp.StatusCode, want, buf.String())
	}
	return []byte(buf.String())
}

func webDecode(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
}
