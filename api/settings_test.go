package api_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/internal/assemble"
	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/tournament"
)

// tSettings is the part of a tournament the settings change touches.
type tSettings struct {
	Name              string   `json:"name"`
	GamesPerRound     int      `json:"games_per_round"`
	PlacementPoints   []int    `json:"placement_points"`
	AdvancePerTable   any      `json:"advance_per_table"`
	DayBreaks         []int    `json:"day_breaks"`
	Tiebreaks         []string `json:"tiebreaks"`
	Language          string   `json:"language"`
	TimeZone          string   `json:"time_zone"`
	CorrectionMinutes int      `json:"correction_minutes"`
}

// TestUpdateSettings (issue 14, item 2): the organizer changes a
// tournament's settings until round 1 is drawn: a partial update that
// leaves the rest, bad values refused field by field with 422, the format
// refused, the change in the audit log with who and why, another role
// refused, and 409 in words after the draw.
func TestUpdateSettings(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	s := startServer(t, api.Config{AdminTokenHash: api.HashToken(adminToken)}, assemble.Services(pool, assemble.Options{}))
	tt := s.createTournament(t, `{"name": "Klubbkväll", "format": "sm", "correction_minutes": 20, "time_zone": "Europe/Oslo"}`)
	path := "/api/v1/tournaments/" + tt.ID
	var created tSettings
	s.must(t, http.StatusOK, &created, "GET", path, "", nil)
	if created.CorrectionMinutes != 20 || created.TimeZone != "Europe/Oslo" {
		t.Errorf("created with a 20 minute window in Oslo, got %d minutes in %s", created.CorrectionMinutes, created.TimeZone)
	}

	var got tSettings
	s.must(t, http.StatusOK, &got, "PATCH", path, tt.OrganizerToken,
		`{"tiebreaks": ["game_points", "games_won"], "placement_points": [10, 6, 3, 1], "advance_per_table": [2, 1],
		  "correction_minutes": 45, "language": "sv", "day_breaks": [1], "reason": "decided at the club meeting"}`)
	want := created
	want.Tiebreaks, want.PlacementPoints, want.AdvancePerTable = []string{"game_points", "games_won"}, []int{10, 6, 3, 1}, []any{2.0, 1.0}
	want.CorrectionMinutes, want.Language, want.DayBreaks = 45, "sv", []int{1}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after the change = %+v, want %+v", got, want)
	}
	var read tSettings
	if s.must(t, http.StatusOK, &read, "GET", path, "", nil); !reflect.DeepEqual(read, want) {
		t.Errorf("GET after the change = %+v, want %+v", read, want)
	}
	// A partial update leaves the rest; the admin may too.
	s.must(t, http.StatusOK, &got, "PATCH", path, adminToken, `{"name": "  Klubbkväll i Oslo ", "day_breaks": []}`)
	want.Name, want.DayBreaks = "Klubbkväll i Oslo", []int{}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after renaming = %+v, want %+v", got, want)
	}

	resp, body := s.call(t, "PATCH", path, tt.OrganizerToken,
		`{"games_per_round": 0, "placement_points": [5, 8, 3, 1], "time_zone": "Mars/Olympus", "correction_minutes": 99999, "name": "ok"}`)
	wantProblem(t, "bad values", resp, body, http.StatusUnprocessableEntity, tournament.CodeInvalidSettings)
	var fields struct {
		Fields []struct{ Field, Message string }
	}
	if err := json.Unmarshal(body, &fields); err != nil {
		t.Fatal(err)
	}
	var named []string
	for _, f := range fields.Fields {
		named = append(named, f.Field)
		if f.Message == "" {
			t.Errorf("field %s has no message", f.Field)
		}
	}
	if w := []string{"games_per_round", "placement_points", "time_zone", "correction_minutes"}; !reflect.DeepEqual(named, w) {
		t.Errorf("bad values name %v, want %v: %s", named, w, body)
	}
	if s.must(t, http.StatusOK, &read, "GET", path, "", nil); !reflect.DeepEqual(read, want) {
		t.Errorf("bad values changed the tournament to %+v", read)
	}
	resp, body = s.call(t, "PATCH", path, tt.OrganizerToken, `{"format": "swiss"}`)
	wantProblem(t, "format", resp, body, http.StatusBadRequest, "invalid_format")
	resp, body = s.call(t, "PATCH", path, tt.OrganizerToken, `{"games_per_round": "three"}`)
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("games_per_round as a word = %d %s, want 400", resp.StatusCode, body)
	}

	other := s.createTournament(t, `{"name": "Annan", "format": "sm"}`)
	resp, body = s.call(t, "PATCH", path, other.OrganizerToken, `{"name": "taken over"}`)
	wantProblem(t, "another tournament's organizer", resp, body, http.StatusForbidden, "wrong_tournament")
	resp, body = s.call(t, "PATCH", path, "", `{"name": "taken over"}`)
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("without a token = %d %s, want 401", resp.StatusCode, body)
	}

	var log struct {
		Entries []struct {
			Kind, Reason  string
			Actor         struct{ Role string }
			Before, After map[string]any
		}
	}
	s.must(t, http.StatusOK, &log, "GET", path+"/audit?kind=tournament_updated", tt.OrganizerToken, nil)
	if len(log.Entries) != 2 {
		t.Fatalf("audit entries of the changes = %d, want 2 (refusals write none)", len(log.Entries))
	}
	first := log.Entries[0]
	if first.Actor.Role != "organizer" || first.Reason != "decided at the club meeting" ||
		first.Before["correction_minutes"] != 20.0 || first.After["correction_minutes"] != 45.0 {
		t.Errorf("audit of the first change = %+v, want the organizer, the reason, 20 → 45 minutes", first)
	}
	if log.Entries[1].Actor.Role != "admin" || log.Entries[1].After["name"] != "Klubbkväll i Oslo" {
		t.Errorf("audit of the rename = %+v", log.Entries[1])
	}

	s.importPlayers(t, tt, 8)
	s.draw(t, tt, 1)
	resp, body = s.call(t, "PATCH", path, tt.OrganizerToken, `{"correction_minutes": 10}`)
	p := wantProblem(t, "after the draw", resp, body, http.StatusConflict, tournament.CodeSettingsLocked)
	if !strings.Contains(p.Detail, "round 1 has been drawn") {
		t.Errorf("409 after the draw says %q, want it to say round 1 has been drawn", p.Detail)
	}
}
