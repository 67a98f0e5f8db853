package client_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/api/client"
	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// bearer is a request editor that presents a token.
func bearer(token string) client.RequestEditorFn {
	return func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+token)
		return nil
	}
}

// checked fails the test unless a generated call answered with the status
// want and the body the document promises for it (got non-nil).
func checked[T any](t *testing.T, what string, status int, body []byte, err error, want int, got *T) *T {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if status != want || got == nil {
		t.Fatalf("%s = %d %s, want %d with the documented body", what, status, body, want)
	}
	return got
}

// TestGeneratedClientEndToEnd runs a small Swiss tournament against the real
// binary (built from ../../cmd/revisor) with the client generated from api/openapi.json (api/client):
// create it, register players, draw a round, submit every game with the
// tables' codes, close the round and read the standings. A change of the
// server that breaks the document's paths, parameters, statuses or schemas
// fails here, as does a document the generated client cannot use.
func TestGeneratedClientEndToEnd(t *testing.T) {
	t.Parallel()
	const admin = "e2e-admin-token-client-0123456789"
	url := serve(t, "DATABASE_URL="+dbtest.NewURL(t), "REVISOR_ADMIN_TOKEN="+admin)
	c, err := client.NewClientWithResponses(url)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	games, rounds := 1, 1
	cr, err := c.CreateTournamentWithResponse(ctx, nil, client.TournamentRequest{
		Name: "Klubbkväll", Format: client.TournamentRequestFormatSwiss, Rounds: &rounds, GamesPerRound: &games,
	}, bearer(admin))
	tour := checked(t, "create tournament", cr.StatusCode(), cr.Body, err, http.StatusCreated, cr.JSON201)
	if tour.OrganizerToken == nil {
		t.Fatalf("create tournament: no organizer_token in %s", cr.Body)
	}
	tid, org := tour.Id, *tour.OrganizerToken

	// The wrong role is a typed problem, as the document says.
	if pr, err := c.AddPlayerWithResponse(ctx, tid, nil, client.AddPlayerJSONRequestBody{Name: "Ingen"}); err != nil ||
		pr.ApplicationproblemJSON401 == nil || pr.ApplicationproblemJSON401.Code == "" {
		t.Fatalf("add player without a token = %d %s (%v), want a 401 problem", pr.StatusCode(), pr.Body, err)
	}
	for i := range 8 {
		club := fmt.Sprintf("Klubb %c", 'A'+i%3)
		pr, err := c.AddPlayerWithResponse(ctx, tid, nil, client.AddPlayerJSONRequestBody{Name: fmt.Sprintf("Spelare %d", i+1), Club: &club}, bearer(org))
		checked(t, "add player", pr.StatusCode(), pr.Body, err, http.StatusCreated, pr.JSON201)
	}

	dr, err := c.DrawRoundWithResponse(ctx, tid, nil, client.DrawRoundJSONRequestBody{}, bearer(org))
	round := checked(t, "draw round", dr.StatusCode(), dr.Body, err, http.StatusCreated, dr.JSON201)
	if len(round.Tables) != 2 {
		t.Fatalf("draw round: %d tables, want 2", len(round.Tables))
	}
	for i, tb := range round.Tables {
		if tb.Code == nil {
			t.Fatalf("table %d: no code in the organizer's draw", tb.Number)
		}
		var rec client.GameRecord
		if err := json.Unmarshal(tournamenttest.SimGame(uint64(i+1), tb.Players, tb.FirstDealer, 0), &rec); err != nil {
			t.Fatal(err)
		}
		sr, err := c.SubmitGameWithResponse(ctx, tid, round.Number, tb.Number, 1, nil, rec, bearer(*tb.Code))
		res := checked(t, "submit game", sr.StatusCode(), sr.Body, err, http.StatusCreated, sr.JSON201)
		var gr client.GameResult
		if res.Result != nil {
			gr, err = res.Result.AsGameResult()
		}
		if len(res.Places) != len(tb.Players) || res.Result == nil || err != nil || !gr.Valid {
			t.Errorf("table %d: submitted game = %s, want a valid result placing %d players", tb.Number, sr.Body, len(tb.Players))
		}
		// Every player confirms the game at the table, so the round closes
		// without asking.
		for _, p := range tb.Players {
			cr, err := c.ConfirmGameWithResponse(ctx, tid, round.Number, tb.Number, 1, nil, client.ConfirmGameJSONRequestBody{Player: p}, bearer(*tb.Code))
			checked(t, "confirm game", cr.StatusCode(), cr.Body, err, http.StatusCreated, cr.JSON201)
		}
	}

	cl, err := c.CloseRoundWithResponse(ctx, tid, round.Number, nil, bearer(org))
	checked(t, "close round", cl.StatusCode(), cl.Body, err, http.StatusOK, cl.JSON200)

	st, err := c.GetStandingsWithResponse(ctx, tid, nil)
	standings := checked(t, "standings", st.StatusCode(), st.Body, err, http.StatusOK, st.JSON200)
	if len(standings.Rows) != 8 {
		t.Fatalf("standings: %d rows, want 8: %s", len(standings.Rows), st.Body)
	}
	total := 0
	for i, row := range standings.Rows {
		total += row.PlacementPoints
		if row.GamesPlayed != 1 || (i > 0 && row.PlacementPoints > standings.Rows[i-1].PlacementPoints) {
			t.Errorf("standings row %d = %+v: want one game each, by placement points", i, row)
		}
	}
	// Two tables of four share 20+12+8+5 each (shared places share points).
	if total > 2*45 || standings.Rows[0].Rank != 1 {
		t.Errorf("standings: placement points %d in all (at most 90), first rank %d", total, standings.Rows[0].Rank)
	}
}

// serve builds cmd/revisor, starts `revisor serve` on a free loopback port
// with env, and returns the address it prints; the server is stopped when
// the test ends.
func serve(t *testing.T, env ...string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "revisor")
	build := exec.Command("go", "build", "-o", bin, "./cmd/revisor")
	build.Dir = "../.." // the product's own module, with its own go.sum
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build cmd/revisor: %v\n%s", err, out)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "serve", "--addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), env...)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		lines := bufio.NewScanner(stdout)
		for lines.Scan() {
			if u, ok := strings.CutPrefix(lines.Text(), "revisor: serving on "); ok {
				found <- u
				break
			}
		}
		close(found)
		for lines.Scan() { // keep the pipe drained
		}
	}()
	select {
	case u, ok := <-found:
		if ok {
			return u
		}
	case <-time.After(time.Minute):
	}
	cancel()
	_ = cmd.Wait()
	t.Fatalf("revisor serve did not say where it serves:\n%s", stderr.String())
	return ""
}
