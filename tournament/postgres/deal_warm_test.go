package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/postgres"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// entryReads is the store, counting the reads of a game's entry before a
// deal and the deals stored. Every read of an entry in these tests comes
// before a deal stored, or a refusal that stores nothing, so the deals
// stored beyond the reads are the ones stored from a warm entry
// (warmDeals).
type entryReads struct {
	*postgres.Store
	entries, appends atomic.Int64
}

func (d *entryReads) DealEntry(ctx context.Context, k tournament.GameKey) (*tournament.DealEntry, error) {
	d.entries.Add(1)
	return d.Store.DealEntry(ctx, k)
}

func (d *entryReads) AppendDeal(ctx context.Context, w *tournament.DealWrite) (bool, error) {
	ok, err := d.Store.AppendDeal(ctx, w)
	if ok {
		d.appends.Add(1)
	}
	return ok, err
}

// warmDeals is the number of deals stored beyond the entries read.
func (d *entryReads) warmDeals() int64 { return d.appends.Load() - d.entries.Load() }

// TestWarmDeals enters simulated games deal by deal through two services
// on one database, as two processes behind one address, and holds the
// warm games to their promise: a service that entered a game's deal
// enters the next one without reading the game's entry again (one
// statement), every answer is the one the engine gives that deal in the
// game so far checked whole, and when the other service entered a deal in
// between (its entry is stale) nothing is entered twice or out of order.
// Time called between two deals changes what the next deal is checked
// with: it is then entered the usual way and ends the game.
func TestWarmDeals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Warm", Format: tournament.FormatSwiss, Rounds: intp(1), GamesPerRound: intp(3)}, 8)
	tid := c.Tournament.ID
	r := e.mustDraw(t, tid, 1)
	one, two := &entryReads{Store: e.store}, &entryReads{Store: e.store}
	svcs := []*play.Service{play.New(tournament.NewService(one), one), play.New(tournament.NewService(two), two)}

	for g := 1; g <= 2; g++ {
		tb := r.Tables[g%2]
		var rec engine.GameRecord
		if err := json.Unmarshal(tournamenttest.SimGame(uint64(10+g), tb.Players, tb.FirstDealerOf(g), 0.5), &rec); err != nil {
			t.Fatal(err)
		}
		k := tournament.GameKey{TournamentID: tid, Round: 1, Table: tb.Number, Game: g}
		a := tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: tb.Number}
		entries, warm := one.entries.Load(), one.warmDeals()
		for i := range rec.Deals {
			d, err := json.Marshal(rec.Deals[i])
			if err != nil {
				t.Fatal(err)
			}
			svc := svcs[0]
			if g == 2 && i%3 == 2 {
				svc = svcs[1] // every third deal of game 2 from the other process
			}
			p, err := svc.AppendDealAt(e.ctx, a, k, 0, d)
			if err != nil {
				t.Fatalf("game %d deal %d: %v", g, i+1, err)
			}
			checkDealAnswer(t, g, rec, i, p)
		}
		last := len(rec.Deals) - 1 // the last deal is checked with the whole game
		if g == 1 {
			if got := one.entries.Load() - entries; got != 2 {
				t.Errorf("game 1 of %d deals read its entry %d times, want twice (the first deal and the last)", len(rec.Deals), got)
			}
			if got := one.warmDeals() - warm; got != int64(last-1) {
				t.Errorf("game 1 of %d deals: %d deals stored from the warm entry, want %d", len(rec.Deals), got, last-1)
			}
		}
		var stored int
		if err := e.pool.QueryRow(e.ctx, `SELECT count(*) FROM game_deals WHERE tournament_id = $1 AND round = 1 AND table_no = $2 AND game = $3`,
			tid, tb.Number, g).Scan(&stored); err != nil || stored != len(rec.Deals) {
			t.Fatalf("game %d: %d deals stored (%v), want %d", g, stored, err, len(rec.Deals))
		}
	}

	// Time called after deal 2 of game 3: the next deal, from the warm
	// entry's service, ends the game by time.
	tb := r.Tables[1]
	k := tournament.GameKey{TournamentID: tid, Round: 1, Table: tb.Number, Game: 3}
	a := tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: tb.Number}
	p := tb.Players
	for n, who := range []string{p[0], p[1]} {
		if _, err := svcs[0].AppendDealAt(e.ctx, a, k, n+1, sheet(who, 2, 0)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svcs[1].SetRoundClock(e.ctx, org, tid, 1, play.ClockAction{Action: tournament.ClockCallTime}); err != nil {
		t.Fatal(err)
	}
	warm := one.warmDeals()
	got, err := svcs[0].AppendDealAt(e.ctx, a, k, 3, sheet(p[2], 2, 0))
	if err != nil {
		t.Fatal(err)
	}
	if got.Final == nil || !got.EndedByTime || one.warmDeals() != warm {
		t.Errorf("the deal after time was called = final %v ended by time %v (stored warm: %v); want the game ended by time",
			got.Final != nil, got.EndedByTime, one.warmDeals() != warm)
	}
}

// TestWarmEntryOutlivesARefusal: a deal the engine refuses does not cost
// the game its warm entry; the refusal is worded from the store's entry,
// and the next deal is stored from the warm entry in one statement.
func TestWarmEntryOutlivesARefusal(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Warm refusal", Format: tournament.FormatSwiss, Rounds: intp(1), GamesPerRound: intp(1)}, 4)
	tid := c.Tournament.ID
	tb := e.mustDraw(t, tid, 1).Tables[0]
	st := &entryReads{Store: e.store}
	svc := play.New(tournament.NewService(st), st)
	k := tournament.GameKey{TournamentID: tid, Round: 1, Table: tb.Number, Game: 1}
	a := tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: tb.Number}
	p := tb.Players
	for n := 1; n <= 2; n++ {
		if _, err := svc.AppendDealAt(e.ctx, a, k, n, sheet(p[n], 2, 0)); err != nil {
			t.Fatalf("deal %d: %v", n, err)
		}
	}
	twoLastTricks := []byte(fmt.Sprintf(`{"sheet":{%q:{"last_trick":5},%q:{"last_trick":5}}}`, p[0], p[1]))
	if _, err := svc.AppendDealAt(e.ctx, a, k, 3, twoLastTricks); tournament.ErrorKind(err) != tournament.KindRejected {
		t.Fatalf("two last tricks = %v, want the engine's refusal", err)
	}
	entries, warm := st.entries.Load(), st.warmDeals()
	if _, err := svc.AppendDealAt(e.ctx, a, k, 3, sheet(p[3], 2, 0)); err != nil {
		t.Fatal(err)
	}
	if got := st.entries.Load() - entries; got != 0 {
		t.Errorf("the deal after the refusal read the game's entry %d times, want 0 (the warm entry kept)", got)
	}
	if got := st.warmDeals() - warm; got != 1 {
		t.Errorf("the deal after the refusal: %d stored from the warm entry, want 1", got)
	}
}
