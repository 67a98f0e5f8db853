package tournament

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
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
func (r *Referees) Commit(ctx context.Context, a Actor, tid string, n int, hexHash string) (*Commitment, error) {
	if err := a.requireOrganizer(); err != nil {
		return nil, err
	}
	h, err := hex.DecodeString(strings.TrimSpace(hexHash))
	if err != nil || len(h) != sha256.Size {
		return nil, invalidField("sha256", "sha256 must be 64 hexadecimal digits: the SHA-256 of the seed's decimal digits")
	}
	t, err := r.svc.store.Tournament(ctx, tid)
	if err != nil {
		return nil, err
	}
	if n <= t.CurrentRound {
		return nil, Errorf(KindConflict, "round_drawn", "round %d is already drawn; a commitment must come before the draw", n)
	}
	c := &Commitment{TournamentID: tid, Round: n, SeedSHA256: h, By: a.tokenID(), CreatedAt: r.svc.clock()}
	if err := r.store.Commit(auditAs(ctx, a), c); err != nil {
		return nil, err
	}
	return c, nil
}

// Reveal draws round n with the committed seed after checking it against
// the commitment: 409 no_commitment without one, 422 seed_mismatch when the
// seed does not hash to it. (The database refuses a draw of a committed
// round with another seed by any route.)
func (r *Referees) Reveal(ctx context.Context, a Actor, tid string, n int, seed int64) (*Round, error) {
	if err := a.requireOrganizer(); err != nil {
		return nil, err
	}
	st, err := r.store.RefereeState(ctx, tid)
	if err != nil {
		return nil, err
	}
	if n != len(st.Rounds)+1 {
		return nil, Errorf(KindConflict, "not_next_round", "the next round to draw is %d, not %d", len(st.Rounds)+1, n)
	}
	c := commitmentOf(st, n)
	if c == nil {
		return nil, Errorf(KindConflict, "no_commitment", "round %d has no published commitment; draw it with POST …/rounds", n)
	}
	if subtle.ConstantTimeCompare(SeedHash(seed), c.SeedSHA256) != 1 {
		return nil, Errorf(KindRejected, "seed_mismatch", "SHA-256 of %d is %x, not the commitment %x published at %s",
			seed, SeedHash(seed), c.SeedSHA256, c.CreatedAt.Format(time.RFC3339))
	}
	return r.svc.DrawRound(ctx, a, tid, &seed)
}

func commitmentOf(st *RefereeState, n int) *Commitment {
	for i := range st.Commitments {
		if st.Commitments[i].Round == n {
			return &st.Commitments[i]
		}
	}
	return nil
}
