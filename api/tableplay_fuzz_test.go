package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/internal/servertest"
	"github.com/revisor-sm/revisor/server"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/postgres"
)

// FuzzTablePlay sends arbitrary deal numbers and bodies to a correction,
// bodies to a confirmation and to the round clock, and query strings to
// closing the round: the answer is never a server error, and an error is
// a problem with a code.
func FuzzTablePlay(f *testing.F) {
	f.Add("1", `{"deal":{"sheet":{"p1":{"hand1":2}}},"reason":"typo"}`, `{"player":"p1"}`, `{"action":"start","minutes":30}`, "accept_unconfirmed=true")
	f.Add("0", `{"deal":null,"reason":""}`, `{"player":7}`, `{"action":"add","minutes":-99999}`, "accept_unconfirmed=yes")
	f.Add("99999999999999999999", `{"deal":[1],"reason":"\u0000"}`, `{}`, `{"action":"call_time"}`, "accept_unconfirmed=true&accept_unconfirmed=false")
	f.Add("-1", `{"deal":{"sheet":{"p1":{"hand1":-6}}},"reason":"x"}`, `{"player":"p999"}`, `{"action":"pause","minutes":1}`, "%zz")
	ctx := context.Background()
	store := postgres.NewStore(dbtest.New(f))
	svc := tournament.NewService(store)
	plays := play.New(svc, store)
	c, err := svc.CreateTournament(ctx, tournament.Actor{Role: tournament.RoleAdmin}, tournament.NewTournament{Name: "F", Format: tournament.FormatSM})
	if err != nil {
		f.Fatal(err)
	}
	org := tournament.Actor{Role: tournament.RoleOrganizer}
	tid := c.Tournament.ID
	if _, err := svc.AddPlayers(ctx, org, tid, []tournament.NewPlayer{{Name: "A"}, {Name: "B"}, {Name: "C"}, {Name: "D"}}); err != nil {
		f.Fatal(err)
	}
	r, err := plays.DrawRound(ctx, org, tid, nil)
	if err != nil {
		f.Fatal(err)
	}
	k := tournament.GameKey{TournamentID: tid, Round: 1, Table: r.Tables[0].Number, Game: 1}
	if _, err := plays.AppendDeal(ctx, org, k, []byte(`{"sheet":{"`+r.Tables[0].Players[0]+`":{"hand1":2,"last_trick":5}}}`)); err != nil {
		f.Fatal(err)
	}
	srv, err := server.New(api.Config{}, servertest.Complete(server.Deps{Tournaments: svc, Play: plays, Tokens: api.NewTokenResolver(svc)}))
	if err != nil {
		f.Fatal(err)
	}
	game := "/api/v1/tournaments/" + tid + "/rounds/1/tables/1/games/1"
	f.Fuzz(func(t *testing.T, deal, correction, confirmation, clock, query string) {
		fuzzSend(t, srv, http.MethodPut, game+"/deals/"+deal, c.OrganizerToken, correction)
		fuzzSend(t, srv, http.MethodGet, game+"/deals", "", "")
		fuzzSend(t, srv, http.MethodPost, game+"/confirmations", c.OrganizerToken, confirmation)
		fuzzSend(t, srv, http.MethodPost, "/api/v1/tournaments/"+tid+"/rounds/1/clock", c.OrganizerToken, clock)
		fuzzSend(t, srv, http.MethodGet, "/api/v1/tournaments/"+tid+"/rounds/"+deal+"/clock", "", "")
		// The round has a game without a result: closing never succeeds.
		fuzzSend(t, srv, http.MethodPost, "/api/v1/tournaments/"+tid+"/rounds/1/close?"+query, c.OrganizerToken, "")
	})
}

// fuzzSend is fuzzPost for any method and a path that may not be a valid
// URL (then nothing is sent).
func fuzzSend(t *testing.T, srv http.Handler, method, path, token, body string) {
	req, err := http.NewRequest(method, "http://revisor.test"+path, strings.NewReader(body))
	if err != nil {
		return
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	if rec.Code >= 500 {
		t.Fatalf("%s %s %q = %d %s, want no server error", method, path, body, rec.Code, rec.Body)
	}
	var v map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("%s %s %q = %d with a body that is not a JSON object: %q", method, path, body, rec.Code, rec.Body)
	}
	if rec.Code >= 400 && (v["code"] == nil || rec.Header().Get("Content-Type") != "application/problem+json") {
		t.Fatalf("%s %s %q = %d without a problem+json code: %s", method, path, body, rec.Code, rec.Body)
	}
}
