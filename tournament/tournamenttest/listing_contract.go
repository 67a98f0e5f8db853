package tournamenttest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
)

// listingContract checks ListTournaments and TournamentByShortCode: public
// tournaments only unless the filter asks for the private ones, in progress
// before upcoming (soonest first), pages that neither skip nor repeat, and
// each short code finding its tournament.
func listingContract(t *testing.T, st Store) {
	ctx := context.Background()
	svc := NewService(st)
	day := func(d int) time.Time { return time.Date(2026, 12, d, 0, 0, 0, 0, time.UTC) }
	create := func(name string, public bool, date time.Time) *tournament.Tournament {
		rounds := 2
		c, err := svc.CreateTournament(ctx, admin, tournament.NewTournament{Name: name, Format: tournament.FormatSwiss,
			Rounds: &rounds, Listing: tournament.Listing{Public: public, Venue: " Klubblokalen ", Date: date}})
		if err != nil {
			t.Fatalf("CreateTournament %s: %v", name, err)
		}
		return c.Tournament
	}
	later := create("Later", true, day(20))
	sooner := create("Sooner", true, day(5))
	hidden := create("Hidden", false, time.Time{})
	running := create("Running", true, day(1))
	nps := []tournament.NewPlayer{{Name: "A"}, {Name: "B"}, {Name: "C"}, {Name: "D"}}
	if _, err := svc.AddPlayers(ctx, org, running.ID, nps); err != nil {
		t.Fatalf("AddPlayers: %v", err)
	}
	mustDraw(t, play.New(svc, st), running.ID)

	names := func(f tournament.ListFilter) []string {
		ts, err := st.ListTournaments(ctx, f)
		if err != nil {
			t.Fatalf("ListTournaments(%+v): %v", f, err)
		}
		var out []string
		for _, x := range ts {
			out = append(out, x.Name)
		}
		return out
	}
	if got, want := names(tournament.ListFilter{Limit: 10}), []string{"Running", "Sooner", "Later"}; !slices.Equal(got, want) {
		t.Errorf("public list = %v, want %v", got, want)
	}
	// Hidden has no date: it sorts by the day it was made (T0, in March),
	// before December's.
	if got, want := names(tournament.ListFilter{Private: true, Limit: 10}), []string{"Running", "Hidden", "Sooner", "Later"}; !slices.Equal(got, want) {
		t.Errorf("list with private = %v, want %v", got, want)
	}
	if got, want := names(tournament.ListFilter{Offset: 1, Limit: 1}), []string{"Sooner"}; !slices.Equal(got, want) {
		t.Errorf("second page of one = %v, want %v", got, want)
	}
	if got := names(tournament.ListFilter{Offset: 3, Limit: 10}); len(got) != 0 {
		t.Errorf("page past the end = %v, want none", got)
	}

	got, err := st.Tournament(ctx, later.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Listing != later.Listing || got.Venue != "Klubblokalen" || !got.Date.Equal(day(20)) || !got.Public {
		t.Errorf("stored listing = %+v, want %+v with the venue trimmed", got.Listing, later.Listing)
	}
	for _, x := range []*tournament.Tournament{later, sooner, hidden, running} {
		if id, err := st.TournamentByShortCode(ctx, x.ShortCode); err != nil || id != x.ID {
			t.Errorf("TournamentByShortCode(%q) = %q, %v, want %q", x.ShortCode, id, err, x.ID)
		}
	}
	if _, err := st.TournamentByShortCode(ctx, "BCDFGH"); tournament.ErrorKind(err) != tournament.KindNotFound && !slices.Contains(
		[]string{later.ShortCode, sooner.ShortCode, hidden.ShortCode, running.ShortCode}, "BCDFGH") {
		t.Errorf("TournamentByShortCode of an unused code = %v, want not found", err)
	}
	// A taken code is a conflict, so that the service draws another.
	dup := *sooner
	dup.ID, dup.ShortCode = "duplicatecode000", later.ShortCode
	if err := st.CreateTournament(auditCtx(), &dup, tournament.Secrets{OrganizerTokenHash: []byte("another"), CodeKey: []byte("k")}); tournament.ErrorKind(err) != tournament.KindConflict {
		t.Errorf("CreateTournament with a taken short code = %v, want a conflict", err)
	}
}
