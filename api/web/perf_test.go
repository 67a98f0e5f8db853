package web_test

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/tournament"
)

// perfPlayers is the size of the tournament the pages are measured on.
const perfPlayers = 200

// perfPages lists every page of a tournament, public and the organizer's.
func perfPages(f *fixture) []string {
	base := "/t/" + f.ID
	p := f.Round.Tables[len(f.Round.Tables)/2].Players[0]
	return []string{
		base, base + "/standings", base + "/standings.csv", base + "/seating", base + "/seating?q=greta",
		base + "/players/" + p, base + "/screen", base + "/screen?view=seating&page=3",
		base + "/rounds/1/sheets", base + "/rounds/1/sheets?table=7&game=2",
		base + "/console", base + "/console/players", base + "/console/rounds/1/cards", base + "/console/rounds/1/tables/3/games/2",
		base + "/console/export.json",
	}
}

// TestPagesAnswerFast measures every page of a 200-player tournament with
// a played round over real HTTP and real PostgreSQL, and fails when the
// 99th percentile of a page reaches 50 ms.
func TestPagesAnswerFast(t *testing.T) {
	if testing.Short() || raceDetector {
		t.Skip("measures latency: not in -short, nor under -race (which slows code several times over)")
	}
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, perfPlayers, true)
	s.playAll(t, f, f.Round, 11)
	b := s.browser(t)
	b.login(f.Token)
	const n = 200
	for _, page := range perfPages(f) {
		b.mustGet(page, http.StatusOK) // warm up
		times := make([]time.Duration, n)
		for i := range times {
			start := time.Now()
			b.mustGet(page, http.StatusOK)
			times[i] = time.Since(start)
		}
		slices.Sort(times)
		p50, p99 := times[n/2], times[n*99/100-1]
		t.Logf("%-52s p50 %6.2f ms  p99 %6.2f ms", page[len("/t/")+len(f.ID):], ms(p50), ms(p99))
		if p99 >= 50*time.Millisecond {
			t.Errorf("GET %s: p99 = %v over %d requests, want under 50ms", page, p99, n)
		}
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// BenchmarkPages measures each page of a 200-player tournament, as
// served (snapshots and public pages cached until the tournament changes).
func BenchmarkPages(b *testing.B) { benchmarkPages(b, true) }

// BenchmarkPagesUncached measures the same pages on a server without live
// events, which reads and renders every page afresh.
func BenchmarkPagesUncached(b *testing.B) { benchmarkPages(b, false) }

func benchmarkPages(b *testing.B, live bool) {
	s := startSiteWith(b, dbtest.New(b), live)
	f := s.mustTournament(b, tournament.FormatSM, perfPlayers, true)
	s.playAll(b, f, f.Round, 11)
	br := s.browser(b)
	br.login(f.Token)
	for _, page := range perfPages(f) {
		b.Run(page[len("/t/")+len(f.ID):], func(b *testing.B) {
			for b.Loop() {
				br.mustGet(page, http.StatusOK)
			}
		})
	}
}
