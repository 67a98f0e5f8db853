package postgres_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/postgres"
	"github.com/revisor-sm/revisor/tournament/referee"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// TestDisputeCommitsWithItsKey: a dispute sent with a client's key is
// stored in one transaction with the key's claim and its answer. A
// failure after the dispute's insert (a server that dies before its
// commit) keeps neither, so the retry opens it once; the key sent again
// is answered from the key without a second dispute; the key with
// another dispute is refused; a dispute the rules refuse leaves the key
// unclaimed; a store without keys does nothing.
func TestDisputeCommitsWithItsKey(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	store := e.referees.WithKeys(postgres.NewIdempotency(e.pool, time.Hour, time.Minute))
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Nycklar", Format: tournament.FormatSwiss, Rounds: intp(1), GamesPerRound: intp(1)}, 4)
	tid := c.Tournament.ID
	tb := e.mustDraw(t, tid, 1).Tables[0]
	k := tournament.GameKey{TournamentID: tid, Round: 1, Table: 1, Game: 1}
	e.mustSubmit(t, k, tournamenttest.SimGame(3, tb.Players, tb.FirstDealerOf(1), 0))
	dispute := func() *referee.Dispute {
		return &referee.Dispute{Key: k, Description: "late", Status: referee.DisputeOpen, OpenedRole: tournament.RoleOrganizer,
			OpenedBy: "organizer", CreatedAt: time.Now().UTC()}
	}
	accept := func(*referee.State, int) error { return nil }
	answer := func(d *referee.Dispute) ([]byte, error) { return fmt.Appendf(nil, "dispute %d", d.ID), nil }
	disputes := func() int { return e.rows(t, "disputes", tid) }
	keyed := e.keyAnswer
	fp := []byte("fingerprint")

	_, _, _, err := store.OpenDisputeKeyed(e.ctx, dispute(), accept, "s", "k1", fp, func(*referee.Dispute) ([]byte, error) {
		return nil, errors.New("the server died before its commit")
	})
	if there, _ := keyed("k1"); err == nil || disputes() != 0 || there {
		t.Fatalf("a failure after the insert: err %v, %d disputes, key claimed %v; want the error and nothing kept", err, disputes(), there)
	}

	d := dispute()
	ok, stored, claimErr, err := store.OpenDisputeKeyed(e.ctx, d, accept, "s", "k1", fp, answer)
	there, response := keyed("k1")
	if !ok || stored != nil || claimErr != nil || err != nil || disputes() != 1 || !there || string(response) != fmt.Sprintf("dispute %d", d.ID) {
		t.Fatalf("the retry: ok %v stored %q claim %v err %v, %d disputes, key's answer %q; want one dispute answered under the key",
			ok, stored, claimErr, err, disputes(), response)
	}

	_, stored, claimErr, err = store.OpenDisputeKeyed(e.ctx, dispute(), accept, "s", "k1", fp, answer)
	if string(stored) != string(response) || claimErr != nil || err != nil || disputes() != 1 {
		t.Errorf("sent again: stored %q claim %v err %v, %d disputes; want the first answer and no second dispute", stored, claimErr, err, disputes())
	}
	_, stored, claimErr, err = store.OpenDisputeKeyed(e.ctx, dispute(), accept, "s", "k1", []byte("other"), answer)
	if stored != nil || tournament.ErrorCode(claimErr) != tournament.CodeIdempotencyKeyReused || err != nil || disputes() != 1 {
		t.Errorf("the key with another dispute: stored %q claim %v err %v, %d disputes; want the key refused", stored, claimErr, err, disputes())
	}

	refuse := func(*referee.State, int) error {
		return tournament.Errorf(tournament.KindConflict, tournament.CodeTooManyDisputes, "refused")
	}
	_, _, _, err = store.OpenDisputeKeyed(e.ctx, dispute(), refuse, "s", "k2", fp, answer)
	if there, _ := keyed("k2"); tournament.ErrorCode(err) != tournament.CodeTooManyDisputes || there || disputes() != 1 {
		t.Errorf("a refused dispute: err %v, key claimed %v, %d disputes; want the refusal and the key unclaimed", err, there, disputes())
	}

	if ok, _, _, err := e.referees.OpenDisputeKeyed(e.ctx, dispute(), accept, "s", "k3", fp, answer); ok || err != nil || disputes() != 1 {
		t.Errorf("without keys: ok %v err %v, %d disputes; want nothing done", ok, err, disputes())
	}
}
