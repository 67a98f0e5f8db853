package postgres_test

import (
	"testing"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// BenchmarkSubmitGame measures one game submission through the service and
// the real store: reading the table, the engine's check, storing the
// result. Records are simulated score sheets, made outside the timer.
func BenchmarkSubmitGame(b *testing.B) {
	e := newEnv(b)
	c, _ := e.mustTournament(b, tournament.NewTournament{Name: "Bench", Format: tournament.FormatSwiss, Rounds: intp(1), GamesPerRound: intp(20)}, 2000)
	tid := c.Tournament.ID
	r := e.mustDraw(b, tid, 1)
	type job struct {
		k   tournament.GameKey
		rec []byte
	}
	var jobs []job
	for g := 1; g <= 20 && len(jobs) < b.N; g++ {
		for _, tb := range r.Tables {
			if len(jobs) == b.N {
				break
			}
			jobs = append(jobs, job{tournament.GameKey{TournamentID: tid, Round: 1, Table: tb.Number, Game: g},
				tournamenttest.SimGame(uint64(len(jobs)), tb.Players, tb.FirstDealerOf(g), 1)})
		}
	}
	if len(jobs) < b.N {
		b.Skipf("only %d games for b.N = %d", len(jobs), b.N)
	}
	table := func(k tournament.GameKey) tournament.Actor {
		return tournament.Actor{Role: tournament.RoleTable, Round: k.Round, Table: k.Table}
	}
	b.ResetTimer()
	for i := range b.N {
		if _, err := e.svc.SubmitGame(e.ctx, table(jobs[i].k), jobs[i].k, jobs[i].rec); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkConfirmGame measures one confirmation through the service and
// the real store, at the 100 tables of a 400-player round whose games are
// over: reading the table, then the store's confirmation (the game's lock,
// its result and confirmations, the insert). Each player of each table
// confirms once; past 400 confirmations they confirm again (nothing
// stored, the same reads).
func BenchmarkConfirmGame(b *testing.B) {
	e := newEnv(b)
	c, _ := e.mustTournament(b, tournament.NewTournament{Name: "Bench", Format: tournament.FormatSwiss, Rounds: intp(1), GamesPerRound: intp(1)}, 400)
	tid := c.Tournament.ID
	r := e.mustDraw(b, tid, 1)
	for i, tb := range r.Tables {
		k := tournament.GameKey{TournamentID: tid, Round: 1, Table: tb.Number, Game: 1}
		a := tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: tb.Number}
		if _, err := e.svc.SubmitGame(e.ctx, a, k, tournamenttest.SimGame(uint64(i), tb.Players, tb.FirstDealerOf(1), 1)); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := range b.N {
		tb := r.Tables[i%len(r.Tables)]
		k := tournament.GameKey{TournamentID: tid, Round: 1, Table: tb.Number, Game: 1}
		a := tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: tb.Number}
		if _, err := e.svc.ConfirmGame(e.ctx, a, k, tb.Players[(i/len(r.Tables))%len(tb.Players)]); err != nil {
			b.Fatal(err)
		}
	}
}
