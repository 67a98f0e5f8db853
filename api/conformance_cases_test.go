package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/internal/assemble"
	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/server"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/postgres"
)

// TestTournamentEndpointGaps: the bad-input, no-token and unknown-id cases
// of docs/api.md's rows that TestTournamentEndpoints leaves out.
func TestTournamentEndpointGaps(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tid, org := f.tt.ID, f.tt.OrganizerToken
	base := "/api/v1/tournaments/" + tid
	nope := "/api/v1/tournaments/nope"
	f.run(t, []apiCase{
		{"get with an unknown token", "GET", base, "nonsense-token", nil, "", 401, "unknown_token"},
		{"create as text/plain", "POST", "/api/v1/tournaments", adminToken, `{"name":"X","format":"sm"}`, "text/plain", 415, "unsupported_media_type"},
		{"create with a body over 1 MiB", "POST", "/api/v1/tournaments", adminToken, `{"name":"` + strings.Repeat("x", 1<<20) + `","format":"sm"}`, "", 413, "body_too_large"},
		{"submit a record over 1 MiB", "PUT", gamePath(tid, 1, 1, 1), f.code(1), `{"players":["` + strings.Repeat("x", 1<<20) + `"]}`, "", 413, "body_too_large"},
		{"create with a wrong placement_points type", "POST", "/api/v1/tournaments", adminToken, `{"name":"X","format":"sm","placement_points":"20,12"}`, "", 400, "invalid_field_type"},

		{"add player, malformed JSON", "POST", "/api/v1/tournaments/" + f.other.ID + "/players", f.other.OrganizerToken, `{"name":`, "", 400, "malformed_json"},
		{"add player, wrong type", "POST", "/api/v1/tournaments/" + f.other.ID + "/players", f.other.OrganizerToken, `{"name":7}`, "", 400, "invalid_field_type"},
		{"patch, malformed JSON", "PATCH", base + "/players/p2", org, `{"status":`, "", 400, "malformed_json"},
		{"patch, unknown tournament", "PATCH", nope + "/players/p1", adminToken, `{"status":"withdrawn"}`, "", 404, "tournament_not_found"},
		{"patch with an unknown token", "PATCH", base + "/players/p2", "nonsense-token", `{"name":"X"}`, "", 401, "unknown_token"},

		{"draw, malformed JSON", "POST", "/api/v1/tournaments/" + f.other.ID + "/rounds", f.other.OrganizerToken, `{"seed":`, "", 400, "malformed_json"},
		{"draw, seed of the wrong type", "POST", "/api/v1/tournaments/" + f.other.ID + "/rounds", f.other.OrganizerToken, `{"seed":"7"}`, "", 400, "invalid_field_type"},
		{"draw, other organizer", "POST", base + "/rounds", f.other.OrganizerToken, nil, "", 403, "wrong_tournament"},

		{"get round of an unknown tournament", "GET", nope + "/rounds/1", "", nil, "", 404, "tournament_not_found"},
		{"get round 0", "GET", base + "/rounds/0", "", nil, "", 404, "round_not_found"},
		{"list rounds of an unknown tournament", "GET", nope + "/rounds", "", nil, "", 404, "tournament_not_found"},

		{"submit to an unknown tournament", "PUT", gamePath("nope", 1, 1, 1), adminToken, f.game(1, 1), "", 404, "tournament_not_found"},
		{"submit to an unknown round", "PUT", gamePath(tid, 2, 1, 1), org, f.game(1, 1), "", 404, "round_not_found"},
		{"submit game 0", "PUT", gamePath(tid, 1, 1, 0), f.code(1), f.game(1, 1), "", 404, "game_not_found"},
		{"submit with fields of the wrong type", "PUT", gamePath(tid, 1, 1, 1), f.code(1), `{"players":"abc","first_dealer":1,"deals":[]}`, "", 400, "invalid_field_type"},
		{"submit an empty body", "PUT", gamePath(tid, 1, 1, 1), f.code(1), ``, "", 400, ""},

		{"deal, malformed JSON", "POST", gamePath(tid, 1, 2, 1) + "/deals", f.code(2), `{"sheet":`, "", 400, "malformed_json"},
		{"deal, bad deal number", "POST", gamePath(tid, 1, 2, 1) + "/deals?deal=x", f.code(2), `{"sheet":{}}`, "", 400, "invalid_deal_number"},
		{"deal, other organizer", "POST", gamePath(tid, 1, 2, 1) + "/deals", f.other.OrganizerToken, `{"sheet":{}}`, "", 403, "wrong_tournament"},
		{"deal, unknown tournament", "POST", gamePath("nope", 1, 1, 1) + "/deals", adminToken, `{"sheet":{}}`, "", 404, "tournament_not_found"},
		{"deal to table 9", "POST", gamePath(tid, 1, 9, 1) + "/deals", org, `{"sheet":{}}`, "", 404, "table_not_found"},
		{"deal to game 4", "POST", gamePath(tid, 1, 2, 4) + "/deals", f.code(2), `{"sheet":{}}`, "", 404, "game_not_found"},

		{"close, other organizer", "POST", base + "/rounds/1/close", f.other.OrganizerToken, nil, "", 403, "wrong_tournament"},
		{"close, unknown tournament", "POST", nope + "/rounds/1/close", adminToken, nil, "", 404, "tournament_not_found"},

		{"standings with a bad token", "GET", base + "/standings", "nonsense-token", nil, "", 401, "unknown_token"},
	})
}

// TestRefereeEndpointGaps: the cases of the dispute, ruling, referee and
// audit rows that TestRefereeEndpoints leaves out.
func TestRefereeEndpointGaps(t *testing.T) {
	t.Parallel()
	c := newClosedRound(t)
	s, tid, org, code := c.s, c.tt.ID, c.tt.OrganizerToken, c.round.Tables[0].Code
	base := "/api/v1/tournaments/" + tid
	var d tDispute
	s.must(t, http.StatusCreated, &d, "POST", disputesPath(tid), code, c.dispute(code))
	ruling := base + "/disputes/" + d.ID + "/ruling"
	other := s.createTournament(t, `{"name": "Other", "format": "sm"}`)
	runRefCases(t, s, []refCase{
		{"another tournament's dispute", "GET", disputesPath(other.ID) + "/" + d.ID, other.OrganizerToken, nil, 404, "dispute_not_found"},
		{"ruling on another tournament's dispute", "POST", disputesPath(other.ID) + "/" + d.ID + "/ruling", other.OrganizerToken, map[string]any{"decision": "rejected", "reason": "x"}, 404, "dispute_not_found"},
		{"get game of an unknown tournament", "GET", gamePath("nope", 1, 1, 1), "", nil, 404, "tournament_not_found"},
		{"get game of an unknown table", "GET", gamePath(tid, 1, 7, 1), "", nil, 404, "table_not_found"},
		{"dispute, unknown tournament", "POST", disputesPath("nope"), adminToken, c.dispute(""), 404, "tournament_not_found"},
		{"dispute, wrong type", "POST", disputesPath(tid), code, `{"round":"1","table":1,"game":1,"description":"x"}`, 400, "invalid_field_type"},
		{"dispute on table 0", "POST", disputesPath(tid), org, map[string]any{"round": 1, "table": 0, "game": 1, "description": "x"}, 404, "table_not_found"},
		{"list disputes, unknown tournament", "GET", disputesPath("nope"), adminToken, nil, 404, "tournament_not_found"},
		{"get dispute without token", "GET", disputesPath(tid) + "/" + d.ID, "", nil, 401, "missing_token"},
		{"get dispute as table", "GET", disputesPath(tid) + "/" + d.ID, code, nil, 403, "forbidden"},

		{"rule without token", "POST", ruling, "", map[string]any{"decision": "rejected", "reason": "x"}, 401, "missing_token"},
		{"rule, malformed JSON", "POST", ruling, c.ref.Token, `{"decision":`, 400, "malformed_json"},
		{"rule, adjustment points of the wrong type", "POST", ruling, c.ref.Token, `{"decision":"rejected","reason":"x","adjustments":[{"player":"p1","points":"5"}]}`, 400, "invalid_field_type"},
		{"rule, unknown tournament", "POST", "/api/v1/tournaments/nope/disputes/1/ruling", adminToken, map[string]any{"decision": "rejected", "reason": "x"}, 404, "tournament_not_found"},

		{"create referee, malformed JSON", "POST", base + "/referees", org, `{"name":`, 400, "malformed_json"},
		{"list referees without token", "GET", base + "/referees", "", nil, 401, "missing_token"},
		{"revoke without token", "DELETE", base + "/referees/rnope", "", nil, 401, "missing_token"},
		{"revoke as referee", "DELETE", base + "/referees/rnope", c.ref.Token, nil, 403, "forbidden"},
		{"audit, other organizer", "GET", "/api/v1/tournaments/nope/audit", org, nil, 403, "wrong_tournament"},
	})
}

// TestTableCodeOnlyItsTableAndRound: a table code is good only for its own
// table's games in its own round: the same table number in another round
// is not its table.
func TestTableCodeOnlyItsTableAndRound(t *testing.T) {
	t.Parallel()
	c := newClosedRound(t)
	s, tid := c.s, c.tt.ID
	round2 := s.draw(t, c.tt, 3)
	code2 := round2.Tables[0].Code
	tb := c.round.Tables[0]
	record := json.RawMessage(cleanGame(t, tb.Players, firstDealerOf(tb, 1)))
	runRefCases(t, s, []refCase{
		// A draw ends the old round's codes at once (issue 25, point 4).
		{"round 1's code submits round 2's game", "PUT", gamePath(tid, 2, 1, 1), c.round.Tables[0].Code, record, 401, "unknown_token"},
		{"round 1's code disputes its game after round 2 is drawn", "POST", disputesPath(tid), c.round.Tables[0].Code, c.dispute(""), 401, "unknown_token"},
		{"submit round 1's game with round 2's code", "PUT", gamePath(tid, 1, 1, 1), code2, record, 403, "wrong_table"},
		{"append to round 1's game with round 2's code", "POST", gamePath(tid, 1, 1, 1) + "/deals", code2, `{"sheet":{}}`, 403, "wrong_table"},
		{"dispute round 1's game with round 2's code", "POST", disputesPath(tid), code2, c.dispute(""), 403, "wrong_table"},
		{"close with a table code", "POST", "/api/v1/tournaments/" + tid + "/rounds/2/close", code2, nil, 403, "forbidden"},
		{"codes with a table code", "GET", "/api/v1/tournaments/" + tid + "/rounds/2/codes", code2, nil, 403, "forbidden"},
		{"referees with a table code", "GET", "/api/v1/tournaments/" + tid + "/referees", code2, nil, 403, "forbidden"},
	})
	var rounds struct{ Rounds []tRound }
	_, body := s.call(t, "GET", "/api/v1/tournaments/"+tid+"/rounds", c.tt.OrganizerToken, nil)
	if err := json.Unmarshal(body, &rounds); err != nil {
		t.Fatal(err)
	}
	for _, r := range rounds.Rounds {
		for _, tb := range r.Tables {
			if tb.Code != "" {
				t.Errorf("GET rounds shows round %d table %d's code", r.Number, tb.Number)
			}
		}
	}
	if strings.Contains(string(body), code2) {
		t.Errorf("GET rounds shows a table code")
	}
}

// TestIdempotentWrites: a write repeated with the same Idempotency-Key and
// body answers the first response and changes nothing; the same key with
// another body is a 422.
func TestIdempotentWrites(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	svc := tournament.NewService(postgres.NewStore(pool))
	plays := play.New(svc, postgres.NewStore(pool))
	s := startServer(t, api.Config{AdminTokenHash: api.HashToken(adminToken)}, server.Deps{Tournaments: svc, Play: plays,
		Tokens: api.NewTokenResolver(svc), Idempotency: postgres.NewIdempotency(pool, time.Hour, time.Minute)})
	send := func(method, path, token, key, body string) (*http.Response, []byte) {
		return s.do(t, request{method: method, path: path, contentType: "application/json", body: strings.NewReader(body),
			header: map[string]string{"Authorization": "Bearer " + token, "Idempotency-Key": key}})
	}
	const create = `{"name":"Klubbkväll","format":"swiss","rounds":1}`
	r1, b1 := send("POST", "/api/v1/tournaments", adminToken, "create-1", create)
	r2, b2 := send("POST", "/api/v1/tournaments", adminToken, "create-1", create)
	if r1.StatusCode != 201 || r2.StatusCode != 201 || string(b1) != string(b2) || r2.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("create twice with one key = %d, %d (replayed %q), same body %v; want 201 twice, the first answer replayed",
			r1.StatusCode, r2.StatusCode, r2.Header.Get("Idempotent-Replayed"), string(b1) == string(b2))
	}
	if r2.Header.Get("Location") != r1.Header.Get("Location") || r1.Header.Get("Location") == "" {
		t.Errorf("replayed Location = %q, want %q", r2.Header.Get("Location"), r1.Header.Get("Location"))
	}
	if got := r2.Header.Get("Cache-Control"); got != "no-store" {
		t.Errorf("replayed answer with the organizer token: Cache-Control = %q, want no-store", got)
	}
	var tt tTournament
	if err := json.Unmarshal(b1, &tt); err != nil {
		t.Fatal(err)
	}
	// Tokens are stored hashed (docs/api.md): the stored first answer must not
	// hold the organizer token in the clear.
	var stored []byte
	if err := pool.QueryRow(t.Context(), `SELECT response FROM idempotency_keys WHERE key = 'create-1'`).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	var saved struct{ Body []byte }
	_ = json.Unmarshal(stored, &saved) // the platform's storage format, if it still is JSON
	if tt.OrganizerToken == "" || bytes.Contains(stored, []byte(tt.OrganizerToken)) || bytes.Contains(saved.Body, []byte(tt.OrganizerToken)) {
		t.Errorf("the stored answer to POST /tournaments holds the organizer token %q in the clear", tt.OrganizerToken)
	}
	players := "/api/v1/tournaments/" + tt.ID + "/players"
	send("POST", players, tt.OrganizerToken, "eva", `{"name":"Eva"}`)
	send("POST", players, tt.OrganizerToken, "eva", `{"name":"Eva"}`)
	resp, body := send("POST", players, tt.OrganizerToken, "eva", `{"name":"Bo"}`)
	wantProblem(t, "the same key with another body", resp, body, http.StatusUnprocessableEntity, "idempotency_key_reused")
	var list struct{ Players []tPlayer }
	s.must(t, http.StatusOK, &list, "GET", players, "", nil)
	if len(list.Players) != 1 || list.Players[0].Name != "Eva" {
		t.Errorf("players after a repeated registration = %+v, want Eva once", list.Players)
	}
}

// TestTournamentFieldsAndDefaults: the request fields of docs/api.md are read
// under their names, and the defaults are games_per_round 3,
// placement_points [20,12,8,5] and advance_per_table 2 (sm).
func TestTournamentFieldsAndDefaults(t *testing.T) {
	t.Parallel()
	s := startTournamentServer(t)
	type settings struct {
		ID              string          `json:"id"`
		OrganizerToken  string          `json:"organizer_token"`
		Name            string          `json:"name"`
		Format          string          `json:"format"`
		Rules           json.RawMessage `json:"rules"`
		GamesPerRound   int             `json:"games_per_round"`
		PlacementPoints []int           `json:"placement_points"`
		AdvancePerTable int             `json:"advance_per_table"`
		Rounds          int             `json:"rounds"`
		Tiebreaks       []string        `json:"tiebreaks"`
	}
	var def settings
	s.must(t, http.StatusCreated, &def, "POST", "/api/v1/tournaments", adminToken, `{"name":"SM","format":"sm"}`)
	if def.ID == "" || def.OrganizerToken == "" || def.GamesPerRound != 3 || !slices.Equal(def.PlacementPoints, []int{20, 12, 8, 5}) || def.AdvancePerTable != 2 {
		t.Errorf("defaults = %+v, want an id, an organizer_token, games_per_round 3, placement_points [20 12 8 5], advance_per_table 2", def)
	}
	var got settings
	s.must(t, http.StatusCreated, &got, "POST", "/api/v1/tournaments", adminToken, `{"name":"Klubb","format":"swiss","rules":{"preset":"sm","overrides":{"target":60}},
		"games_per_round":2,"placement_points":[9,5,2,0],"rounds":4,"tiebreaks":["games_won","game_points"]}`)
	if got.Name != "Klubb" || got.Format != "swiss" || !strings.Contains(string(got.Rules), `"target":60`) || got.GamesPerRound != 2 ||
		!slices.Equal(got.PlacementPoints, []int{9, 5, 2, 0}) || got.Rounds != 4 || !slices.Equal(got.Tiebreaks[:2], []string{"games_won", "game_points"}) {
		t.Errorf("created = %+v, want every field as sent", got)
	}
	var sm settings
	s.must(t, http.StatusCreated, &sm, "POST", "/api/v1/tournaments", adminToken, `{"name":"SM","format":"sm","advance_per_table":1}`)
	var read settings
	s.must(t, http.StatusOK, &read, "GET", "/api/v1/tournaments/"+sm.ID, "", nil)
	if sm.AdvancePerTable != 1 || read.AdvancePerTable != 1 || read.OrganizerToken != "" {
		t.Errorf("advance_per_table = %d, read back %d, organizer_token on GET %q; want 1, 1 and none", sm.AdvancePerTable, read.AdvancePerTable, read.OrganizerToken)
	}
}

// TestAuditTimesUTC: times are RFC 3339 UTC (docs/api.md) also inside the audit
// log's before and after, which the database writes, when the database's
// own time zone is not UTC (a Swedish club's server).
func TestAuditTimesUTC(t *testing.T) {
	t.Parallel()
	u := dbtest.NewURL(t)
	parsed, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	_, err = conn.Exec(t.Context(), `ALTER DATABASE "`+strings.TrimPrefix(parsed.Path, "/")+`" SET timezone TO 'Europe/Stockholm'`)
	conn.Close(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	pool, err := postgres.Open(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	s := startServer(t, api.Config{AdminTokenHash: api.HashToken(adminToken)}, assemble.Services(pool, assemble.Options{}))
	tt := s.createTournament(t, `{"name": "Klubbkväll", "format": "swiss", "rounds": 2, "games_per_round": 1}`)
	s.importPlayers(t, tt, 4)
	r := s.draw(t, tt, 11)
	tb := r.Tables[0]
	s.must(t, http.StatusCreated, nil, "PUT", gamePath(tt.ID, 1, 1, 1), tb.Code, json.RawMessage(cleanGame(t, tb.Players, firstDealerOf(tb, 1))))
	var log struct {
		Entries []struct {
			Kind          string
			Before, After any
		}
	}
	s.must(t, http.StatusOK, &log, "GET", "/api/v1/tournaments/"+tt.ID+"/audit", tt.OrganizerToken, nil)
	times := 0
	for i, e := range log.Entries {
		for _, bad := range localTimes(fmt.Sprintf("/entries/%d(%s)", i, e.Kind), []any{e.Before, e.After}, &times) {
			t.Error(bad)
		}
	}
	if times == 0 {
		t.Fatalf("no times in the audit snapshots; the test checks nothing")
	}
}

// localTimes lists the RFC 3339 times in v whose offset is not zero, and
// counts the times it saw.
func localTimes(path string, v any, seen *int) []string {
	var bad []string
	switch v := v.(type) {
	case string:
		if at, err := time.Parse(time.RFC3339Nano, v); err == nil {
			*seen++
			if _, off := at.Zone(); off != 0 {
				bad = append(bad, fmt.Sprintf("%s: %q is not UTC", path, v))
			}
		}
	case map[string]any:
		for k, x := range v {
			bad = append(bad, localTimes(path+"/"+k, x, seen)...)
		}
	case []any:
		for i, x := range v {
			bad = append(bad, localTimes(fmt.Sprintf("%s/%d", path, i), x, seen)...)
		}
	}
	return bad
}
