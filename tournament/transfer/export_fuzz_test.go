package transfer_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/transfer"
)

// FuzzImport feeds arbitrary files to Import: it must never panic, and a
// file is either refused as invalid or (being valid) reaches the store,
// which this service lacks.
func FuzzImport(f *testing.F) {
	f.Add([]byte(`{"format":"revisor-tournament/1","tournament":{"name":"T","format":"sm","games_per_round":1,` +
		`"placement_points":[20,12,8,5],"advance_per_table":2,"final_size":4,"tiebreaks":["game_points"],"seating":"mixed",` +
		`"status":"running"},"players":[{"id":"p1","seq":1,"name":"A","status":"active"},{"id":"p2","seq":2,"name":"B","status":"active"},` +
		`{"id":"p3","seq":3,"name":"C","status":"active"}],"rounds":[{"number":1,"status":"open","tables":[{"number":1,` +
		`"players":["p1","p2","p3"],"first_dealer":"p1"}]}],"results":[{"round":1,"table":1,"game":1,"record":` +
		`{"players":["p1","p2","p3"],"first_dealer":"p1","deals":[{"sheet":{"p1":{"last_trick":5}}}],"ended_by":"time"}}],` +
		`"outcomes":[],"tie_resolutions":[]}`))
	f.Add([]byte(`{"format":"revisor-tournament/1","tournament":{"name":"T","format":"sm","games_per_round":1,` +
		`"placement_points":[20,12,8,5],"advance_per_table":2,"final_size":4,"tiebreaks":["game_points"],"seating":"mixed",` +
		`"status":"running"},"players":[{"id":"p1","seq":1,"name":"A","status":"active"},{"id":"p2","seq":2,"name":"B","status":"active"},` +
		`{"id":"p3","seq":3,"name":"C","status":"active"}],"rounds":[{"number":1,"status":"closed","tables":[{"number":1,` +
		`"players":["p1","p2","p3"],"first_dealer":"p1"}]}],"results":[],"outcomes":[],"tie_resolutions":[],` +
		`"history":{"correction_minutes":30,"results":[{"id":7,"round":1,"table":1,"game":1,"record":` +
		`{"players":["p1","p2","p3"],"first_dealer":"p1","deals":[{"sheet":{"p1":{"last_trick":5}}}],"ended_by":"time"}},` +
		`{"id":9,"supersedes":7,"round":1,"table":1,"game":1,"record":` +
		`{"players":["p1","p2","p3"],"first_dealer":"p1","deals":[{"sheet":{"p2":{"last_trick":5}}}],"ended_by":"time"}}],` +
		`"deals":[{"round":1,"table":1,"game":1,"seq":0,"deal":{"sheet":{"p1":{"last_trick":5}}}}],` +
		`"deal_corrections":[{"round":1,"table":1,"game":1,"seq":0,"deal":{"sheet":{}},"reason":"r","corrected_by":"table:1/1"}],` +
		`"confirmations":[{"result":9,"player":"p2","confirmed_by":"table:1/1"}],` +
		`"disputes":[{"round":1,"table":1,"game":1,"description":"d","record":{"deals":[]},"result":7,"status":"ruled",` +
		`"opened_role":"table","opened_by":"table:1/1","ruling":{"decision":"upheld","reason":"r","correction":9,` +
		`"disqualified":[],"adjustments":[{"player":"p1","points":-2,"scale":"placement_points","reason":"x"}],` +
		`"ruled_role":"referee","ruled_by":"referee:1"}}],"reopenings":[{"round":1,"reason":"r","by":"organizer"}],` +
		`"audit":[{"role":"system","kind":"registration","subject":"players","operation":"INSERT","players":["p1"],"after":{"id":"p1"}}]}}`))
	f.Add([]byte(`{"format":"revisor-tournament/1"}`))
	f.Add([]byte(`{"format":"x","rounds":[{"number":1,"tables":[{}]}]}`))
	svc := transfer.New(tournament.NewService(nil), nil)
	admin := tournament.Actor{Role: tournament.RoleAdmin}
	f.Fuzz(func(t *testing.T, data []byte) {
		var ex transfer.Export
		if json.Unmarshal(data, &ex) != nil {
			return
		}
		_, err := svc.Import(context.Background(), admin, &ex)
		switch tournament.ErrorKind(err) {
		case tournament.KindRejected, tournament.KindUnavailable:
		default:
			t.Fatalf("Import = %v, want a rejection or (valid file) no store", err)
		}
	})
}
