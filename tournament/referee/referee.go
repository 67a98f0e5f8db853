package referee

import (
	"context"
	"encoding/base32"
	"encoding/base64"
	"encoding/json"
	"strings"
	"time"

	"github.com/revisor-sm/revisor/internal/tokens"
	"github.com/revisor-sm/revisor/tournament"
)

// Referee tokens are "ref_" followed by 32 random bytes in base64url (47
// characters); the prefix tells them from organizer tokens without a
// database lookup. Only their SHA-256 is stored, as for organizer tokens.
const refereePrefix = "ref_"

// RefereeToken is a referee's token as stored and listed: never the secret.
type RefereeToken struct {
	ID           string
	TournamentID string
	Name         string
	CreatedBy    string
	CreatedAt    time.Time
	RevokedAt    *time.Time
}

// IssuedRefereeToken is a new referee token with its secret, which is shown
// once and never again.
type IssuedRefereeToken struct {
	RefereeToken
	Token string
}

// Store keeps what referees work with. Each method is one
// transaction; methods that take a callback run it under the tournament's
// row lock on a snapshot loaded inside the transaction.
type Store interface {
	// AddRefereeToken stores a referee token under its hash.
	// AddRefereeToken stores a referee token under its hash after check
	// approves the number of tokens, revoked ones included, the
	// tournament already has (counted under the tournament's lock).
	AddRefereeToken(ctx context.Context, t *RefereeToken, hash []byte, check func(issued int) error) error
	// RevokeRefereeToken marks a token revoked at now; not_found when the
	// tournament has no such token, conflict when it is already revoked.
	RevokeRefereeToken(ctx context.Context, tid, id string, now time.Time) (*RefereeToken, error)
	// RefereeTokens lists a tournament's referee tokens, oldest first.
	RefereeTokens(ctx context.Context, tid string) ([]RefereeToken, error)
	// RefereeByTokenHash finds a referee token by its hash.
	RefereeByTokenHash(ctx context.Context, hash []byte) (*RefereeToken, []byte, error)

	// State returns a consistent snapshot of what rulings look at.
	RefereeState(ctx context.Context, tid string) (*State, error)
	// OpenDispute stores d after check approves the locked state and the
	// number of disputes d's game already has.
	OpenDispute(ctx context.Context, d *Dispute, check func(st *State, onGame int) error) error
	// Disputes lists the disputes f selects with their rulings, oldest
	// first, at most f.Limit.
	Disputes(ctx context.Context, tid string, f DisputeFilter) ([]Dispute, error)
	// OpenDisputes counts the open disputes of each game of round n.
	OpenDisputes(ctx context.Context, tid string, n int) (map[tournament.GameKey]int, error)
	// Dispute returns one dispute with its ruling.
	Dispute(ctx context.Context, tid string, id int64) (*Dispute, error)
	// SeeDispute returns one dispute with its ruling after recording, when
	// it has not been seen yet, that by saw it at at; not_found when the
	// tournament has no such dispute.
	SeeDispute(ctx context.Context, tid string, id int64, by string, at time.Time) (*Dispute, error)
	// TableDisputes lists the disputes of table t of round n with their
	// rulings, oldest first.
	TableDisputes(ctx context.Context, tid string, n, t int) ([]Dispute, error)
	// Rule writes the ruling that decide makes on the locked state and the
	// dispute: the ruling, its adjustments, the corrected result,
	// disqualifications and the advancement that follows.
	Rule(ctx context.Context, tid string, id int64, decide func(*State, *Dispute) (*RulingChange, error)) (*RulingChange, error)

	// Audit returns the audit entries f selects, oldest first.
	Audit(ctx context.Context, tid string, f tournament.AuditFilter) ([]tournament.AuditEntry, error)

	// SetCorrectionMinutes sets a tournament's correction window.
	SetCorrectionMinutes(ctx context.Context, tid string, minutes int) error
	// Reopen stores a reopening after check approves the locked state.
	Reopen(ctx context.Context, tid string, r *Reopening, check func(*State) error) error
	// Commit stores a draw commitment; conflict when the round has one or is drawn.
	Commit(ctx context.Context, c *Commitment) error
}

// State is the tournament's state with what referees add to it.
type State struct {
	tournament.State
	CorrectionMinutes int
	Reopenings        []Reopening
	Commitments       []Commitment
}

// Service runs the referee side of tournaments: referee tokens, disputes,
// rulings, the correction window, draw commitments and the audit log. It
// shares the tournament service's clock and randomness.
type Service struct {
	svc   *tournament.Service
	draws Draws
	store Store
}

// Draws draws a round (play.Service): revealing the seed of a commitment
// draws the round with it.
type Draws interface {
	DrawRound(ctx context.Context, a tournament.Actor, tid string, seed *int64) (*tournament.Round, error)
}

// New returns the referee service over store, next to svc and the draws
// of its rounds.
func New(svc *tournament.Service, draws Draws, store Store) *Service {
	return &Service{svc: svc, draws: draws, store: store}
}

// LooksLikeRefereeToken reports whether token has the form of a referee token.
func LooksLikeRefereeToken(token string) bool {
	return strings.HasPrefix(token, refereePrefix) && len(token) == len(refereePrefix)+43
}

// MaxRefereeTokens bounds the referee tokens of a tournament, revoked ones
// included, so that the list of them stays short (issue 13: no list grows
// without bound).
const MaxRefereeTokens = 50

// IssueToken creates a referee token. Only the organizer may, and at most
// MaxRefereeTokens per tournament.
func (r *Service) IssueToken(ctx context.Context, a tournament.Actor, tid, name string) (*IssuedRefereeToken, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	name = strings.TrimSpace(name)
	if err := tournament.CheckLine("name", name, tournament.MaxPlayerName, false); err != nil {
		return nil, err
	}
	secret, err := tokens.NewSecret(r.svc.Rand(), tokens.TokenBytes)
	if err != nil {
		return nil, err
	}
	idb, err := tokens.NewSecret(r.svc.Rand(), 5)
	if err != nil {
		return nil, err
	}
	token := refereePrefix + base64.RawURLEncoding.EncodeToString(secret)
	t := RefereeToken{ID: "r" + strings.ToLower(base32.StdEncoding.EncodeToString(idb)), TournamentID: tid,
		Name: name, CreatedBy: a.AuditName(), CreatedAt: r.svc.Now()}
	if _, err := r.svc.Tournament(ctx, tid); err != nil {
		return nil, err
	}
	err = r.store.AddRefereeToken(tournament.AuditAs(ctx, a), &t, tokens.HashToken(token), func(issued int) error {
		if issued >= MaxRefereeTokens {
			return tournament.Errorf(tournament.KindConflict, tournament.CodeTooManyRefereeTokens,
				"this tournament already has %d referee tokens, the most it may have (revoked ones count too)", issued)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &IssuedRefereeToken{RefereeToken: t, Token: token}, nil
}

// RevokeToken revokes a referee token; it is refused from then on.
func (r *Service) RevokeToken(ctx context.Context, a tournament.Actor, tid, id string) (*RefereeToken, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	return r.store.RevokeRefereeToken(tournament.AuditAs(ctx, a), tid, id, r.svc.Now())
}

// Tokens lists a tournament's referee tokens without their secrets.
func (r *Service) Tokens(ctx context.Context, a tournament.Actor, tid string) ([]RefereeToken, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	if _, err := r.svc.Tournament(ctx, tid); err != nil {
		return nil, err
	}
	return r.store.RefereeTokens(ctx, tid)
}

// Identify finds the referee token token; 401 unknown_token when there is
// none or it was revoked.
func (r *Service) Identify(ctx context.Context, token string) (*RefereeToken, error) {
	if !LooksLikeRefereeToken(token) {
		return nil, tournament.UnknownToken()
	}
	t, hash, err := r.store.RefereeByTokenHash(ctx, tokens.HashToken(token))
	if tournament.ErrorKind(err) == tournament.KindNotFound {
		return nil, tournament.UnknownToken()
	}
	if err != nil {
		return nil, err
	}
	if !tokens.TokenMatches(token, hash) {
		return nil, tournament.UnknownToken()
	}
	if t.RevokedAt != nil {
		return nil, tournament.Errorf(tournament.KindUnauthorized, tournament.CodeTokenRevoked, "this referee token was revoked at %s", t.RevokedAt.Format(time.RFC3339))
	}
	return t, nil
}

// AuditPage is one page of the audit log; Next is the AuditFilter.After
// of the next page, 0 on the last.
type AuditPage struct {
	Entries []tournament.AuditEntry
	Next    int64
}

// Audit returns a page of the audit log. Only referees and the organizer
// may read it.
func (r *Service) Audit(ctx context.Context, a tournament.Actor, tid string, f tournament.AuditFilter) (*AuditPage, error) {
	if err := a.RequireReferee(); err != nil {
		return nil, err
	}
	if f.Limit == 0 {
		f.Limit = tournament.DefaultAuditLimit
	}
	if f.Limit < 1 || f.Limit > tournament.MaxAuditLimit {
		return nil, tournament.InvalidField("limit", "limit must be between 1 and %d", tournament.MaxAuditLimit)
	}
	if f.Round < 0 || f.Table < 0 || f.After < 0 {
		return nil, tournament.InvalidField("filter", "round, table and after must not be negative")
	}
	if _, err := r.svc.Tournament(ctx, tid); err != nil {
		return nil, err
	}
	limit := f.Limit
	f.Limit++ // one more tells whether there is a next page
	es, err := r.store.Audit(ctx, tid, f)
	if err != nil {
		return nil, err
	}
	p := &AuditPage{Entries: es}
	if len(es) > limit {
		p.Entries = es[:limit]
		p.Next = es[limit-1].ID
	}
	return p, nil
}

// RawOrNil returns nil for an empty or null JSON value.
func RawOrNil(b json.RawMessage) json.RawMessage {
	if len(b) == 0 || string(b) == "null" {
		return nil
	}
	return b
}
