package postgres_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/referee"
)

// TestDrawConstraints: a draw keeps fixed tables and clubs apart, stores
// them with the round, and its public inputs replay to the same tables.
func TestDrawConstraints(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	refs := referee.New(e.svc, e.plays, e.referees)
	c, err := e.svc.CreateTournament(e.ctx, admin, tournament.NewTournament{Name: "Clubs", Format: tournament.FormatSwiss, Rounds: intp(3)})
	if err != nil {
		t.Fatal(err)
	}
	tid := c.Tournament.ID
	var nps []tournament.NewPlayer
	for i := range 16 { // clubs A to D of four players each, registered club by club
		nps = append(nps, tournament.NewPlayer{Name: fmt.Sprintf("P%d", i+1), Club: string(rune('A' + i/4))})
	}
	ps, err := e.svc.AddPlayers(e.ctx, org, tid, nps)
	if err != nil {
		t.Fatal(err)
	}
	club := map[string]string{}
	for _, p := range ps {
		club[p.ID] = p.Club
	}
	bad := []struct {
		o    tournament.DrawOptions
		code string
	}{
		{tournament.DrawOptions{FixedTables: map[string]int{"p99": 1}}, "invalid_fixed_tables"},
		{tournament.DrawOptions{FixedTables: map[string]int{"p1": 0}}, "invalid_fixed_tables"},
		{tournament.DrawOptions{FixedTables: map[string]int{"p1": 5}}, "cannot_fix_table"},
		{tournament.DrawOptions{KeepApart: [][]string{{"p1", "nobody"}}}, "invalid_keep_apart"},
	}
	for _, tt := range bad {
		_, err := e.plays.DrawRoundWith(e.ctx, org, tid, tt.o)
		wantCode(t, fmt.Sprintf("DrawRoundWith(%+v)", tt.o), err, tt.code)
	}
	_, err = e.plays.DrawRoundWith(e.ctx, tournament.Actor{Role: tournament.RolePublic}, tid, tournament.DrawOptions{ClubsApart: true})
	wantCode(t, "DrawRoundWith as the public", err, "token_required")
	seed := int64(3)
	r, err := e.plays.DrawRoundWith(e.ctx, org, tid, tournament.DrawOptions{Seed: &seed, ClubsApart: true,
		FixedTables: map[string]int{"p1": 3}, KeepApart: [][]string{{"p1", "p5", "p9"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range r.Tables {
		for i, a := range tb.Players {
			for _, b := range tb.Players[i+1:] {
				if club[a] == club[b] {
					t.Errorf("table %d seats %s and %s of club %s", tb.Number, a, b, club[a])
				}
			}
		}
		if slices.Contains(tb.Players, "p1") != (tb.Number == 3) {
			t.Errorf("table %d: %v; want p1 at table 3 only", tb.Number, tb.Players)
		}
	}
	in, err := refs.DrawInputs(e.ctx, tid, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"p1", "p5", "p9"}, {"p1", "p2", "p3", "p4"}, {"p5", "p6", "p7", "p8"}, {"p9", "p10", "p11", "p12"}, {"p13", "p14", "p15", "p16"}}
	if in.Constraints == nil || in.Constraints.FixedTables["p1"] != 3 || !slices.EqualFunc(in.Constraints.KeepApart, want, slices.Equal) {
		t.Fatalf("stored constraints = %+v, want p1 at table 3 and groups %v", in.Constraints, want)
	}
	got, err := referee.ReplayDraw(*in)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if !slices.Equal(got[i].Players, r.Tables[i].Players) {
			t.Errorf("replayed table %d = %v, drawn %v", i+1, got[i].Players, r.Tables[i].Players)
		}
	}
	// Without its constraints the draw replays differently: they matter.
	in.Constraints = nil
	plain, _ := referee.ReplayDraw(*in)
	same := true
	for i := range plain {
		same = same && slices.Equal(plain[i].Players, r.Tables[i].Players)
	}
	if same {
		t.Errorf("the draw without its constraints gives the same tables; the test shows nothing")
	}
}
