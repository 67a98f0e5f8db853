package play_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// racedStore is the in-memory store where, after the first read of a
// game's entry, another process enters a deal of the game (between the
// read and the write, a race the service loses).
type racedStore struct {
	*tournamenttest.MemStore
	other   func()
	entries int
}

func (s *racedStore) DealEntry(ctx context.Context, k tournament.GameKey) (*tournament.DealEntry, error) {
	e, err := s.MemStore.DealEntry(ctx, k)
	if s.entries++; s.entries == 1 && s.other != nil {
		s.other()
	}
	return e, err
}

// sheetLine is a score-sheet line: player p takes both hands' points and
// the last trick.
func sheetLine(p string, h1, h2 int) []byte {
	return []byte(fmt.Sprintf(`{"sheet":{%q:{"hand1":%d,"hand2":%d,"last_trick":5}}}`, p, h1, h2))
}

// TestDealDecidedAgainAfterALostRace: a deal decided with an entry that
// another process changed before the write is not written under it; the
// service loads the entry again and decides again. Sent with its number,
// the same deal entered by the other process is answered as a repeat;
// without a number, another deal becomes the next one. Each deal is
// stored once.
func TestDealDecidedAgainAfterALostRace(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 4, 1)
	tb := f.round.Tables[0]
	k := f.key(tb.Number, 1)
	a := tournament.Actor{Role: tournament.RoleTable, Round: f.round.Number, Table: tb.Number}
	other := play.New(tournamenttest.NewService(f.store), f.store)
	for _, tt := range []struct {
		name       string
		n          int
		mine, them []byte
		wantDeal   int
		wantRepeat bool
	}{
		{"the same deal, numbered", 1, sheetLine(tb.Players[0], 2, 0), sheetLine(tb.Players[0], 2, 0), 1, true},
		{"another deal, unnumbered", 0, sheetLine(tb.Players[1], 2, 0), sheetLine(tb.Players[2], 2, 0), 3, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st := &racedStore{MemStore: f.store}
			st.other = func() {
				if _, err := other.AppendDealAt(f.ctx, a, k, tt.n, tt.them); err != nil {
					t.Fatalf("the other process's deal: %v", err)
				}
			}
			svc := play.New(tournament.NewService(st), st, play.WithWarmGames(false))
			p, err := svc.AppendDealAt(f.ctx, a, k, tt.n, tt.mine)
			if err != nil || p.Deal != tt.wantDeal || p.Repeat != tt.wantRepeat {
				t.Fatalf("AppendDealAt = %+v, %v; want deal %d, repeat %v", p, err, tt.wantDeal, tt.wantRepeat)
			}
			if st.entries != 2 {
				t.Errorf("the entry was read %d times, want twice (once more after the lost race)", st.entries)
			}
		})
	}
	deals, _, err := f.store.Deals(f.ctx, k)
	if err != nil || len(deals) != 3 {
		t.Errorf("Deals = %d, %v; want 3, each stored once", len(deals), err)
	}
}
