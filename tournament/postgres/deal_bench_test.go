package postgres_test

import (
	"bytes"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/postgres"
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
	e, jobs := appendDealJobs(b)
	b.ResetTimer()
	for i := range b.N {
		j := jobs[i]
		a := tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: j.k.Table}
		if _, err := e.plays.AppendDealAt(e.ctx, a, j.k, j.n, j.deal); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendDealKeyed is BenchmarkAppendDeal for deals sent with an
// Idempotency-Key, as every table sends them (issue 17), the store's side
// of the API's claim and stored answer: Separate claims the key and
// stores the answer in statements of their own, as the API did before
// (4 round trips for a deal that does not end its game); WithTheDeal runs
// the deal in the key's unit of work (app.Unit on postgres.Idempotency),
// which claims the key in the batch of its first read and stores the
// answer with the deal (2); Warm is WithTheDeal with the service's warm
// games: a game's next deal is checked against what was read for the deal
// before and stored with the key's claim and answer in one statement (1;
// the first deal of a game 2).
func BenchmarkAppendDealKeyed(b *testing.B) {
	answer := bytes.Repeat([]byte("a"), 300) // a sealed answer's size
	for _, mode := range []string{"Separate", "WithTheDeal", "Warm"} {
		b.Run(mode, func(b *testing.B) {
			e, jobs := appendDealJobs(b, play.WithWarmGames(mode == "Warm"))
			e, trips := traced(b, e, play.WithWarmGames(mode == "Warm"))
			idem := postgres.NewIdempotency(e.pool, time.Hour, time.Minute)
			b.ResetTimer()
			defer func() { b.ReportMetric(float64(trips.N.Load())/float64(b.N), "trips/op") }()
			for i := range b.N {
				j := jobs[i]
				a := tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: j.k.Table}
				scope, key, fp := "POST /deals", strconv.Itoa(i), []byte("fingerprint")
				if mode == "Separate" {
					separately(b, e, idem, scope, key, fp, answer, func() error {
						_, err := e.plays.AppendDealAt(e.ctx, a, j.k, j.n, j.deal)
						return err
					})
					continue
				}
				u := app.NewUnit(idem, app.Key{Scope: scope, Key: key, Fingerprint: fp}, func(any) ([]byte, error) { return answer, nil })
				if _, err := e.plays.AppendDealIn(e.ctx, u.Wrap, a, j.k, j.n, j.deal); err != nil {
					b.Fatal(err)
				}
				if u.Answer() == nil { // the last deal of a game: its answer on its own
					if err := idem.Complete(e.ctx, scope, key, answer); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// separately claims key, runs write and stores answer under the key, each
// in round trips of its own, as the API did before the store took the
// claim (the Separate benchmarks).
func separately(b *testing.B, e *env, idem *postgres.Idempotency, scope, key string, fp, answer []byte, write func() error) {
	b.Helper()
	if stored, err := idem.Claim(e.ctx, scope, key, fp); err != nil || stored != nil {
		b.Fatal(stored, err)
	}
	if err := write(); err != nil {
		b.Fatal(err)
	}
	if err := idem.Complete(e.ctx, scope, key, answer); err != nil {
		b.Fatal(err)
	}
}

// appendDealJob is one deal of BenchmarkAppendDeal's games.
type appendDealJob struct {
	k    tournament.GameKey
	n    int
	deal []byte
}

// appendDealJobs simulates b.N deals of 20 games at each table of a
// 400-player round, numbered as the tables send them.
func appendDealJobs(b *testing.B, opts ...play.Option) (*env, []appendDealJob) {
	e := newEnv(b)
	e.plays = play.New(e.svc, e.store, opts...)
	c, _ := e.mustTournament(b, tournament.NewTournament{Name: "Bench", Format: tournament.FormatSwiss, Rounds: intp(1), GamesPerRound: intp(20)}, 400)
	tid := c.Tournament.ID
	r := e.mustDraw(b, tid, 1)
	var jobs []appendDealJob
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
				jobs = append(jobs, appendDealJob{k, i + 1, d})
			}
		}
	}
	if len(jobs) < b.N {
		b.Skipf("only %d deals for b.N = %d", len(jobs), b.N)
	}
	return e, jobs
}
