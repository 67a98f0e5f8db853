package postgres_test

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/postgres"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// TestCommandCommitsWithItsKey: a command sent with a client's key
// (Idempotency.Atomically, as the console's forms run them) commits in one
// transaction with the key's claim and its answer. A server that dies
// after the command's write and before the answer is stored keeps
// neither, so the retry registers the player once (with the claim, the
// command and the answer as three steps, the player stayed registered
// and the retry, once the claim lapsed, registered a second); the key
// sent again is answered without running the command; the key with
// another command is refused; two sends at once run it once, the second
// waiting for the first's answer; an answer not kept (a failure of the
// server) frees the key and keeps the command's writes.
func TestCommandCommitsWithItsKey(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	keys := postgres.NewIdempotency(e.pool, time.Hour, time.Minute)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Nycklar", Format: tournament.FormatSwiss, Rounds: intp(1), GamesPerRound: intp(1)}, 4)
	tid := c.Tournament.ID
	players := func() int { return e.rows(t, "players", tid) }
	keyed := e.keyAnswer
	var (
		mu   sync.Mutex
		runs int
	)
	register := func(name string, after func()) func(context.Context) ([]byte, bool) {
		return func(ctx context.Context) ([]byte, bool) {
			mu.Lock()
			runs++
			mu.Unlock()
			if _, err := e.svc.AddPlayers(ctx, org, tid, []tournament.NewPlayer{{Name: name, Club: "Club"}}); err != nil {
				t.Errorf("AddPlayers %s: %v", name, err)
			}
			if after != nil {
				after()
			}
			return []byte("registered " + name), true
		}
	}
	fp := []byte("fingerprint")
	base := players()

	dying, die := context.WithCancel(e.ctx)
	_, _, err := keys.Atomically(dying, "s", "k1", fp, register("Anna", die))
	if there, _ := keyed("k1"); err == nil || players() != base || there {
		t.Fatalf("the server dead before the answer was stored: err %v, %d players (%d before), key claimed %v; want the error and nothing kept",
			err, players(), base, there)
	}

	stored, claimErr, err := keys.Atomically(e.ctx, "s", "k1", fp, register("Anna", nil))
	if there, response := keyed("k1"); stored != nil || claimErr != nil || err != nil || players() != base+1 || !there || string(response) != "registered Anna" {
		t.Fatalf("the retry: stored %q claim %v err %v, %d players, key's answer %q; want Anna registered once, answered under the key",
			stored, claimErr, err, players(), response)
	}

	runs = 0
	stored, claimErr, err = keys.Atomically(e.ctx, "s", "k1", fp, register("Anna", nil))
	if string(stored) != "registered Anna" || claimErr != nil || err != nil || runs != 0 || players() != base+1 {
		t.Errorf("sent again: stored %q claim %v err %v, %d runs, %d players; want the first answer, the command not run", stored, claimErr, err, runs, players())
	}
	stored, claimErr, err = keys.Atomically(e.ctx, "s", "k1", []byte("other"), register("Bo", nil))
	if stored != nil || tournament.ErrorCode(claimErr) != tournament.CodeIdempotencyKeyReused || err != nil || runs != 0 || players() != base+1 {
		t.Errorf("the key with another command: stored %q claim %v err %v, %d runs; want the key refused", stored, claimErr, err, runs)
	}

	t.Run("two sends at once", func(t *testing.T) {
		runs = 0
		var wg sync.WaitGroup
		answers := make([][]byte, 2)
		for i := range answers {
			wg.Go(func() {
				stored, claimErr, err := keys.Atomically(e.ctx, "s", "k2", fp, register("Cia", func() { time.Sleep(300 * time.Millisecond) }))
				if claimErr != nil || err != nil {
					t.Errorf("send %d: claim %v err %v", i, claimErr, err)
				}
				answers[i] = stored
			})
		}
		wg.Wait()
		if runs != 1 || players() != base+2 || (answers[0] == nil) == (answers[1] == nil) {
			t.Errorf("%d runs, %d players, stored answers %q; want one run, one player, the other send answered from the key", runs, players()-base-1, answers)
		}
	})

	t.Run("an answer not kept", func(t *testing.T) {
		before := players()
		_, _, err := keys.Atomically(e.ctx, "s", "k3", fp, func(ctx context.Context) ([]byte, bool) {
			register("Dan", nil)(ctx)
			return []byte("failed"), false
		})
		if there, _ := keyed("k3"); err != nil || there || players() != before+1 {
			t.Errorf("err %v, key kept %v, %d players (%d before); want the key freed and the command's write kept", err, there, players(), before)
		}
	})

	t.Run("a game's result joins the transaction", func(t *testing.T) {
		c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Resultat", Format: tournament.FormatSwiss, Rounds: intp(1), GamesPerRound: intp(1)}, 4)
		tid := c.Tournament.ID
		tb := e.mustDraw(t, tid, 1).Tables[0]
		k := tournament.GameKey{TournamentID: tid, Round: 1, Table: 1, Game: 1}
		submit := func(after func()) func(context.Context) ([]byte, bool) {
			return func(ctx context.Context) ([]byte, bool) {
				if _, err := e.plays.SubmitGame(ctx, org, k, tournamenttest.SimGame(3, tb.Players, tb.FirstDealerOf(1), 0)); err != nil {
					t.Errorf("SubmitGame: %v", err)
				}
				if after != nil {
					after()
				}
				return []byte("submitted"), true
			}
		}
		dying, die := context.WithCancel(e.ctx)
		if _, _, err := keys.Atomically(dying, "s", "k4", fp, submit(die)); err == nil || e.rows(t, "game_results", tid) != 0 {
			t.Fatalf("the server dead before the answer: err %v, %d results; want the error and none", err, e.rows(t, "game_results", tid))
		}
		if _, _, err := keys.Atomically(e.ctx, "s", "k4", fp, submit(nil)); err != nil || e.rows(t, "game_results", tid) != 1 {
			t.Errorf("the retry: err %v, %d results; want one", err, e.rows(t, "game_results", tid))
		}
		_, _, err := keys.Atomically(e.ctx, "s", "k5", fp, func(ctx context.Context) ([]byte, bool) {
			_, _, err := e.store.ConfirmGame(ctx, k, tournament.Confirmation{Player: tb.Players[0], ConfirmedBy: "table:1/1", At: time.Now()},
				func(*tournament.TableGame) (*tournament.Confirmed, error) { return nil, nil })
			if tournament.ErrorKind(err) != tournament.KindInternal {
				t.Errorf("a confirmation in a command's transaction: %v; want it refused (its batches commit on their own)", err)
			}
			return nil, false
		})
		if err != nil {
			t.Error(err)
		}
	})

	t.Run("a read after the command's write sees it", func(t *testing.T) {
		_, _, err := keys.Atomically(e.ctx, "s", "k6", fp, func(ctx context.Context) ([]byte, bool) {
			register("Eva", nil)(ctx)
			st, err := e.store.State(ctx, tid)
			if err != nil || !slices.ContainsFunc(st.Players, func(p tournament.Player) bool { return p.Name == "Eva" }) {
				t.Errorf("the tournament read after registering Eva, in the command: err %v; want Eva among its players", err)
			}
			return []byte("read"), true
		})
		if err != nil {
			t.Error(err)
		}
	})

	t.Run("a statement whose failure is its answer", func(t *testing.T) {
		c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Giv", Format: tournament.FormatSwiss, Rounds: intp(1), GamesPerRound: intp(1)}, 4)
		e.mustDraw(t, c.Tournament.ID, 1)
		k := tournament.GameKey{TournamentID: c.Tournament.ID, Round: 1, Table: 1, Game: 1}
		entry, err := e.store.DealEntry(e.ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		w := &tournament.DealWrite{Game: k, Seq: 0, Deal: json.RawMessage(`{"deal":1}`), State: json.RawMessage(`{"deals":1}`),
			Version: entry.Version, Corrected: entry.Corrected, At: time.Now()}
		_, _, err = keys.Atomically(e.ctx, "s", "k7", fp, func(ctx context.Context) ([]byte, bool) {
			for try, want := range []bool{true, false} {
				if ok, err := e.store.AppendDeal(ctx, w); ok != want || err != nil {
					t.Errorf("deal 1, try %d, in the command = %v, %v; want %v (the number taken the second time)", try+1, ok, err, want)
				}
			}
			return []byte("dealt"), true
		})
		if there, answer := e.keyAnswer("k7"); err != nil || !there || string(answer) != "dealt" || e.rows(t, "game_deals", k.TournamentID) != 1 {
			t.Errorf("the command = %v, its answer %q, %d deals; want it committed with one deal", err, answer, e.rows(t, "game_deals", k.TournamentID))
		}
	})
}
