package tournament_test

import (
	"testing"
	"time"

	"github.com/revisor-sm/revisor/tournament"
)

// TestBrokerNeverDropsTheLatestChange (issue 28): a subscriber that falls
// behind a hall's deals loses deals, never a result: the result arrives,
// or a resync at its instant or later does.
func TestBrokerNeverDropsTheLatestChange(t *testing.T) {
	t0 := time.Date(2026, 12, 4, 2, 0, 0, 0, time.UTC)
	now := t0
	b := tournament.NewBrokerAt(func() time.Time { return now })
	ch, stop := b.Subscribe("t1")
	defer stop()
	for i := range 40 {
		now = t0.Add(time.Duration(i) * time.Millisecond)
		b.Publish(tournament.Event{Tournament: "t1", Kind: "game_deals", Table: i%10 + 1})
	}
	now = t0.Add(time.Second)
	b.Publish(tournament.Event{Tournament: "t1", Kind: "game_results", Table: 3})
	resultAt := now
	now = now.Add(time.Millisecond)
	b.Publish(tournament.Event{Tournament: "t1", Kind: "game_deals", Table: 4}) // dropped: the buffer is full
	var got []tournament.Event
	for len(ch) > 0 {
		got = append(got, <-ch)
	}
	covered := false
	for _, e := range got {
		if (e.Kind == "game_results" || e.Kind == tournament.KindResync) && !e.At.Before(resultAt) {
			covered = true
		}
	}
	if !covered {
		t.Errorf("a subscriber behind 40 deals received %d events, none the result at %v nor a resync after it: %+v", len(got), resultAt, got)
	}
	// A subscriber that keeps up receives every event as it was.
	b.Publish(tournament.Event{Tournament: "t1", Kind: "game_results", Table: 5})
	if e := <-ch; e.Kind != "game_results" || e.Table != 5 {
		t.Errorf("the next event = %+v, want the result of table 5", e)
	}
}
