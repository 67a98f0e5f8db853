package web_test

import (
	"math/rand/v2"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/internal/racecheck"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
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
	}
}

// perfDownloads are files rather than pages: measured and reported, but a
// whole tournament's JSON (about 1.5 MB here) is not held to a page's limit.
func perfDownloads(f *fixture) []string {
	return []string{"/t/" + f.ID + "/console/export.json"}
}

// TestPagesAnswerFast measures every page of a 200-player tournament with
// a played round over real HTTP and real PostgreSQL, and fails when the
// 99th percentile of a page reaches 50 ms.
func TestPagesAnswerFast(t *testing.T) {
	if testing.Short() || racecheck.Enabled {
		t.Skip("measures latency: not in -short, nor under -race (which slows code several times over)")
	}
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, perfPlayers, true)
	s.playAll(t, f, f.Round, 11)
	b := s.browser(t)
	b.login(f.Token)
	const n = 200
	pages := perfPages(f)
	for _, page := range append(pages, perfDownloads(f)...) {
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
		if p99 >= 50*time.Millisecond && slices.Contains(pages, page) {
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
	for _, page := range append(perfPages(f), perfDownloads(f)...) {
		b.Run(page[len("/t/")+len(f.ID):], func(b *testing.B) {
			for b.Loop() {
				br.mustGet(page, http.StatusOK)
			}
		})
	}
}

// TestPagesAnswerFastWhileResultsArrive measures the pages as a room sees
// them while results come in: every 33rd request follows a new result, so
// the 99th percentile includes pages read and rendered afresh.
func TestPagesAnswerFastWhileResultsArrive(t *testing.T) {
	if testing.Short() || racecheck.Enabled {
		t.Skip("measures latency: not in -short, nor under -race")
	}
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, perfPlayers, true)
	rng := rand.New(rand.NewPCG(12, 12))
	var pending []func() // the third game of every table, submitted during the measurement
	for _, tb := range f.Round.Tables {
		for g := 1; g <= 2; g++ {
			s.submit(t, f, 1, tb, g, tournamenttest.SheetGame(rng, tb.Players, tb.FirstDealerOf(g)))
		}
		rec := tournamenttest.SheetGame(rng, tb.Players, tb.FirstDealerOf(3))
		pending = append(pending, func() { s.submit(t, f, 1, tb, 3, rec) })
	}
	b := s.browser(t)
	b.login(f.Token)
	const n, every = 99, 33
	for _, page := range perfPages(f) {
		times := make([]time.Duration, 0, n)
		for i := range n {
			if i%every == 0 && len(pending) > 0 {
				pending[0]()
				pending = pending[1:]
				time.Sleep(30 * time.Millisecond) // the change's notification reaches the cache
			}
			start := time.Now()
			b.mustGet(page, http.StatusOK)
			times = append(times, time.Since(start))
		}
		slices.Sort(times)
		p50, p99 := times[n/2], times[n*99/100-1]
		t.Logf("%-52s p50 %6.2f ms  p99 %6.2f ms", page[len("/t/")+len(f.ID):], ms(p50), ms(p99))
		if p99 >= 50*time.Millisecond {
			t.Errorf("GET %s while results arrive: p99 = %v over %d requests, want under 50ms", page, p99, n)
		}
	}
}
