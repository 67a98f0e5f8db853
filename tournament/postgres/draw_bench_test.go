package postgres_test

import (
	"testing"

	"github.com/revisor-sm/revisor/tournament"
)

// benchDraw measures drawing round `round` of a Swiss tournament of n
// players through the service and the real store: reading the state,
// seating (tournament/seating) and writing the round. Earlier rounds are
// played with one timed game a table, outside the timer.
func benchDraw(b *testing.B, n, round int, seating string) {
	e := newEnv(b)
	for b.Loop() {
		b.StopTimer()
		c, _ := e.mustTournament(b, tournament.NewTournament{Name: "Big", Format: tournament.FormatSwiss,
			Rounds: intp(10), GamesPerRound: intp(1), Seating: seating}, n)
		tid := c.Tournament.ID
		for k := 1; k < round; k++ {
			r := e.mustDraw(b, tid, int64(k))
			e.playRound(b, tid, r, 1, firstWins(k%3))
			if _, err := e.plays.CloseRound(e.ctx, org, tid, k); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		r := e.mustDraw(b, tid, int64(round))
		b.StopTimer()
		if len(r.Tables) != n/4 {
			b.Fatalf("%d tables, want %d", len(r.Tables), n/4)
		}
		b.StartTimer()
	}
}

func BenchmarkDrawRound1Of1000(b *testing.B) { benchDraw(b, 1000, 1, tournament.SeatingMixed) }
func BenchmarkDrawRound2Of1000(b *testing.B) { benchDraw(b, 1000, 2, tournament.SeatingMixed) }
func BenchmarkDrawRound2Of1000ByStandings(b *testing.B) {
	benchDraw(b, 1000, 2, tournament.SeatingByStandings)
}
