package postgres_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/internal/tokens"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// TestDrawEndsOldCodesInEveryProcess: a process that verified a round-1
// code (and cached the round's codes) refuses it as soon as another
// process has drawn round 2: it hears the draw (issue 25, point 4: whoami,
// a confirmation and a dispute went on with the old code there).
func TestDrawEndsOldCodesInEveryProcess(t *testing.T) {
	e := newEnv(t)
	other := tournament.NewService(e.store) // the process that verified the code
	heard := make(chan tournament.Event, 100)
	dbtest.Listen(t, e.pool, func(ev tournament.Event) { other.Heard(ev); heard <- ev })

	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Koder", Format: tournament.FormatSwiss, Rounds: intp(2)}, 4)
	tid := c.Tournament.ID
	r1 := e.mustDraw(t, tid, 1)
	nextEvent(t, heard, "rounds") // the draw of round 1, heard before its code is verified
	sec, err := e.store.Secrets(e.ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	code := tokens.TableCode(sec.CodeKey, 1, 1)
	if id, err := other.Identify(e.ctx, tid, code, tournament.Where{}); err != nil || id.Round != 1 {
		t.Fatalf("round 1's code in round 1: %+v, %v", id, err)
	}
	if _, ok := other.IdentifyCached(tid, code); !ok {
		t.Fatal("round 1's code is not cached after its lookup")
	}
	rng := rand.New(rand.NewPCG(1, 1))
	tt, _ := e.svc.Tournament(e.ctx, tid)
	for _, tb := range r1.Tables {
		for g := 1; g <= tt.Settings.GamesPerRound; g++ {
			e.mustSubmit(t, tournament.GameKey{TournamentID: tid, Round: 1, Table: tb.Number, Game: g},
				tournamenttest.SheetGame(rng, tb.Players, tb.FirstDealerOf(g)))
		}
	}
	if _, err := e.plays.CloseRound(e.ctx, org, tid, 1); err != nil {
		t.Fatal(err)
	}
	e.mustDraw(t, tid, 2)
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, cached := other.IdentifyCached(tid, code)
		_, err := other.Identify(e.ctx, tid, code, tournament.Where{})
		if !cached && tournament.ErrorKind(err) == tournament.KindUnauthorized {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("5 s after round 2 was drawn elsewhere, round 1's code: cached %v, Identify error %v; want refused", cached, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if id, err := other.Identify(e.ctx, tid, tokens.TableCode(sec.CodeKey, 2, 1), tournament.Where{}); err != nil || id.Round != 2 {
		t.Errorf("round 2's code: %+v, %v; want table 1 of round 2", id, err)
	}
}
