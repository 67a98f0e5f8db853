package referee

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
)

// Commitment is the organizer's published SHA-256 of a round's seed, made
// before the round is drawn. The seed is revealed by the draw (the round
// shows it); anyone can then check that SHA-256 of its decimal digits is
// the commitment, and recompute the tables from the public inputs
// (DrawInputs, `revisor seat --draw`), so the draw cannot have been
// arranged after the commitment.
type Commitment struct {
	TournamentID string
	Round        int
	SeedSHA256   []byte
	By           string
	CreatedAt    time.Time
}

// SeedHash is the commitment to a seed: SHA-256 of its decimal digits.
func SeedHash(seed int64) []byte {
	h := sha256.Sum256([]byte(strconv.FormatInt(seed, 10)))
	return h[:]
}

// Commit publishes the commitment to the seed of round n, which must not
// be drawn yet. hexHash is 64 hexadecimal digits.
func (r *Service) Commit(ctx context.Context, a tournament.Actor, tid string, n int, hexHash string) (*Commitment, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	h, err := hex.DecodeString(strings.TrimSpace(hexHash))
	if err != nil || len(h) != sha256.Size {
		return nil, tournament.InvalidField("sha256", "sha256 must be 64 hexadecimal digits: the SHA-256 of the seed's decimal digits")
	}
	t, err := r.svc.Tournament(ctx, tid)
	if err != nil {
		return nil, err
	}
	if n <= t.CurrentRound {
		return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeRoundDrawn, "round %d is already drawn; a commitment must come before the draw", n)
	}
	c := &Commitment{TournamentID: tid, Round: n, SeedSHA256: h, By: a.AuditName(), CreatedAt: r.svc.Now()}
	if err := r.store.Commit(tournament.AuditAs(ctx, a), c); err != nil {
		return nil, err
	}
	return c, nil
}

// Reveal draws round n with the committed seed after checking it against
// the commitment: 409 no_commitment without one, 422 seed_mismatch when the
// seed does not hash to it. (The database refuses a draw of a committed
// round with another seed by any route.)
func (r *Service) Reveal(ctx context.Context, a tournament.Actor, tid string, n int, seed int64) (*tournament.Round, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	st, err := r.store.RefereeState(ctx, tid)
	if err != nil {
		return nil, err
	}
	if n != len(st.Rounds)+1 {
		return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeNotNextRound, "the next round to draw is %d, not %d", len(st.Rounds)+1, n)
	}
	c := commitmentOf(st, n)
	if c == nil {
		return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeNoCommitment, "round %d has no published commitment; draw it with POST …/rounds", n)
	}
	if subtle.ConstantTimeCompare(SeedHash(seed), c.SeedSHA256) != 1 {
		return nil, tournament.Errorf(tournament.KindRejected, tournament.CodeSeedMismatch, "SHA-256 of %d is %x, not the commitment %x published at %s",
			seed, SeedHash(seed), c.SeedSHA256, c.CreatedAt.Format(time.RFC3339))
	}
	return r.draws.DrawRound(ctx, a, tid, &seed)
}

func commitmentOf(st *State, n int) *Commitment {
	for i := range st.Commitments {
		if st.Commitments[i].Round == n {
			return &st.Commitments[i]
		}
	}
	return nil
}

// DrawInputs are the public inputs of round n's draw: everything the
// seating reads, so that anyone can recompute the tables (ReplayDraw).
type DrawInputs struct {
	Format      tournament.Format
	Seating     string                      // swiss: SeatingMixed or SeatingByStandings
	Rounds      int                         // swiss: the number of rounds (the mixed plan covers them all)
	Round       int                         // the round drawn
	Seed        int64                       // the round's seed, revealed by the draw
	Constraints *tournament.DrawConstraints // the fixed tables and players kept apart, nil for none
	Players     []string
	History     []tournament.Round // rounds 1..Round-1 with their seeds and tables
	Standings   []string           // by_standings: the players best first at the draw
	Tables      []tournament.Table // the tables drawn
	Commitment  *Commitment        // nil when the round had none
	// SearchSteps is Round.SearchSteps: where the clock cut the draw's
	// search, which the replay stops at; 0 when it did not.
	SearchSteps int
}

// ReplayDraw recomputes a round's tables from its public inputs with the
// code the draw used: the mixed Swiss plan when it applies, else the
// seating of one round from the players, the earlier rounds and the seed.
func ReplayDraw(in DrawInputs) ([]tournament.Table, error) {
	return play.Redraw(in.Format, in.Seating, in.Rounds, in.Players, in.History, in.Standings, in.Seed, in.Constraints, in.SearchSteps)
}

// DrawInputs returns the public inputs of round n's draw. The players are
// those seated in round n, in registration order (the order the draw
// reads them in); by_standings rounds add the standings order the draw
// used, recomputed from the results of the rounds before.
func (r *Service) DrawInputs(ctx context.Context, tid string, n int) (*DrawInputs, error) {
	st, err := r.store.RefereeState(ctx, tid)
	if err != nil {
		return nil, err
	}
	rd, err := play.FindRound(&st.State, n)
	if err != nil {
		return nil, err
	}
	t := &st.Tournament
	in := &DrawInputs{Format: t.Format, Seating: t.Settings.Seating, Rounds: t.Settings.Rounds, Round: n, Seed: rd.Seed, Constraints: rd.Constraints,
		History: st.Rounds[:n-1], Tables: asDrawn(rd.Tables), Commitment: commitmentOf(st, n),
		SearchSteps: rd.SearchSteps}
	for _, p := range st.Players {
		if _, ok := rd.TableOf(p.ID); ok {
			in.Players = append(in.Players, p.ID)
		}
	}
	if t.Format == tournament.FormatSwiss && t.Settings.Seating == tournament.SeatingByStandings {
		in.Standings = play.StandingOrder(before(&st.State, n), in.Players)
	}
	return in, nil
}

// before returns st as it was before round n was drawn: the rounds and
// results before it.
func before(st *tournament.State, n int) *tournament.State {
	out := *st
	out.Rounds = st.Rounds[:n-1]
	out.Results = nil
	for _, r := range st.Results {
		if r.Key.Round < n {
			out.Results = append(out.Results, r)
		}
	}
	out.Outcomes = nil
	for _, o := range st.Outcomes {
		if o.Round < n {
			out.Outcomes = append(out.Outcomes, o)
		}
	}
	return &out
}

// asDrawn returns the tables as the draw made them, before any re-seating:
// what the seed must reproduce. (Later rounds were drawn with the tables as
// re-seated in their history, which is what History holds.)
func asDrawn(tables []tournament.Table) []tournament.Table {
	out := make([]tournament.Table, len(tables))
	for i, t := range tables {
		if t.Drawn != nil {
			t = *t.Drawn
		}
		out[i] = t
	}
	return out
}
