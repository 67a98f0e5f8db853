package postgres_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/referee"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// TestSeedByRating: after a club night gives eight people ratings, the
// next tournament's round 1 seeded by rating puts the two best rated at
// different tables (and so every pot), stores the pots with the round, and
// the draw replays from its published inputs.
func TestSeedByRating(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reg := newRegister(e)
	refs := referee.New(e.svc, e.plays, e.referees)
	night, ps := e.mustTournament(t, tournament.NewTournament{Name: "Night", Format: tournament.FormatSwiss, Rounds: intp(1), GamesPerRound: intp(3)}, 8)
	r := e.mustDraw(t, night.Tournament.ID, 5)
	rng := rand.New(rand.NewPCG(5, 5))
	for _, tb := range r.Tables {
		for g := 1; g <= 3; g++ {
			e.mustSubmit(t, tournament.GameKey{TournamentID: night.Tournament.ID, Round: 1, Table: tb.Number, Game: g},
				tournamenttest.SheetGame(rng, tb.Players, tb.FirstDealerOf(g)))
		}
	}
	rated, err := reg.Ratings(e.ctx)
	if err != nil || len(rated) != 8 {
		t.Fatalf("Ratings = %d, %v; want 8", len(rated), err)
	}
	c, err := e.svc.CreateTournament(e.ctx, admin, tournament.NewTournament{Name: "Cup", Format: tournament.FormatSM})
	if err != nil {
		t.Fatal(err)
	}
	tid := c.Tournament.ID
	var nps []tournament.NewPlayer
	for i := range ps { // the same people, in reverse order, and a newcomer
		p := ps[len(ps)-1-i]
		nps = append(nps, tournament.NewPlayer{Name: p.Name, Person: p.PersonID})
	}
	nps = append(nps, tournament.NewPlayer{Name: "Newcomer"})
	cup, err := e.svc.AddPlayers(e.ctx, org, tid, nps)
	if err != nil {
		t.Fatal(err)
	}
	player := map[string]string{} // person → player in the cup
	for _, p := range cup {
		player[p.PersonID] = p.ID
	}
	opts, err := reg.SeedByRating(e.ctx, tid, tournament.DrawOptions{Seed: new(int64)})
	if err != nil {
		t.Fatal(err)
	}
	// Nine players: three tables, pots of three, best first, the newcomer last.
	best := []string{player[rated[0].Person.ID], player[rated[1].Person.ID], player[rated[2].Person.ID]}
	if len(opts.KeepApart) != 3 || !slices.Equal(opts.KeepApart[0], best) || opts.KeepApart[2][2] != cup[8].ID {
		t.Fatalf("pots = %v, want the best three %v first and the newcomer %s last", opts.KeepApart, best, cup[8].ID)
	}
	drawn, err := e.plays.DrawRoundWith(e.ctx, org, tid, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, pot := range opts.KeepApart {
		seen := map[int]bool{}
		for _, p := range pot {
			tb, _ := drawn.TableOf(p)
			if seen[tb.Number] {
				t.Errorf("pot %v: two players at table %d (%v)", pot, tb.Number, drawn.Tables)
			}
			seen[tb.Number] = true
		}
	}
	in, err := refs.DrawInputs(e.ctx, tid, 1)
	if err != nil || in.Constraints == nil || !slices.EqualFunc(in.Constraints.KeepApart, opts.KeepApart, slices.Equal) {
		t.Fatalf("published constraints = %+v, %v; want the pots", in, err)
	}
	got, err := referee.ReplayDraw(*in)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if !slices.Equal(got[i].Players, drawn.Tables[i].Players) {
			t.Errorf("replayed table %d = %v, drawn %v", i+1, got[i].Players, drawn.Tables[i].Players)
		}
	}
}
