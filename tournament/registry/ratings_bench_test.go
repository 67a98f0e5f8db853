package registry_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/registry"
)

// historyStore serves a history of stored games to the register: games
// of four among people, a version that stands.
type historyStore struct {
	registry.Store
	games  []registry.PlayedGame
	people map[string]registry.Person
}

func newHistoryStore(games, people int) *historyStore {
	s := &historyStore{people: map[string]registry.Person{}}
	for i := range people {
		id := fmt.Sprintf("p%04d", i)
		s.people[id] = registry.Person{ID: id, Name: "Person " + id}
	}
	t0 := time.Date(2026, 1, 1, 19, 0, 0, 0, time.UTC)
	for g := range games {
		places := make([]registry.PersonPlace, 4)
		for i := range places {
			places[i] = registry.PersonPlace{Person: fmt.Sprintf("p%04d", (g*7+i*13)%people), Place: (g+i)%4 + 1}
		}
		s.games = append(s.games, registry.PlayedGame{Tournament: fmt.Sprintf("t%d", g/300), Round: 1, Table: g % 20,
			Game: g%3 + 1, PlayedAt: t0.Add(time.Duration(g) * time.Minute), Places: places})
	}
	return s
}

func (s *historyStore) PlayedGames(context.Context) ([]registry.PlayedGame, error) {
	return s.games, nil
}
func (s *historyStore) RatingsVersion(context.Context) (int64, error) { return 1, nil }
func (s *historyStore) PeopleByID(_ context.Context, ids []string) (map[string]registry.Person, error) {
	out := make(map[string]registry.Person, len(ids))
	for _, id := range ids {
		out[id] = s.people[id]
	}
	return out, nil
}

// BenchmarkRatings reads the rating list of 200 people with 2,000 and with
// 20,000 stored games: a read costs the same whatever the history (issue
// 25: 0.7 s with 2,000 games before). It reports the median read (p50-ns);
// docs/performance.md, "Ratings", has the figures.
func BenchmarkRatings(b *testing.B) {
	for _, games := range []int{2000, 20000} {
		b.Run(fmt.Sprintf("games=%d", games), func(b *testing.B) {
			reg := registry.New(newHistoryStore(games, 200), nil, nil)
			ctx := context.Background()
			if _, err := reg.Ratings(ctx); err != nil { // the first read replays
				b.Fatal(err)
			}
			times := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for b.Loop() {
				start := time.Now()
				list, err := reg.Ratings(ctx)
				if err != nil || len(list) != 200 {
					b.Fatalf("Ratings = %d people, %v", len(list), err)
				}
				times = append(times, time.Since(start))
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "p50-ns")
		})
	}
}

// BenchmarkRatingsReplay is the price of the one replay after a change:
// every stored game, for comparison.
func BenchmarkRatingsReplay(b *testing.B) {
	for _, games := range []int{2000, 20000} {
		b.Run(fmt.Sprintf("games=%d", games), func(b *testing.B) {
			st := &replayStore{newHistoryStore(games, 200), 0}
			reg := registry.New(st, nil, nil)
			for b.Loop() {
				st.version++
				if _, err := reg.Ratings(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// replayStore's version moves at every read.
type replayStore struct {
	*historyStore
	version int64
}

func (s *replayStore) RatingsVersion(context.Context) (int64, error) { return s.version, nil }

// slowStore's replay waits until released.
type slowStore struct {
	*historyStore
	release chan struct{}
}

func (s *slowStore) PlayedGames(ctx context.Context) ([]registry.PlayedGame, error) {
	<-s.release
	return s.historyStore.PlayedGames(ctx)
}

// TestRatingsReadersDoNotQueue: while one replay runs, another reader
// waits a bounded time and is told 503 busy rather than holding on (issue
// 25: 20 rating reads at once made /readyz answer 503 and a table's write
// take 6.9 s).
func TestRatingsReadersDoNotQueue(t *testing.T) {
	st := &slowStore{newHistoryStore(10, 8), make(chan struct{})}
	reg := registry.New(st, nil, nil)
	first := make(chan error, 1)
	go func() { _, err := reg.Ratings(context.Background()); first <- err }()
	time.Sleep(50 * time.Millisecond)
	start := time.Now()
	_, err := reg.Ratings(context.Background())
	if tournament.ErrorCode(err) != tournament.CodeBusy || time.Since(start) > 10*time.Second {
		t.Errorf("a second reader during a replay: %v after %v, want busy within seconds", err, time.Since(start))
	}
	close(st.release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Ratings(context.Background()); err != nil {
		t.Errorf("after the replay: %v", err)
	}
}

// TestRatingsHeardChange: a change heard after its commit ends the list
// kept, though the store's version did not move again.
func TestRatingsHeardChange(t *testing.T) {
	st := &replayCounter{historyStore: newHistoryStore(10, 8)}
	reg := registry.New(st, nil, nil)
	for range 3 {
		if _, err := reg.Ratings(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	reg.Heard(tournament.Event{Tournament: "t1", Kind: "game_results"})
	if _, err := reg.Ratings(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st.replays != 2 {
		t.Errorf("3 reads, a change heard, a read: %d replays, want 2", st.replays)
	}
}

// replayCounter counts the replays.
type replayCounter struct {
	*historyStore
	replays int
}

func (s *replayCounter) PlayedGames(ctx context.Context) ([]registry.PlayedGame, error) {
	s.replays++
	return s.historyStore.PlayedGames(ctx)
}
