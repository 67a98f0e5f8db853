package api_test

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// fixture is a running sm tournament with round 1 drawn (7 players: a table
// of 4 and one of 3), and a second tournament still taking registrations.
type fixture struct {
	s       *testServer
	tt      tTournament // running
	other   tTournament // registration open, 4 players
	players []tPlayer
	round   tRound
	rng     *rand.Rand
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	s := startTournamentServer(t)
	f := &fixture{s: s, rng: rand.New(rand.NewPCG(42, 43))}
	f.tt = s.createTournament(t, `{"name": "SM Göteborg", "format": "sm"}`)
	f.players = s.importPlayers(t, f.tt, 7)
	f.round = s.draw(t, f.tt, 2026)
	f.other = s.createTournament(t, `{"name": "Club night", "format": "swiss", "rounds": 3, "games_per_round": 1}`)
	s.importPlayers(t, f.other, 4)
	return f
}

func (f *fixture) code(table int) string { return f.round.Tables[table-1].Code }

// game returns a finished sheet game for game g of a table of round 1.
func (f *fixture) game(table, g int) []byte {
	tb := f.round.Tables[table-1]
	return tournamenttest.SheetGame(f.rng, tb.Players, firstDealerOf(tb, g))
}

// apiCase is one request and the answer it must get.
type apiCase struct {
	name         string
	method, path string
	token        string
	body         any
	ct           string
	status       int
	code         string // problem code for errors
}

func (f *fixture) run(t *testing.T, cases []apiCase) {
	t.Helper()
	for _, c := range cases {
		var ct []string
		if c.ct != "" {
			ct = []string{c.ct}
		}
		resp, body := f.s.call(t, c.method, c.path, c.token, c.body, ct...)
		if c.code == "" {
			if resp.StatusCode != c.status {
				t.Errorf("%s: %s %s = %d %s, want %d", c.name, c.method, c.path, resp.StatusCode, body, c.status)
			}
			continue
		}
		wantProblem(t, c.name, resp, body, c.status, c.code)
	}
}

func TestTournamentEndpoints(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tid, org, other := f.tt.ID, f.tt.OrganizerToken, f.other.OrganizerToken
	base := "/api/v1/tournaments/" + tid
	f.run(t, []apiCase{
		{"create", "POST", "/api/v1/tournaments", adminToken, `{"name":"X","format":"swiss","rounds":2}`, "", 201, ""},
		{"create without name", "POST", "/api/v1/tournaments", adminToken, `{"format":"sm"}`, "", 400, "invalid_name"},
		{"create with bad format", "POST", "/api/v1/tournaments", adminToken, `{"name":"X","format":"knockout"}`, "", 400, "invalid_format"},
		{"create swiss without rounds", "POST", "/api/v1/tournaments", adminToken, `{"name":"X","format":"swiss"}`, "", 400, "invalid_rounds"},
		{"create with lot not last", "POST", "/api/v1/tournaments", adminToken, `{"name":"X","format":"sm","tiebreaks":["lot","game_points"]}`, "", 400, "invalid_tiebreaks"},
		{"create with unknown rule", "POST", "/api/v1/tournaments", adminToken, `{"name":"X","format":"sm","rules":{"preset":"sm","overrides":{"trumps":true}}}`, "", 422, "invalid_rules"},
		{"create with a default language", "POST", "/api/v1/tournaments", adminToken, `{"name":"X","format":"sm","language":"nb"}`, "", 201, ""},
		{"create with an unknown language", "POST", "/api/v1/tournaments", adminToken, `{"name":"X","format":"sm","language":"de"}`, "", 400, "invalid_language"},
		{"create in Oslo", "POST", "/api/v1/tournaments", adminToken, `{"name":"X","format":"sm","time_zone":"Europe/Oslo"}`, "", 201, ""},
		{"create on Mars", "POST", "/api/v1/tournaments", adminToken, `{"name":"X","format":"sm","time_zone":"Mars/Olympus_Mons"}`, "", 400, "invalid_time_zone"},
		{"create in the server's zone", "POST", "/api/v1/tournaments", adminToken, `{"name":"X","format":"sm","time_zone":"Local"}`, "", 400, "invalid_time_zone"},
		{"create listed, with venue and date", "POST", "/api/v1/tournaments", adminToken, `{"name":"X","format":"sm","public":true,"venue":"Folkets hus","date":"2026-12-19"}`, "", 201, ""},
		{"create with a bad date", "POST", "/api/v1/tournaments", adminToken, `{"name":"X","format":"sm","date":"19/12/2026"}`, "", 400, "invalid_date"},
		{"create with a year 0", "POST", "/api/v1/tournaments", adminToken, `{"name":"X","format":"sm","date":"0000-01-01"}`, "", 400, "invalid_date"},
		{"create with a venue of two lines", "POST", "/api/v1/tournaments", adminToken, `{"name":"X","format":"sm","venue":"a\nb"}`, "", 400, "invalid_venue"},
		{"create with rules", "POST", "/api/v1/tournaments", adminToken, `{"name":"X","format":"sm","rules":{"preset":"sm","overrides":{"target":60}}}`, "", 201, ""},
		{"create, malformed JSON", "POST", "/api/v1/tournaments", adminToken, `{"name":`, "", 400, "malformed_json"},
		{"create, wrong type", "POST", "/api/v1/tournaments", adminToken, `{"name":"X","format":"sm","games_per_round":"3"}`, "", 400, "invalid_field_type"},
		{"create without token", "POST", "/api/v1/tournaments", "", `{"name":"X","format":"sm"}`, "", 401, "missing_token"},
		{"create as organizer", "POST", "/api/v1/tournaments", org, `{"name":"X","format":"sm"}`, "", 403, "forbidden"},
		{"create with unknown token", "POST", "/api/v1/tournaments", "nonsense-token", `{"name":"X","format":"sm"}`, "", 401, "unknown_token"},

		{"get", "GET", base, "", nil, "", 200, ""},
		{"get unknown", "GET", "/api/v1/tournaments/nope", "", nil, "", 404, "tournament_not_found"},

		{"add player in sm after round 1", "POST", base + "/players", org, `{"name":"Late"}`, "", 409, "registration_closed"},
		{"add player", "POST", "/api/v1/tournaments/" + f.other.ID + "/players", other, `{"name":"Eva","club":"Umeå"}`, "", 201, ""},
		{"add player without name", "POST", "/api/v1/tournaments/" + f.other.ID + "/players", other, `{"name":"  "}`, "", 400, "invalid_name"},
		{"add player with a NUL in the name", "POST", "/api/v1/tournaments/" + f.other.ID + "/players", other, `{"name":"a\u0000b"}`, "", 400, "invalid_text"},
		{"add player with a line break in the club", "POST", "/api/v1/tournaments/" + f.other.ID + "/players", other, `{"name":"Ulf","club":"a\nb"}`, "", 400, "invalid_club"},
		{"create with a NUL in the name", "POST", "/api/v1/tournaments", adminToken, `{"name":"X\u0000","format":"sm"}`, "", 400, "invalid_text"},
		{"add player without token", "POST", base + "/players", "", `{"name":"X"}`, "", 401, "missing_token"},
		{"add player, other organizer", "POST", base + "/players", other, `{"name":"X"}`, "", 403, "wrong_tournament"},
		{"add player with a table code", "POST", base + "/players", f.code(1), `{"name":"X"}`, "", 403, "forbidden"},
		{"add player, unknown tournament", "POST", "/api/v1/tournaments/nope/players", adminToken, `{"name":"X"}`, "", 404, "tournament_not_found"},

		{"import", "POST", "/api/v1/tournaments/" + f.other.ID + "/players:import", other, "Fia,Luleå\nGun,\n", "text/csv", 201, ""},
		{"import with bad rows", "POST", "/api/v1/tournaments/" + f.other.ID + "/players:import", other, "name,club\nFia,Luleå\n,Nowhere\nA,B,C\n", "text/csv", 422, "invalid_csv"},
		{"import as JSON", "POST", "/api/v1/tournaments/" + f.other.ID + "/players:import", other, `{"name":"x"}`, "", 415, "unsupported_media_type"},
		{"import without token", "POST", base + "/players:import", "", "A,B\n", "text/csv", 401, "missing_token"},
		{"import, other organizer", "POST", base + "/players:import", other, "A,B\n", "text/csv", 403, "wrong_tournament"},
		{"import, unknown tournament", "POST", "/api/v1/tournaments/nope/players:import", adminToken, "A,B\n", "text/csv", 404, "tournament_not_found"},

		{"list players", "GET", base + "/players", "", nil, "", 200, ""},
		{"list players, unknown tournament", "GET", "/api/v1/tournaments/nope/players", "", nil, "", 404, "tournament_not_found"},

		{"withdraw", "PATCH", "/api/v1/tournaments/" + f.other.ID + "/players/p1", other, `{"status":"withdrawn"}`, "", 200, ""},
		{"reinstate", "PATCH", "/api/v1/tournaments/" + f.other.ID + "/players/p1", other, `{"status":"active"}`, "", 200, ""},
		{"rename", "PATCH", base + "/players/p2", org, `{"name":"Anna-Karin"}`, "", 200, ""},
		{"eliminate by hand", "PATCH", base + "/players/p2", org, `{"status":"eliminated"}`, "", 400, "invalid_status"},
		{"unknown status", "PATCH", base + "/players/p2", org, `{"status":"retired"}`, "", 400, "invalid_status"},
		{"patch without token", "PATCH", base + "/players/p2", "", `{"name":"X"}`, "", 401, "missing_token"},
		{"patch with a table code", "PATCH", base + "/players/p2", f.code(2), `{"name":"X"}`, "", 403, "forbidden"},
		{"patch unknown player", "PATCH", base + "/players/p99", org, `{"name":"X"}`, "", 404, "player_not_found"},

		{"delete before round 1", "DELETE", "/api/v1/tournaments/" + f.other.ID + "/players/p7", other, nil, "", 204, ""},
		{"delete again", "DELETE", "/api/v1/tournaments/" + f.other.ID + "/players/p7", other, nil, "", 404, "player_not_found"},
		{"delete after round 1 is drawn", "DELETE", base + "/players/p3", org, nil, "", 409, "registration_closed"},
		{"delete without token", "DELETE", base + "/players/p3", "", nil, "", 401, "missing_token"},
		{"delete with a table code", "DELETE", base + "/players/p3", f.code(1), nil, "", 403, "forbidden"},
		{"delete, other organizer", "DELETE", base + "/players/p3", other, nil, "", 403, "wrong_tournament"},
		{"delete, unknown tournament", "DELETE", "/api/v1/tournaments/nope/players/p1", adminToken, nil, "", 404, "tournament_not_found"},

		{"draw while round 1 is open", "POST", base + "/rounds", org, nil, "", 409, "round_open"},
		{"draw with a negative seed", "POST", "/api/v1/tournaments/" + f.other.ID + "/rounds", other, `{"seed":-1}`, "", 400, "invalid_seed"},
		{"draw without token", "POST", base + "/rounds", "", nil, "", 401, "missing_token"},
		{"draw with a table code", "POST", base + "/rounds", f.code(1), nil, "", 403, "forbidden"},
		{"draw, unknown tournament", "POST", "/api/v1/tournaments/nope/rounds", adminToken, nil, "", 404, "tournament_not_found"},

		{"get round", "GET", base + "/rounds/1", "", nil, "", 200, ""},
		{"list rounds", "GET", base + "/rounds", "", nil, "", 200, ""},
		{"get unknown round", "GET", base + "/rounds/2", "", nil, "", 404, "round_not_found"},
		{"get round x", "GET", base + "/rounds/x", "", nil, "", 404, "round_not_found"},

		{"codes", "GET", base + "/rounds/1/codes", org, nil, "", 200, ""},
		{"codes without token", "GET", base + "/rounds/1/codes", "", nil, "", 401, "missing_token"},
		{"codes with a table code", "GET", base + "/rounds/1/codes", f.code(1), nil, "", 403, "forbidden"},
		{"codes of an unknown round", "GET", base + "/rounds/3/codes", org, nil, "", 404, "round_not_found"},

		{"submit", "PUT", gamePath(tid, 1, 1, 1), f.code(1), f.game(1, 1), "", 201, ""},
		{"submit with a lower-case code", "PUT", gamePath(tid, 1, 2, 1), strings.ToLower(f.code(2)), f.game(2, 1), "", 201, ""},
		{"submit a different record", "PUT", gamePath(tid, 1, 1, 1), f.code(1), f.game(1, 1), "", 409, "result_exists"},
		{"submit for another table", "PUT", gamePath(tid, 1, 1, 2), f.code(2), f.game(1, 2), "", 403, "wrong_table"},
		{"submit without token", "PUT", gamePath(tid, 1, 1, 2), "", f.game(1, 2), "", 401, "missing_token"},
		{"submit with a wrong code", "PUT", gamePath(tid, 1, 1, 2), "ABCDEFGH", f.game(1, 2), "", 401, "unknown_token"},
		{"submit, other organizer", "PUT", gamePath(tid, 1, 1, 2), other, f.game(1, 2), "", 403, "wrong_tournament"},
		{"submit not JSON", "PUT", gamePath(tid, 1, 1, 2), f.code(1), `{"players":`, "", 400, "malformed_json"},
		{"submit an invalid record", "PUT", gamePath(tid, 1, 1, 2), f.code(1), f.game(2, 2), "", 422, "players_mismatch"},
		{"submit game 4", "PUT", gamePath(tid, 1, 1, 4), f.code(1), f.game(1, 1), "", 404, "game_not_found"},
		{"submit to table 9", "PUT", gamePath(tid, 1, 9, 1), org, f.game(1, 1), "", 404, "table_not_found"},

		{"get game", "GET", gamePath(tid, 1, 1, 1), "", nil, "", 200, ""},
		{"get unplayed game", "GET", gamePath(tid, 1, 1, 3), "", nil, "", 404, "result_not_found"},

		{"deal", "POST", gamePath(tid, 1, 1, 3) + "/deals", f.code(1), `{"sheet":{}}`, "", 422, "invalid_record"},
		{"deal after the game", "POST", gamePath(tid, 1, 1, 1) + "/deals", f.code(1), tournamenttest.DealOf(f.game(1, 1))[0], "", 409, "game_over"},
		{"deal without token", "POST", gamePath(tid, 1, 1, 3) + "/deals", "", `{"sheet":{}}`, "", 401, "missing_token"},
		{"deal for another table", "POST", gamePath(tid, 1, 1, 3) + "/deals", f.code(2), `{"sheet":{}}`, "", 403, "wrong_table"},
		{"deal for an unknown round", "POST", gamePath(tid, 5, 1, 3) + "/deals", org, `{"sheet":{}}`, "", 404, "round_not_found"},

		{"close with games missing", "POST", base + "/rounds/1/close", org, nil, "", 409, "games_missing"},
		{"close without token", "POST", base + "/rounds/1/close", "", nil, "", 401, "missing_token"},
		{"close with a table code", "POST", base + "/rounds/1/close", f.code(1), nil, "", 403, "forbidden"},
		{"close an unknown round", "POST", base + "/rounds/4/close", org, nil, "", 404, "round_not_found"},

		{"tie with a bad method", "POST", base + "/rounds/1/ties", org, `{"players":["p1","p2"],"method":"coin"}`, "", 400, "invalid_method"},
		{"tie before the games", "POST", base + "/rounds/1/ties", org, map[string]any{"players": f.round.Tables[0].Players[:2], "method": "lot"}, "", 409, "games_missing"},
		{"tie without token", "POST", base + "/rounds/1/ties", "", `{"players":["p1","p2"],"method":"lot"}`, "", 401, "missing_token"},
		{"tie with a table code", "POST", base + "/rounds/1/ties", f.code(1), `{"players":["p1","p2"],"method":"lot"}`, "", 403, "forbidden"},
		{"tie in an unknown round", "POST", base + "/rounds/4/ties", org, `{"players":["p1","p2"],"method":"lot"}`, "", 404, "round_not_found"},

		{"standings", "GET", base + "/standings", "", nil, "", 200, ""},
		{"standings, unknown tournament", "GET", "/api/v1/tournaments/nope/standings", "", nil, "", 404, "tournament_not_found"},
	})
}

// TestSubmissionRepeat: the same record again is 200 with the same answer.
func TestSubmissionRepeat(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	rec := f.game(1, 1)
	path := gamePath(f.tt.ID, 1, 1, 1)
	resp1, b1 := f.s.call(t, "PUT", path, f.code(1), rec)
	resp2, b2 := f.s.call(t, "PUT", path, f.tt.OrganizerToken, rec)
	if resp1.StatusCode != 201 || resp2.StatusCode != 200 || string(b1) != string(b2) {
		t.Fatalf("PUT twice = %d, %d; bodies equal %v, want 201, 200 and the same answer\n%s\n%s", resp1.StatusCode, resp2.StatusCode, string(b1) == string(b2), b1, b2)
	}
	var res struct {
		Result          map[string]any `json:"result"`
		PlacementPoints map[string]int `json:"placement_points"`
		SubmittedBy     string         `json:"submitted_by"`
	}
	if err := json.Unmarshal(b1, &res); err != nil {
		t.Fatal(err)
	}
	if res.Result["valid"] != true || len(res.PlacementPoints) != len(f.round.Tables[0].Players) || res.SubmittedBy != "table:1/1" {
		t.Errorf("answer = %s, want the engine's valid result, placement points for every player, submitted by table:1/1", b1)
	}
	if strings.Contains(string(b1), f.code(1)) {
		t.Errorf("the answer shows the table code")
	}
}

// TestCodesOnlyForTheOrganizer: drawing shows codes, reading the round does not.
func TestCodesOnlyForTheOrganizer(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, tb := range f.round.Tables {
		if len(tb.Code) != 8 {
			t.Errorf("table %d code %q, want 8 characters", tb.Number, tb.Code)
		}
	}
	_, body := f.s.call(t, "GET", "/api/v1/tournaments/"+f.tt.ID+"/rounds/1", f.tt.OrganizerToken, nil)
	for _, tb := range f.round.Tables {
		if strings.Contains(string(body), tb.Code) {
			t.Errorf("GET round shows table %d's code", tb.Number)
		}
	}
	var codes struct{ Tables []tTable }
	f.s.must(t, 200, &codes, "GET", "/api/v1/tournaments/"+f.tt.ID+"/rounds/1/codes", f.tt.OrganizerToken, nil)
	for i, tb := range codes.Tables {
		if tb.Code != f.round.Tables[i].Code {
			t.Errorf("codes again: table %d = %q, want %q", tb.Number, tb.Code, f.round.Tables[i].Code)
		}
	}
}

// TestStandingsCSV: ?format=csv and Accept: text/csv give the same CSV.
func TestStandingsCSV(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.s.must(t, 201, nil, "PUT", gamePath(f.tt.ID, 1, 1, 1), f.code(1), f.game(1, 1))
	resp1, b1 := f.s.call(t, "GET", "/api/v1/tournaments/"+f.tt.ID+"/standings?format=csv", "", nil)
	resp2, b2 := f.s.do(t, request{method: "GET", path: "/api/v1/tournaments/" + f.tt.ID + "/standings", header: map[string]string{"Accept": "text/csv"}})
	lines := strings.Split(strings.TrimSpace(string(b1)), "\n")
	if resp1.StatusCode != 200 || !strings.HasPrefix(resp1.Header.Get("Content-Type"), "text/csv") || string(b1) != string(b2) || resp2.StatusCode != 200 {
		t.Fatalf("CSV = %d %q / %d, want 200 text/csv twice the same", resp1.StatusCode, resp1.Header.Get("Content-Type"), resp2.StatusCode)
	}
	if len(lines) != 8 || lines[0] != "rank,player,name,club,placement_points,game_points,games_played,games_won,best_game,status,round_reached,round_points,progress,decided_by,tie" {
		t.Fatalf("CSV = %q, want a header and 7 rows", lines)
	}
	// Round 1 is open: each row says so, and the second says what put it second.
	if !strings.HasSuffix(lines[1], ",playing round 1,,") || !strings.HasSuffix(lines[2], ",playing round 1,placement_points,") {
		t.Errorf("CSV rows 1-2 = %q, %q, want playing round 1 and decided by placement_points", lines[1], lines[2])
	}
}

// TestTieResolutionHTTP: closing with a tie the tiebreaks leave open is a
// 409 naming the players; the organizer's resolution lets the round close.
func TestTieResolutionHTTP(t *testing.T) {
	t.Parallel()
	s := startTournamentServer(t)
	tt := s.createTournament(t, `{"name":"T","format":"sm","tiebreaks":["game_points","games_won","best_game"]}`)
	s.importPlayers(t, tt, 8)
	r := s.draw(t, tt, 77)
	for _, tb := range r.Tables {
		for g := 1; g <= 3; g++ {
			rec := tournamenttest.TimedGame(tb.Players, firstDealerOf(tb, g), map[string]map[string]int{tb.Players[0]: {"last_trick": 5}})
			s.must(t, 201, nil, "PUT", gamePath(tt.ID, 1, tb.Number, g), tb.Code, rec)
		}
	}
	closePath := "/api/v1/tournaments/" + tt.ID + "/rounds/1/close"
	resp, body := s.call(t, "POST", closePath, tt.OrganizerToken, nil)
	wantProblem(t, "close with ties", resp, body, 409, "unresolved_tie")
	var p struct {
		Ties []struct {
			Table   int `json:"table"`
			Places  int `json:"places"`
			Players []struct{ ID, Name string }
		} `json:"ties"`
	}
	if err := json.Unmarshal(body, &p); err != nil || len(p.Ties) != 2 || len(p.Ties[0].Players) != 3 || p.Ties[0].Places != 1 ||
		p.Ties[0].Players[0].Name == "" {
		t.Fatalf("ties = %s, want two tables with three players tied for one place", body)
	}
	var adv []string
	for _, tie := range p.Ties {
		order := []string{tie.Players[2].ID, tie.Players[0].ID, tie.Players[1].ID}
		adv = append(adv, order[0])
		s.must(t, 201, nil, "POST", "/api/v1/tournaments/"+tt.ID+"/rounds/1/ties", tt.OrganizerToken,
			map[string]any{"players": order, "method": "lot", "note": "card drawn by the head referee"})
	}
	var ch tClose
	s.must(t, 200, &ch, "POST", closePath+"?accept_unconfirmed=true", tt.OrganizerToken, nil)
	var round struct{ Outcomes []map[string]any }
	s.must(t, 200, &round, "GET", "/api/v1/tournaments/"+tt.ID+"/rounds/1", "", nil)
	if len(round.Outcomes) != 8 {
		t.Errorf("GET round after closing: %d outcomes, want 8", len(round.Outcomes))
	}
	for _, o := range ch.Outcomes {
		want := o.Player == r.Tables[o.Table-1].Players[0] || o.Player == adv[0] || o.Player == adv[1]
		if o.Advanced != want {
			t.Errorf("%s advanced = %v, want %v", o.Player, o.Advanced, want)
		}
	}
	// The standings say how each tie was broken: by the organizer's lot, with the note.
	var sd struct {
		Rows []struct {
			Player, Progress string
			Tie              *struct {
				Table    int
				Players  []string
				Method   string
				Resolved bool
				Note     string
			}
		}
	}
	s.must(t, 200, &sd, "GET", "/api/v1/tournaments/"+tt.ID+"/standings", "", nil)
	tied := 0
	for _, row := range sd.Rows {
		if row.Tie == nil {
			continue
		}
		tied++
		if row.Tie.Method != "lot" || !row.Tie.Resolved || row.Tie.Note != "card drawn by the head referee" ||
			len(row.Tie.Players) != 3 || row.Tie.Players[0] != adv[row.Tie.Table-1] {
			t.Errorf("standings tie of %s = %+v, want the organizer's lot with its note, %s first", row.Player, *row.Tie, adv[row.Tie.Table-1])
		}
	}
	if tied != 6 {
		t.Errorf("%d rows explain a tie, want 6 (three a table)", tied)
	}
}

// TestTournamentListingFields: what the create request sets of the
// listing comes back, with the short code the server made.
func TestTournamentListingFields(t *testing.T) {
	t.Parallel()
	s := startTournamentServer(t)
	resp, body := s.call(t, "POST", "/api/v1/tournaments", adminToken,
		`{"name":"Julcupen","format":"sm","public":true,"venue":"Folkets hus","date":"2026-12-19"}`)
	var got struct {
		Public    bool   `json:"public"`
		ShortCode string `json:"short_code"`
		Venue     string `json:"venue"`
		Date      string `json:"date"`
	}
	if resp.StatusCode != 201 || json.Unmarshal(body, &got) != nil {
		t.Fatalf("create = %d %s", resp.StatusCode, body)
	}
	if !got.Public || got.Venue != "Folkets hus" || got.Date != "2026-12-19" ||
		strings.Trim(got.ShortCode, tournament.ShortCodeAlphabet) != "" || len(got.ShortCode) != tournament.ShortCodeLen {
		t.Errorf("created tournament's listing = %+v", got)
	}
}
