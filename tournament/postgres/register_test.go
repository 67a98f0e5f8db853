package postgres_test

import (
	"testing"
	"time"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/registry"
)

func newRegister(e *env) *registry.Service {
	return registry.New(e.registry, e.store, func() time.Time { return t0 })
}

// TestRegisterPeople: entries, the membership number unique among standing
// entries, search with LIKE's wildcards taken literally, and the rights.
func TestRegisterPeople(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reg := newRegister(e)
	anna, err := reg.AddPerson(e.ctx, admin, registry.NewPerson{Name: " Anna Berg ", Club: "Umeå", Membership: "U-1"})
	if err != nil || anna.ID == "" || anna.Name != "Anna Berg" {
		t.Fatalf("AddPerson = %+v, %v", anna, err)
	}
	_, err = reg.AddPerson(e.ctx, admin, registry.NewPerson{Name: "Anna B", Membership: "U-1"})
	wantCode(t, "a taken membership number", err, "person_exists")
	_, err = reg.AddPerson(e.ctx, org, registry.NewPerson{Name: "X"})
	wantCode(t, "an organizer adding to the register", err, "admin_only")
	_, err = reg.AddPerson(e.ctx, admin, registry.NewPerson{Name: ""})
	wantCode(t, "no name", err, "invalid_name")
	if _, err := reg.AddPerson(e.ctx, admin, registry.NewPerson{Name: "50% Bo_"}); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]int{"anna": 1, "umeå": 1, "%": 1, "_": 1, "": 2, "zzz": 0} {
		got, err := reg.People(e.ctx, q, 0)
		if err != nil || len(got) != want {
			t.Errorf("People(%q) = %d entries, %v, want %d", q, len(got), err, want)
		}
	}
	_, err = reg.Person(e.ctx, "P'; DROP TABLE people; --")
	wantCode(t, "a malformed id", err, "person_not_found")

	got, err := e.registry.PeopleByID(e.ctx, []string{anna.ID, anna.ID})
	if err != nil || len(got) != 1 || got[anna.ID].Name != "Anna Berg" {
		t.Errorf("PeopleByID(%s twice) = %+v, %v; want Anna Berg once", anna.ID, got, err)
	}
	_, err = e.registry.PeopleByID(e.ctx, []string{anna.ID, "P999999"})
	wantCode(t, "PeopleByID with an unknown id", err, "person_not_found")
}

// TestRegisterMergeChains: merging A into B and then B into C makes both A
// and B count as C; a merged entry cannot be merged again or picked for a
// new registration; every merge is in the log, which cannot be changed.
func TestRegisterMergeChains(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reg := newRegister(e)
	var ids []string
	for _, n := range []string{"A", "B", "C"} {
		p, err := reg.AddPerson(e.ctx, admin, registry.NewPerson{Name: n})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	wantCode(t, "a merge without a reason", reg.Merge(e.ctx, admin, ids[0], ids[1], " "), "invalid_reason")
	if err := reg.Merge(e.ctx, admin, ids[0], ids[1], "same person"); err != nil {
		t.Fatal(err)
	}
	if err := reg.Merge(e.ctx, admin, ids[1], ids[2], "same person again"); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "merging a merged entry", reg.Merge(e.ctx, admin, ids[0], ids[2], "x"), "person_merged")
	canon, err := e.registry.Canonical(e.ctx)
	if err != nil || canon[ids[0]] != ids[2] || canon[ids[1]] != ids[2] || len(canon) != 2 {
		t.Fatalf("Canonical = %v, %v; want %s and %s to end in %s", canon, err, ids[0], ids[1], ids[2])
	}
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "T", Format: tournament.FormatSwiss, Rounds: intp(1)}, 0)
	_, err = e.svc.AddPlayers(e.ctx, org, c.Tournament.ID, []tournament.NewPlayer{{Name: "A", Person: ids[0]}})
	wantCode(t, "registering a merged entry", err, "person_not_found")
	ps, err := e.svc.AddPlayers(e.ctx, org, c.Tournament.ID, []tournament.NewPlayer{{Name: "C", Person: ids[2]}, {Name: "New"}})
	if err != nil || ps[0].PersonID != ids[2] || ps[1].PersonID == "" || ps[1].PersonID == ids[2] {
		t.Fatalf("AddPlayers = %+v, %v; want C linked and a new entry for New", ps, err)
	}
	log, err := reg.Log(e.ctx, ids[1])
	if err != nil || len(log) != 3 { // created, merged into, merged
		t.Fatalf("log of %s = %+v, %v; want its creation and two merges", ids[1], log, err)
	}
	if _, err := e.pool.Exec(e.ctx, `UPDATE register_log SET reason = 'x'`); err == nil {
		t.Error("the register's log could be updated")
	}
	if _, err := e.pool.Exec(e.ctx, `DELETE FROM register_log`); err == nil {
		t.Error("the register's log could be deleted from")
	}
}

// TestSeriesRules: best-of and attendance in a series' standings, and a
// series holding an unknown tournament is refused whole.
func TestSeriesRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reg := newRegister(e)
	_, err := reg.CreateSeries(e.ctx, admin, registry.NewSeries{Name: "S", Tournaments: []string{"aaaaaaaaaaaaaaaa"}})
	wantCode(t, "a series of an unknown tournament", err, "tournament_not_found")
	_, err = reg.CreateSeries(e.ctx, admin, registry.NewSeries{Name: "S", Rule: registry.SeriesRule{BestOf: -1}})
	wantCode(t, "best_of -1", err, "invalid_best_of")
	s, err := reg.CreateSeries(e.ctx, admin, registry.NewSeries{Name: "S", Rule: registry.SeriesRule{BestOf: 1, MinNights: 1}})
	if err != nil || len(s.Tournaments) != 0 {
		t.Fatalf("CreateSeries = %+v, %v", s, err)
	}
	list, err := reg.ListSeries(e.ctx)
	if err != nil || len(list) != 1 || list[0].ID != s.ID {
		t.Fatalf("ListSeries = %+v, %v", list, err)
	}
	_, rows, err := reg.SeriesStandings(e.ctx, s.ID)
	if err != nil || len(rows) != 0 {
		t.Fatalf("standings of an empty series = %+v, %v", rows, err)
	}
}
