package tournament_test

import (
	"math/rand/v2"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/tournament"
)

// bigState is a Swiss tournament of n players over rounds rounds, 3 games a
// round at tables of 4, with random places and scores.
func bigState(n, rounds int) *tournament.State {
	set := tournament.Settings{PlacementPoints: []int{20, 12, 8, 5}, Tiebreaks: []string{"game_points", "games_won", "best_game", "lot"}}
	st := &tournament.State{Tournament: tournament.Tournament{Format: tournament.FormatSwiss, Settings: set}}
	ids := make([]string, n)
	for i := range ids {
		ids[i] = "p" + strconv.Itoa(i+1)
		st.Players = append(st.Players, tournament.Player{ID: ids[i], Name: "Player " + ids[i], Status: tournament.PlayerActive, Seq: i + 1})
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for r := 1; r <= rounds; r++ {
		rng.Shuffle(n, func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		round := tournament.Round{Number: r, Status: tournament.RoundClosed}
		for t := 0; t < n/4; t++ {
			table := tournament.Table{Number: t + 1, Players: append([]string(nil), ids[4*t:4*t+4]...)}
			round.Tables = append(round.Tables, table)
			for g := 1; g <= 3; g++ {
				res := tournament.GameResult{ID: int64(len(st.Results) + 1), Key: tournament.GameKey{Round: r, Table: t + 1, Game: g}}
				for place, p := range rng.Perm(4) {
					res.Places = append(res.Places, tournament.GamePlace{Player: table.Players[p], Place: place + 1,
						Score: 52 - place*10 + rng.IntN(5), Points: set.PlacementPoints[place]})
				}
				st.Results = append(st.Results, res)
			}
		}
		st.Rounds = append(st.Rounds, round)
	}
	return st
}

// BenchmarkStandings10000x10 computes the standings of 10,000 players over
// 10 rounds (75,000 games) from the results.
func BenchmarkStandings10000x10(b *testing.B) {
	st := bigState(10000, 10)
	cpu0 := cpuTime()
	for b.Loop() {
		rows := tournament.Standings(st)
		if len(rows) != 10000 || rows[0].GamesPlayed != 30 {
			b.Fatalf("Standings = %d rows, first %+v", len(rows), rows[0])
		}
	}
	// CPU time per computation: on a shared machine wall time also counts
	// the waits for a core.
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// cpuTime is the CPU time the process has used (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkStandingsGrid computes the standings of 100, 400 and 1,000
// players after 1, 3 and 6 rounds (3 games a round) from the results: the
// cost grows with the results, so the pages compute them once per
// snapshot and share them (web/site/cache.go, derived), and a page's render
// costs the same after 6 rounds as after 1.
func BenchmarkStandingsGrid(b *testing.B) {
	for _, n := range []int{100, 400, 1000} {
		for _, rounds := range []int{1, 3, 6} {
			b.Run("players="+strconv.Itoa(n)+"/rounds="+strconv.Itoa(rounds), func(b *testing.B) {
				st := bigState(n, rounds)
				cpu0 := cpuTime()
				for b.Loop() {
					if rows := tournament.Standings(st); len(rows) != n {
						b.Fatalf("Standings = %d rows, want %d", len(rows), n)
					}
				}
				b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// BenchmarkStandingsIncremental is BenchmarkStandingsGrid as the pages
// compute the standings (web/site/cache.go): the last round open, the totals of
// the closed rounds kept from the snapshot before (tournament.Tally), and
// a result of the open round arrived since.
func BenchmarkStandingsIncremental(b *testing.B) {
	for _, n := range []int{100, 400, 1000} {
		for _, rounds := range []int{1, 3, 6} {
			b.Run("players="+strconv.Itoa(n)+"/rounds="+strconv.Itoa(rounds), func(b *testing.B) {
				st := bigState(n, rounds)
				st.Rounds[rounds-1].Status = tournament.RoundOpen
				before := *st
				before.Results = st.Results[:len(st.Results)-1]
				_, tally := tournament.StandingsWith(nil, &before)
				cpu0 := cpuTime()
				for b.Loop() {
					if rows, _ := tournament.StandingsWith(tally, st); len(rows) != n {
						b.Fatalf("StandingsWith = %d rows, want %d", len(rows), n)
					}
				}
				b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
