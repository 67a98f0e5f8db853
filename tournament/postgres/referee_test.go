package postgres_test

import (
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/referee"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// TestRulingIsAnnounced: a ruling that only adjusts points changes the
// standings without touching a result; the pages hear of it (migration
// 000021), and of the dispute.
func TestRulingIsAnnounced(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b := startListener(t, e)
	refs := referee.New(e.svc, e.plays, e.referees)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Live", Format: tournament.FormatSwiss, Rounds: intp(1), GamesPerRound: intp(1)}, 4)
	tid := c.Tournament.ID
	r := e.mustDraw(t, tid, 1)
	tb := r.Tables[0]
	k := tournament.GameKey{TournamentID: tid, Round: 1, Table: 1, Game: 1}
	e.mustSubmit(t, k, tournamenttest.SimGame(3, tb.Players, tb.FirstDealerOf(1), 0))
	ch, stop := b.Subscribe(tid)
	defer stop()
	d, err := refs.OpenDispute(e.ctx, org, tid, referee.NewDispute{Round: 1, Table: 1, Game: 1, Description: "late"})
	if err != nil {
		t.Fatal(err)
	}
	if ev := nextEvent(t, ch, "disputes"); ev.Round != 1 || ev.Table != 1 {
		t.Errorf("dispute event = %+v, want round 1 table 1", ev)
	}
	ref := tournament.Actor{Role: tournament.RoleReferee, TokenID: "referee:r1"}
	ch2, err := refs.Rule(e.ctx, ref, tid, d.ID, referee.NewRuling{Decision: referee.DecisionRejected, Reason: "slow play",
		Adjustments: []referee.NewAdjustment{{Player: tb.Players[0], Points: -2}}})
	if err != nil {
		t.Fatal(err)
	}
	nextEvent(t, ch, "adjustments")
	_, rows, err := e.svc.Standings(e.ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range rows {
		for _, s := range ch2.Standings {
			if s.Player.ID == row.Player.ID && s.PlacementPoints != row.PlacementPoints {
				t.Errorf("%s: the ruling answered %d placement points, the standings say %d", s.Player.ID, s.PlacementPoints, row.PlacementPoints)
			}
		}
	}
}

// TestCommitmentBeforeDraw: the database takes a commitment only for a
// round not drawn yet, and then draws that round only with its seed.
func TestCommitmentBeforeDraw(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	refs := referee.New(e.svc, e.plays, e.referees)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "C", Format: tournament.FormatSM}, 4)
	tid := c.Tournament.ID
	if _, err := refs.Commit(e.ctx, org, tid, 1, "00"); tournament.ErrorCode(err) != "invalid_sha256" {
		t.Errorf("Commit with a short hash = %v, want invalid_sha256", err)
	}
	h := referee.SeedHash(77)
	if _, err := refs.Commit(e.ctx, org, tid, 1, hex.EncodeToString(h)); err != nil {
		t.Fatal(err)
	}
	_, err := refs.Commit(e.ctx, org, tid, 1, hex.EncodeToString(h))
	wantCode(t, "a second commitment", err, "commitment_exists")
	seed := int64(78)
	_, err = e.plays.DrawRound(e.ctx, org, tid, &seed)
	wantCode(t, "a draw with another seed", err, "constraint_violation")
	_, err = refs.Reveal(e.ctx, org, tid, 1, 78)
	wantCode(t, "a reveal with another seed", err, "seed_mismatch")
	r, err := refs.Reveal(e.ctx, org, tid, 1, 77)
	if err != nil || r.Seed != 77 {
		t.Fatalf("Reveal(77) = %+v, %v; want round 1 with seed 77", r, err)
	}
	err = e.referees.Commit(e.ctx, &referee.Commitment{TournamentID: tid, Round: 1, SeedSHA256: h, By: "organizer", CreatedAt: t0})
	wantCode(t, "a commitment after the draw (store)", err, "round_drawn")
	err = e.referees.Commit(e.ctx, &referee.Commitment{TournamentID: tid, Round: 2, SeedSHA256: h[:31], By: "organizer", CreatedAt: t0})
	wantCode(t, "a short hash at the store", err, "constraint_violation")
}

// TestConcurrentRulings: two referees rule on one dispute at once; exactly
// one ruling is written, the other is told the dispute was ruled.
func TestConcurrentRulings(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	refs := referee.New(e.svc, e.plays, e.referees)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "R", Format: tournament.FormatSwiss, Rounds: intp(1), GamesPerRound: intp(1)}, 4)
	tid := c.Tournament.ID
	r := e.mustDraw(t, tid, 1)
	tb := r.Tables[0]
	e.mustSubmit(t, tournament.GameKey{TournamentID: tid, Round: 1, Table: 1, Game: 1}, tournamenttest.SimGame(5, tb.Players, tb.FirstDealerOf(1), 0))
	d, err := refs.OpenDispute(e.ctx, org, tid, referee.NewDispute{Round: 1, Table: 1, Game: 1, Description: "x"})
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 2)
	for i := range 2 {
		go func() {
			a := tournament.Actor{Role: tournament.RoleReferee, TokenID: fmt.Sprintf("referee:r%d", i)}
			_, err := refs.Rule(e.ctx, a, tid, d.ID, referee.NewRuling{Decision: referee.DecisionRejected, Reason: "x",
				Adjustments: []referee.NewAdjustment{{Player: tb.Players[0], Points: -1}}})
			errs <- err
		}()
	}
	var ok, ruled int
	for range 2 {
		switch err := <-errs; tournament.ErrorCode(err) {
		case "dispute_ruled":
			ruled++
		default:
			if err != nil {
				t.Errorf("Rule: %v", err)
			}
			ok++
		}
	}
	var rulings, adjs int
	_ = e.pool.QueryRow(e.ctx, `SELECT (SELECT count(*) FROM rulings), (SELECT count(*) FROM adjustments)`).Scan(&rulings, &adjs)
	if ok != 1 || ruled != 1 || rulings != 1 || adjs != 1 {
		t.Errorf("%d ruled, %d refused, %d rulings and %d adjustments stored; want 1, 1, 1, 1", ok, ruled, rulings, adjs)
	}
}
