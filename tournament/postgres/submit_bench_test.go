package postgres_test

import (
	"bytes"
	"strconv"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/postgres"
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
		if _, err := e.plays.SubmitGame(e.ctx, table(jobs[i].k), jobs[i].k, jobs[i].rec); err != nil {
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
	e, r := finishedGames(b)
	b.ResetTimer()
	for i := range b.N {
		k, a, player := confirmJob(r, i)
		if _, err := e.plays.ConfirmGame(e.ctx, a, k, player); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkConfirmGameKeyed is BenchmarkConfirmGame for confirmations sent
// with an Idempotency-Key, as tables send them (issue 17), the store's
// side of the API's claim and stored answer: Separate claims the key and
// stores the answer in statements of their own, as the API did before (5
// round trips); WithTheConfirmation runs it in the key's unit of work
// (app.Unit on postgres.Idempotency), which claims the key in the batch of
// the table's read and stores the answer in the confirmation's statement
// (3).
func BenchmarkConfirmGameKeyed(b *testing.B) {
	answer := bytes.Repeat([]byte("a"), 400) // a sealed answer's size
	for _, mode := range []string{"Separate", "WithTheConfirmation"} {
		b.Run(mode, func(b *testing.B) {
			e, r := finishedGames(b)
			idem := postgres.NewIdempotency(e.pool, time.Hour, time.Minute)
			b.ResetTimer()
			for i := range b.N {
				k, a, player := confirmJob(r, i)
				scope, key, fp := "POST /confirmations", strconv.Itoa(i), []byte("fingerprint")
				if mode == "Separate" {
					separately(b, e, idem, scope, key, fp, answer, func() error {
						_, err := e.plays.ConfirmGame(e.ctx, a, k, player)
						return err
					})
					continue
				}
				u := app.NewUnit(idem, app.Key{Scope: scope, Key: key, Fingerprint: fp}, func(any) ([]byte, error) { return answer, nil })
				if _, err := e.plays.ConfirmGameIn(e.ctx, u.Wrap, a, k, player); err != nil {
					b.Fatal(err)
				}
				if u.Answer() == nil {
					b.Fatal("the answer was not stored with the confirmation")
				}
			}
		})
	}
}

// finishedGames makes a 400-player round whose 100 games are over.
func finishedGames(b *testing.B) (*env, *tournament.Round) {
	e := newEnv(b)
	c, _ := e.mustTournament(b, tournament.NewTournament{Name: "Bench", Format: tournament.FormatSwiss, Rounds: intp(1), GamesPerRound: intp(1)}, 400)
	r := e.mustDraw(b, c.Tournament.ID, 1)
	for i, tb := range r.Tables {
		k := tournament.GameKey{TournamentID: c.Tournament.ID, Round: 1, Table: tb.Number, Game: 1}
		a := tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: tb.Number}
		if _, err := e.plays.SubmitGame(e.ctx, a, k, tournamenttest.SimGame(uint64(i), tb.Players, tb.FirstDealerOf(1), 1)); err != nil {
			b.Fatal(err)
		}
	}
	return e, r
}

// confirmJob is confirmation i of finishedGames' round: table by table,
// then player by player.
func confirmJob(r *tournament.Round, i int) (tournament.GameKey, tournament.Actor, string) {
	tb := r.Tables[i%len(r.Tables)]
	k := tournament.GameKey{TournamentID: r.TournamentID, Round: 1, Table: tb.Number, Game: 1}
	return k, tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: tb.Number}, tb.Players[(i/len(r.Tables))%len(tb.Players)]
}
