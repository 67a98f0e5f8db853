package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/internal/assemble"
	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/internal/servertest"
	"github.com/revisor-sm/revisor/server"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// FuzzDisputes opens a dispute with an arbitrary body (its record goes to
// the engine) and rules on it with another: whatever comes in, the answer
// is never a server error, and an error is a problem with a code. Seeds are
// below and in testdata/fuzz/FuzzDisputes.
func FuzzDisputes(f *testing.F) {
	f.Add(`{"round":1,"table":1,"game":1,"description":"x"}`, `{"decision":"rejected","reason":"x"}`)
	f.Add(`{"round":1,"table":1,"game":1,"description":"x","record":{"deals":[{"sheet":{}}]}}`,
		`{"decision":"upheld","reason":"y","adjustments":[{"player":"p1","points":-5}],"disqualify":["p2"]}`)
	f.Add(`{"round":1,"table":1,"game":1,"description":"x","record":{"players":["p1"],"hands":{"p1":["Ah"]}}}`,
		`{"decision":"upheld","reason":"y","record":{"players":[],"deals":null}}`)
	f.Add(`{"round":-1,"table":1e9,"game":"1"}`, `{"decision":7}`)
	ctx := context.Background()
	deps := assemble.Services(dbtest.New(f), assemble.Options{})
	svc, plays, refs := deps.Tournaments, deps.Play, deps.Referees
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
	tb := r.Tables[0]
	if _, err := plays.SubmitGame(ctx, org, tournament.GameKey{TournamentID: tid, Round: 1, Table: 1, Game: 1},
		tournamenttest.SimGame(1, tb.Players, tb.FirstDealerOf(1), 0)); err != nil {
		f.Fatal(err)
	}
	ref, err := refs.IssueToken(ctx, org, tid, "F")
	if err != nil {
		f.Fatal(err)
	}
	srv, err := server.New(api.Config{}, servertest.Complete(server.Deps{Tournaments: svc, Play: plays, Referees: refs,
		Tokens: api.NewRefereeTokenResolver(api.NewTokenResolver(svc), refs)}))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, dispute, ruling string) {
		status, body := fuzzPost(t, srv, "/api/v1/tournaments/"+tid+"/disputes", c.OrganizerToken, dispute)
		if status != http.StatusCreated {
			return
		}
		var d struct{ ID string }
		if err := json.Unmarshal(body, &d); err != nil || d.ID == "" {
			t.Fatalf("201 without a dispute id: %s", body)
		}
		fuzzPost(t, srv, "/api/v1/tournaments/"+tid+"/disputes/"+d.ID+"/ruling", ref.Token, ruling)
	})
}

// fuzzPost posts body and checks that the answer is no server error and
// that an error is problem+json with a code.
func fuzzPost(t *testing.T, srv http.Handler, path, token, body string) (int, []byte) {
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	if rec.Code >= 500 {
		t.Fatalf("POST %s %q = %d %s, want no server error", path, body, rec.Code, rec.Body)
	}
	var v map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("POST %s %q = %d with a body that is not a JSON object: %q", path, body, rec.Code, rec.Body)
	}
	if rec.Code >= 400 && (v["code"] == nil || rec.Header().Get("Content-Type") != "application/problem+json") {
		t.Fatalf("POST %s %q = %d without a problem+json code: %s", path, body, rec.Code, rec.Body)
	}
	return rec.Code, rec.Body.Bytes()
}

// FuzzParseOrigins: any list parses or is refused; what parses is
// canonical (parsing it again gives the same).
func FuzzParseOrigins(f *testing.F) {
	for _, s := range []string{"", "https://club.example", " http://A.example:8080/ ,https://b.example", "*", "https://u@x/y?z#w"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, list string) {
		got, err := api.ParseOrigins(list)
		if err != nil {
			return
		}
		again, err := api.ParseOrigins(strings.Join(got, ","))
		if err != nil || strings.Join(again, ",") != strings.Join(got, ",") {
			t.Fatalf("ParseOrigins(%q) = %q, which parses again as %q, %v", list, got, again, err)
		}
	})
}
