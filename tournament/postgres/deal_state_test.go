package postgres_test

import (
	"context"
	"encoding/json"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/postgres"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// dealReads is the store, counting the reads of a game's earlier deals.
type dealReads struct {
	*postgres.Store
	reads atomic.Int64
}

func (d *dealReads) Deals(ctx context.Context, k tournament.GameKey) ([]json.RawMessage, bool, error) {
	d.reads.Add(1)
	return d.Store.Deals(ctx, k)
}

func (d *dealReads) TableGame(ctx context.Context, k tournament.GameKey) (*tournament.TableGame, error) {
	d.reads.Add(1)
	return d.Store.TableGame(ctx, k)
}

// TestDealFromRunningState enters simulated games deal by deal (score-sheet
// lines and full deals) and holds two things: a deal that does not end its
// game is checked against the running state kept with the deal before it,
// never by reading the game's earlier deals again (only the last deal,
// which makes the game's record and result, reads them); and every answer
// is the one the engine gives that deal in the game so far, checked whole.
// After a correction, the next deal is checked against the corrected game.
func TestDealFromRunningState(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "State", Format: tournament.FormatSwiss, Rounds: intp(1), GamesPerRound: intp(3)}, 8)
	tid := c.Tournament.ID
	r := e.mustDraw(t, tid, 1)
	store := &dealReads{Store: e.store}
	svc := play.New(tournament.NewService(store), store)
	for g := 1; g <= 3; g++ {
		tb := r.Tables[g%2]
		var rec engine.GameRecord
		if err := json.Unmarshal(tournamenttest.SimGame(uint64(g), tb.Players, tb.FirstDealerOf(g), 0.5), &rec); err != nil {
			t.Fatal(err)
		}
		k := tournament.GameKey{TournamentID: tid, Round: 1, Table: tb.Number, Game: g}
		a := tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: tb.Number}
		before := store.reads.Load()
		for i := range rec.Deals {
			d, err := json.Marshal(rec.Deals[i])
			if err != nil {
				t.Fatal(err)
			}
			n := i + 1
			if g == 2 {
				n = 0 // unnumbered: the next deal
			}
			p, err := svc.AppendDealAt(e.ctx, a, k, n, d)
			if err != nil {
				t.Fatalf("game %d deal %d: %v", g, i+1, err)
			}
			checkDealAnswer(t, g, rec, i, p)
			if reads := store.reads.Load() - before; i < len(rec.Deals)-1 && reads != 0 {
				t.Fatalf("game %d deal %d of %d read the earlier deals %d time(s)", g, i+1, len(rec.Deals), reads)
			}
		}
		if reads := store.reads.Load() - before; reads != 1 {
			t.Errorf("game %d of %d deals read the earlier deals %d time(s), want once (for the last)", g, len(rec.Deals), reads)
		}
	}

	// A corrected deal: the state kept no longer follows the game, so the
	// next deal is checked against the whole game as corrected.
	tb := r.Tables[0]
	k := tournament.GameKey{TournamentID: tid, Round: 1, Table: tb.Number, Game: 1}
	p := tb.Players
	a := tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: tb.Number}
	for n, who := range []string{p[0], p[1]} {
		if _, err := svc.AppendDealAt(e.ctx, a, k, n+1, sheet(who, 2, 0)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.CorrectDeal(e.ctx, org, k, 1, sheet(p[2], 6, 6), "wrong player"); err != nil {
		t.Fatal(err)
	}
	got, err := svc.AppendDealAt(e.ctx, a, k, 3, sheet(p[3], 2, 0))
	if err != nil {
		t.Fatal(err)
	}
	rules := engine.SM()
	so := engine.GameRecord{Rules: &rules, Players: p, FirstDealer: tb.FirstDealerOf(1)}
	for _, d := range [][]byte{sheet(p[2], 6, 6), sheet(p[1], 2, 0), sheet(p[3], 2, 0)} {
		gd, err := engine.DecodeGameDeal(d)
		if err != nil {
			t.Fatal(err)
		}
		so.Deals = append(so.Deals, gd)
	}
	if want := engine.CheckGame(&so, engine.GameOptions{InProgress: true}); !reflect.DeepEqual(got.Game.Scores, want.Scores) {
		t.Errorf("after a correction the next deal answered scores %v, want %v (the corrected game's)", got.Game.Scores, want.Scores)
	}

	// The audit log keeps every deal entered, in the same transaction,
	// without the state (derived data, not what the table entered).
	var logged, withState int
	if err := e.pool.QueryRow(e.ctx, `SELECT count(*), count(*) FILTER (WHERE after ? 'state') FROM audit_log
		WHERE tournament_id = $1 AND subject = 'game_deals'`, tid).Scan(&logged, &withState); err != nil {
		t.Fatal(err)
	}
	var deals, stated int
	if err := e.pool.QueryRow(e.ctx, `SELECT count(*), count(state) FROM game_deals WHERE tournament_id = $1`, tid).Scan(&deals, &stated); err != nil {
		t.Fatal(err)
	}
	if logged != deals || withState != 0 || stated == 0 {
		t.Errorf("%d deals (%d with a state), %d audit entries of deals (%d with the state); want an entry per deal, none with the state",
			deals, stated, logged, withState)
	}
}

// checkDealAnswer fails t unless p, the answer to deal i (0-based) of
// game g, is what the engine gives that deal in rec's first i+1 deals
// checked whole.
func checkDealAnswer(t *testing.T, g int, rec engine.GameRecord, i int, p *tournament.DealProgress) {
	t.Helper()
	so := rec
	so.Deals = rec.Deals[:i+1]
	want := engine.CheckGame(&so, engine.GameOptions{InProgress: true})
	if p.Deal != i+1 || !reflect.DeepEqual(*p.Result, want.Deals[i]) || !reflect.DeepEqual(p.Game.Scores, want.Scores) ||
		(p.Final != nil) != want.GameOver {
		t.Fatalf("game %d deal %d: answered deal %d %+v scores %v final %v; the whole game gives %+v scores %v over %v",
			g, i+1, p.Deal, *p.Result, p.Game.Scores, p.Final != nil, want.Deals[i], want.Scores, want.GameOver)
	}
}
