package postgres_test

import (
	"math/rand/v2"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// TestClosedRoundRefusesTableDisputes: a table's code may not open a
// dispute on a game of a closed round (issue 25: it was accepted); the
// organizer still may.
func TestClosedRoundRefusesTableDisputes(t *testing.T) {
	e := newEnv(t)
	refs := tournament.NewReferees(e.svc, e.store)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Stängd", Format: tournament.FormatSwiss, Rounds: intp(2), GamesPerRound: intp(1)}, 4)
	tid := c.Tournament.ID
	r := e.mustDraw(t, tid, 1)
	tb := r.Tables[0]
	e.mustSubmit(t, tournament.GameKey{TournamentID: tid, Round: 1, Table: 1, Game: 1},
		tournamenttest.SheetGame(rand.New(rand.NewPCG(1, 1)), tb.Players, tb.FirstDealerOf(1)))
	if _, err := e.svc.CloseRound(e.ctx, org, tid, 1); err != nil {
		t.Fatal(err)
	}
	nd := tournament.NewDispute{Round: 1, Table: 1, Game: 1, Description: "Fel poäng i giv 3"}
	table := tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: 1}
	if _, err := refs.OpenDispute(e.ctx, table, tid, nd); tournament.ErrorCode(err) != tournament.CodeRoundClosed {
		t.Errorf("the table disputes a game of its closed round: %v, want round_closed", err)
	}
	if _, err := refs.OpenDispute(e.ctx, org, tid, nd); err != nil {
		t.Errorf("the organizer disputes a game of a closed round: %v", err)
	}
}
