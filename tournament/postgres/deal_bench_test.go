package postgres_test

import (
	"encoding/json"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// BenchmarkAppendDeal measures one numbered deal appended through the
// service and the real store, as tables enter their games deal by deal:
// reading the table with the game's running state (one statement), the
// engine's check of the deal against it, storing the deal with the next
// state (one statement; the last deal checks the whole game and stores the
// result). The engine's steps alone: BenchmarkDecodeGameDeal and
// BenchmarkNextDeal in engine. Half the
// deals are score-sheet lines, half full deals; records are simulated
// outside the timer.
func BenchmarkAppendDeal(b *testing.B) {
	e := newEnv(b)
	c, _ := e.mustTournament(b, tournament.NewTournament{Name: "Bench", Format: tournament.FormatSwiss, Rounds: intp(1), GamesPerRound: intp(20)}, 400)
	tid := c.Tournament.ID
	r := e.mustDraw(b, tid, 1)
	type job struct {
		k    tournament.GameKey
		n    int
		deal []byte
	}
	var jobs []job
	for g := 1; g <= 20 && len(jobs) < b.N; g++ {
		for _, tb := range r.Tables {
			if len(jobs) >= b.N {
				break
			}
			var rec struct{ Deals []json.RawMessage }
			if err := json.Unmarshal(tournamenttest.SimGame(uint64(len(jobs)), tb.Players, tb.FirstDealerOf(g), 0.5), &rec); err != nil {
				b.Fatal(err)
			}
			k := tournament.GameKey{TournamentID: tid, Round: 1, Table: tb.Number, Game: g}
			for i, d := range rec.Deals {
				jobs = append(jobs, job{k, i + 1, d})
			}
		}
	}
	if len(jobs) < b.N {
		b.Skipf("only %d deals for b.N = %d", len(jobs), b.N)
	}
	b.ResetTimer()
	for i := range b.N {
		j := jobs[i]
		a := tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: j.k.Table}
		if _, err := e.svc.AppendDealAt(e.ctx, a, j.k, j.n, j.deal); err != nil {
			b.Fatal(err)
		}
	}
}
