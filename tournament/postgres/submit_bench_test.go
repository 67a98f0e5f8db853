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
