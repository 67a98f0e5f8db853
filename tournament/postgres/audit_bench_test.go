package postgres_test

import (
	"testing"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// BenchmarkAuditedSubmit measures a game submission with its audit entry
// (the trigger of migration 000020) against the same submission with the
// audit trigger of game_results disabled: the cost of the audit log on the
// busiest write.
func BenchmarkAuditedSubmit(b *testing.B) {
	for _, audited := range []bool{true, false} {
		name := "audited"
		if !audited {
			name = "unaudited"
		}
		b.Run(name, func(b *testing.B) {
			e := newEnv(b)
			c, _ := e.mustTournament(b, tournament.NewTournament{Name: "Bench", Format: tournament.FormatSwiss,
				Rounds: intp(1), GamesPerRound: intp(20)}, 400)
			tid := c.Tournament.ID
			r := e.mustDraw(b, tid, 1)
			if !audited {
				if _, err := e.pool.Exec(e.ctx, `ALTER TABLE game_results DISABLE TRIGGER revisor_audit`); err != nil {
					b.Fatal(err)
				}
			}
			var keys []tournament.GameKey
			var recs [][]byte
			for g := 1; g <= 20 && len(keys) < b.N; g++ {
				for _, tb := range r.Tables {
					if len(keys) < b.N {
						keys = append(keys, tournament.GameKey{TournamentID: tid, Round: 1, Table: tb.Number, Game: g})
						recs = append(recs, tournamenttest.SimGame(uint64(len(keys)), tb.Players, tb.FirstDealerOf(g), 1))
					}
				}
			}
			if len(keys) < b.N {
				b.Skipf("only %d games for b.N = %d", len(keys), b.N)
			}
			b.ResetTimer()
			for i := range b.N {
				a := tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: keys[i].Table}
				if _, err := e.plays.SubmitGame(e.ctx, a, keys[i], recs[i]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAuditPage reads pages of the audit log of a tournament of 2000
// players with one round drawn and played (about 3000 entries): the first
// page, one player's entries, and one kind's.
func BenchmarkAuditPage(b *testing.B) {
	e := newEnv(b)
	c, _ := e.mustTournament(b, tournament.NewTournament{Name: "Bench", Format: tournament.FormatSwiss,
		Rounds: intp(1), GamesPerRound: intp(1)}, 2000)
	tid := c.Tournament.ID
	r := e.mustDraw(b, tid, 1)
	for _, tb := range r.Tables {
		k := tournament.GameKey{TournamentID: tid, Round: 1, Table: tb.Number, Game: 1}
		e.mustSubmit(b, k, tournamenttest.SimGame(uint64(tb.Number), tb.Players, tb.FirstDealerOf(1), 1))
	}
	for _, f := range []struct {
		name string
		f    tournament.AuditFilter
	}{
		{"first", tournament.AuditFilter{Limit: 100}},
		{"player", tournament.AuditFilter{Player: "p1234", Limit: 100}},
		{"kind", tournament.AuditFilter{Kind: "submission", Limit: 100}},
		{"table", tournament.AuditFilter{Round: 1, Table: 250, Limit: 100}},
	} {
		b.Run(f.name, func(b *testing.B) {
			for range b.N {
				es, err := e.referees.Audit(e.ctx, tid, f.f)
				if err != nil || len(es) == 0 {
					b.Fatalf("Audit(%+v) = %d entries, %v", f.f, len(es), err)
				}
			}
		})
	}
}
