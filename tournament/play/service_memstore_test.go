package play_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// The service's rules on the in-memory store (tournamenttest.MemStore):
// fast unit tests of what the service decides, with the store held to the
// same contract as PostgreSQL's (TestStoreContract, TestMemStoreMatchesPostgres).

var (
	admin = tournament.Actor{Role: tournament.RoleAdmin}
	org   = tournament.Actor{Role: tournament.RoleOrganizer}
)

type fixture struct {
	ctx   context.Context
	store *tournamenttest.MemStore
	svc   *tournament.Service
	plays *play.Service
	tid   string
	round *tournament.Round
}

// newFixture creates a Swiss tournament of players players (two rounds of
// games games) and draws round 1.
func newFixture(t *testing.T, players, games int) *fixture {
	t.Helper()
	st := tournamenttest.NewMemStore()
	f := &fixture{ctx: context.Background(), store: st, svc: tournamenttest.NewService(st)}
	f.plays = play.New(f.svc, st)
	rounds := 2
	c, err := f.svc.CreateTournament(f.ctx, admin, tournament.NewTournament{Name: "Unit", Format: tournament.FormatSwiss, Rounds: &rounds, GamesPerRound: &games})
	if err != nil {
		t.Fatal(err)
	}
	f.tid = c.Tournament.ID
	nps := make([]tournament.NewPlayer, players)
	for i := range nps {
		nps[i] = tournament.NewPlayer{Name: string(rune('A'+i)) + "nna"}
	}
	if _, err := f.svc.AddPlayers(f.ctx, org, f.tid, nps); err != nil {
		t.Fatal(err)
	}
	seed := int64(3)
	if f.round, err = f.plays.DrawRound(f.ctx, org, f.tid, &seed); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) key(table, game int) tournament.GameKey {
	return tournament.GameKey{TournamentID: f.tid, Round: f.round.Number, Table: table, Game: game}
}

// submitAll submits every game of the round as a score sheet.
func (f *fixture) submitAll(t *testing.T, games int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tb := range f.round.Tables {
		for g := 1; g <= games; g++ {
			if _, err := f.plays.SubmitGame(f.ctx, org, f.key(tb.Number, g), tournamenttest.SheetGame(rng, tb.Players, tb.FirstDealerOf(g))); err != nil {
				t.Fatalf("SubmitGame(table %d, game %d): %v", tb.Number, g, err)
			}
		}
	}
}

func wantCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	if got := tournament.ErrorCode(err); got != code {
		t.Fatalf("%s: error %v (code %q), want %q", what, err, got, code)
	}
}

func TestUnitCloseNeedsEveryGame(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 8, 1)
	_, err := f.plays.CloseRound(f.ctx, org, f.tid, 1)
	wantCode(t, "closing with no results", err, tournament.CodeGamesMissing)
	if r, _ := f.store.Round(f.ctx, f.tid, 1); r.Status != tournament.RoundOpen {
		t.Fatalf("round after a refused close is %s, want open", r.Status)
	}
	f.submitAll(t, 1)
	if _, err := f.plays.CloseRound(f.ctx, org, f.tid, 1); err != nil {
		t.Fatalf("closing with every game: %v", err)
	}
}

func TestUnitOneRoundOpenAtATime(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 8, 1)
	seed := int64(4)
	_, err := f.plays.DrawRound(f.ctx, org, f.tid, &seed)
	wantCode(t, "drawing while round 1 is open", err, tournament.CodeRoundOpen)
}

func TestUnitOnlyTheOrganizerDraws(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 8, 1)
	f.submitAll(t, 1)
	if _, err := f.plays.CloseRound(f.ctx, org, f.tid, 1); err != nil {
		t.Fatal(err)
	}
	seed := int64(4)
	for _, a := range []tournament.Actor{{Role: tournament.RolePublic}, {Role: tournament.RoleTable, Round: 1, Table: 1}} {
		if _, err := f.plays.DrawRound(f.ctx, a, f.tid, &seed); err == nil {
			t.Fatalf("%s drew a round", a.Role)
		}
	}
}

func TestUnitFirstResultIsBinding(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 8, 1)
	tb := f.round.Tables[0]
	rng := rand.New(rand.NewPCG(5, 6))
	first, err := f.plays.SubmitGame(f.ctx, org, f.key(tb.Number, 1), tournamenttest.SheetGame(rng, tb.Players, tb.FirstDealerOf(1)))
	if err != nil || !first.Created {
		t.Fatalf("first submission = %+v, %v", first, err)
	}
	other, err := f.plays.SubmitGame(f.ctx, org, f.key(tb.Number, 1), tournamenttest.SheetGame(rng, tb.Players, tb.FirstDealerOf(1)))
	if err == nil && other.Created {
		t.Fatal("a second, different record replaced the binding first result")
	}
	rs, _ := f.store.Results(f.ctx, f.tid, 1)
	if len(rs) != 1 || rs[0].ID != first.Result.ID {
		t.Fatalf("results after a second submission = %+v, want only the first", rs)
	}
}

func TestUnitConfirmations(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 8, 1)
	tb := f.round.Tables[0]
	table := tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: tb.Number}
	_, err := f.plays.ConfirmGame(f.ctx, table, f.key(tb.Number, 1), tb.Players[0])
	wantCode(t, "confirming a game without a result", err, tournament.CodeGameNotFinished)
	f.submitAll(t, 1)
	stranger := f.round.Tables[1].Players[0]
	_, err = f.plays.ConfirmGame(f.ctx, table, f.key(tb.Number, 1), stranger)
	wantCode(t, "a player of another table confirming", err, tournament.CodePlayerNotAtTable)
	if _, err := f.plays.ConfirmGame(f.ctx, tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: f.round.Tables[1].Number},
		f.key(tb.Number, 1), tb.Players[0]); err == nil {
		t.Fatal("another table's code confirmed this table's game")
	}
	for i, p := range tb.Players {
		c, err := f.plays.ConfirmGame(f.ctx, table, f.key(tb.Number, 1), p)
		if err != nil || !c.Created || c.Confirmed != (i == len(tb.Players)-1) {
			t.Fatalf("confirmation %d by %s = %+v, %v", i+1, p, c, err)
		}
	}
	again, err := f.plays.ConfirmGame(f.ctx, table, f.key(tb.Number, 1), tb.Players[0])
	if err != nil || again.Created || !again.Confirmed {
		t.Fatalf("a repeated confirmation = %+v, %v, want nothing new, confirmed", again, err)
	}
}

func TestUnitEveningStandings(t *testing.T) {
	t.Parallel()
	mem := tournamenttest.NewMemStore()
	svc := tournamenttest.NewService(mem)
	_, st := tournamenttest.PlayEvening(t, svc, play.New(svc, mem), 12, 9)
	if len(st) != 12 {
		t.Fatalf("standings have %d rows, want 12", len(st))
	}
	games, points := 0, 0
	for i, s := range st {
		if i > 0 && s.Rank < st[i-1].Rank {
			t.Fatalf("rank %d after %d", s.Rank, st[i-1].Rank)
		}
		games += s.GamesPlayed
		points += s.PlacementPoints
	}
	// 12 players: three tables of four, three games a round, two rounds.
	if games != 12*3*2 {
		t.Fatalf("games played add up to %d, want %d", games, 12*3*2)
	}
	if points == 0 {
		t.Fatal("no placement points were given")
	}
}

// TestTieResolutionsBounded (issue 13, a relative of item 3): a tie may
// be resolved again while the round is open, but a table has at most
// MaxTieResolutions in a round; past it a 409 that says so.
func TestTieResolutionsBounded(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 4, 1)
	tb := f.round.Tables[0]
	p := tb.Players
	game := tournamenttest.TimedGame(p, tb.FirstDealerOf(1), map[string]map[string]int{p[0]: {"last_trick": 5}})
	if _, err := f.plays.SubmitGame(f.ctx, org, f.key(tb.Number, 1), game); err != nil {
		t.Fatal(err)
	}
	tied := []string{p[1], p[2], p[3]}
	for i := range play.MaxTieResolutions {
		if _, err := f.plays.ResolveTie(f.ctx, org, f.tid, 1, tied, tournament.TieByChoice, ""); err != nil {
			t.Fatalf("resolution %d: %v", i+1, err)
		}
		tied[0], tied[1] = tied[1], tied[0]
	}
	_, err := f.plays.ResolveTie(f.ctx, org, f.tid, 1, tied, tournament.TieByChoice, "")
	wantCode(t, "one resolution past the bound", err, tournament.CodeTooManyTieResolutions)
}
