package main

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/tournament/rating"
)

// TestE2ESeason runs a club's season: ten people in the register, three
// Swiss club nights of eight of them (two rounds each), one player
// registered twice by mistake and merged, then the season's standings
// (best two nights, at least two nights to be ranked) and the rating list,
// both checked against an independent calculation from each night's
// standings and each round's results.
func TestE2ESeason(t *testing.T) {
	t.Parallel()
	c := startE2E(t)
	names := []string{"Anna Berg", "Bo Ek", "Cecilia Lund", "David Holm", "Eva Strand", "Filip Dahl",
		"Greta Nord", "Hugo Sjö", "Ingrid Vik", "Jonas Å"}
	people := make([]string, len(names))
	for i, n := range names {
		var p struct{ ID string }
		c.must(201, &p, "POST", "/people", c.admin, map[string]string{"name": n, "club": "Chicagoklubben",
			"membership": fmt.Sprintf("CK-%03d", i+1)})
		people[i] = p.ID
	}
	// Who plays which night (indexes into people); night 3 registers Hugo
	// (7) again as a new entry, merged into his own afterwards.
	nights := [][]int{{0, 1, 2, 3, 4, 5, 6, 7}, {0, 1, 2, 3, 4, 5, 8, 9}, {0, 1, 2, 3, 6, 7, 8, 9}}
	var tids []string
	personOf := map[string]map[string]string{} // tournament -> player -> person
	dup := ""
	for k, night := range nights {
		c.create(fmt.Sprintf(`{"name": "Klubbkväll %d", "format": "swiss", "rounds": 2, "games_per_round": 2}`, k+1), 0)
		tids = append(tids, c.tid)
		personOf[c.tid] = map[string]string{}
		for _, i := range night {
			body := map[string]string{"name": names[i], "person": people[i]}
			if k == 2 && i == 7 {
				delete(body, "person") // the mistake: a new entry
			}
			var pl struct{ ID, Person string }
			c.must(201, &pl, "POST", "/tournaments/"+c.tid+"/players", c.org, body)
			if body["person"] == "" {
				dup = pl.Person
				if dup == "" || dup == people[7] {
					t.Fatalf("registration without a person got person %q, want a new entry", dup)
				}
			}
			personOf[c.tid][pl.ID] = people[i] // what the merge will make of it
		}
		for n := 1; n <= 2; n++ {
			c.play(c.draw(), 2)
			c.close(n)
		}
	}
	// Merging needs a reason and the admin.
	c.must(400, nil, "POST", "/people/"+dup+"/merge", c.admin, map[string]string{"into": people[7]})
	c.must(401, nil, "POST", "/people/"+dup+"/merge", "", map[string]string{"into": people[7], "reason": "x"})
	c.must(200, nil, "POST", "/people/"+dup+"/merge", c.admin, map[string]string{"into": people[7],
		"reason": "Hugo Sjö registered twice on night 3"})
	c.must(409, nil, "POST", "/people/"+dup+"/merge", c.admin, map[string]string{"into": people[7], "reason": "again"})
	var log struct {
		Entries []struct{ Action, Person, Other, Reason, Actor string }
	}
	c.must(200, &log, "GET", "/register/log?person="+dup, c.admin, nil)
	if i := slices.IndexFunc(log.Entries, func(e struct{ Action, Person, Other, Reason, Actor string }) bool {
		return e.Action == "merge"
	}); i < 0 || log.Entries[i].Other != people[7] || log.Entries[i].Actor != "admin" || !strings.Contains(log.Entries[i].Reason, "twice") {
		t.Errorf("register log = %+v, want the merge with who and why", log.Entries)
	}

	var series struct{ ID string }
	c.must(201, &series, "POST", "/series", c.admin, map[string]any{"name": "Säsong 2026", "best_of": 2,
		"min_nights": 2, "tournaments": tids[:2]})
	c.must(200, nil, "POST", "/series/"+series.ID+"/tournaments", c.admin, map[string]string{"tournament": tids[2]})
	c.must(401, nil, "POST", "/series", "", map[string]any{"name": "x"})
	c.must(403, nil, "POST", "/series", c.org, map[string]any{"name": "x"})
	var got struct {
		Rows []struct {
			Rank   int
			Person struct{ ID string }
			Total  int
			Ranked bool
			Nights []struct{ Tournament string }
		}
	}
	c.must(200, &got, "GET", "/series/"+series.ID+"/standings", "", nil)

	// The independent calculation: each night's standings by person, the
	// best two nights, ranked with two nights or more.
	pp := map[string][]int{}
	for _, tid := range tids {
		c.tid = tid
		for _, row := range c.standings() {
			pp[personOf[tid][row.Player]] = append(pp[personOf[tid][row.Player]], row.PlacementPoints)
		}
	}
	type want struct {
		total  int
		ranked bool
		nights int
	}
	wants := map[string]want{}
	for p, pts := range pp {
		s := slices.Sorted(slices.Values(pts))
		slices.Reverse(s)
		total := 0
		for _, v := range s[:min(2, len(s))] {
			total += v
		}
		wants[p] = want{total, len(pts) >= 2, len(pts)}
	}
	if len(got.Rows) != len(people) {
		t.Fatalf("series has %d rows, want %d (the merged entry counts as Hugo)", len(got.Rows), len(people))
	}
	for i, row := range got.Rows {
		w := wants[row.Person.ID]
		if row.Total != w.total || row.Ranked != w.ranked || len(row.Nights) != w.nights {
			t.Errorf("series row %s = total %d ranked %v nights %d, want %+v", row.Person.ID, row.Total, row.Ranked, len(row.Nights), w)
		}
		if i > 0 {
			prev := got.Rows[i-1]
			if (prev.Ranked == row.Ranked && prev.Total < row.Total) || (!prev.Ranked && row.Ranked) {
				t.Errorf("series rows %d and %d out of order", i, i+1)
			}
		}
	}
	if hugo := wants[people[7]]; hugo.nights != 2 {
		t.Errorf("Hugo has %d nights, want 2 (night 1 and, merged, night 3)", hugo.nights)
	}

	// Ratings, recomputed from every round's results in the order played.
	m := rating.Default()
	ratings := map[string]rating.Rating{}
	for _, tid := range tids {
		c.tid = tid
		for n := 1; n <= 2; n++ {
			res := c.round(n).Results
			slices.SortFunc(res, func(a, b eResult) int {
				return cmp.Or(cmp.Compare(a.Table, b.Table), cmp.Compare(a.Game, b.Game))
			})
			for _, g := range res {
				in := make([]rating.Rating, len(g.Places))
				places := make([]int, len(g.Places))
				for i, p := range g.Places {
					r, ok := ratings[personOf[tid][p.Player]]
					if !ok {
						r = m.New()
					}
					in[i], places[i] = r, p.Place
				}
				for i, r := range m.Rate(in, places) {
					ratings[personOf[tid][g.Places[i].Player]] = r
				}
			}
		}
	}
	var list struct {
		Ratings []struct {
			Person          struct{ ID string }
			Mu, Sigma, Rank float64
			Rating          float64
			Games           int
		}
	}
	c.must(200, &list, "GET", "/ratings", "", nil)
	if len(list.Ratings) != len(people) {
		t.Fatalf("%d rated, want %d", len(list.Ratings), len(people))
	}
	for i, r := range list.Ratings {
		w := ratings[r.Person.ID]
		if math.Abs(r.Mu-w.Mu) > 0.0011 || math.Abs(r.Sigma-w.Sigma) > 0.0011 {
			t.Errorf("rating of %s = %v/%v, recomputed %v/%v", r.Person.ID, r.Mu, r.Sigma, w.Mu, w.Sigma)
		}
		if i > 0 && list.Ratings[i-1].Rating < r.Rating {
			t.Errorf("rating list out of order at %d", i+1)
		}
	}
	var hist struct {
		History []struct{ Tournament string }
	}
	c.must(200, &hist, "GET", "/people/"+dup, "", nil) // the merged entry answers for Hugo
	if len(hist.History) != 8 {
		t.Errorf("Hugo's history has %d games, want 8 (two nights of two rounds of two games)", len(hist.History))
	}
}
