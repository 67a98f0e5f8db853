package referee

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
)

// DisputeStatus says whether a dispute still waits for its ruling.
type DisputeStatus string

// The statuses of a dispute.
const (
	DisputeOpen  DisputeStatus = "open"
	DisputeRuled DisputeStatus = "ruled"
)

// MaxDealNumber bounds the deal number a dispute names.
const MaxDealNumber = 1000

// Bounds on disputes (issue 13, item 3), so that no dispute and no page of
// disputes costs more than a bounded amount to judge, store and send.
const (
	// MaxReconstruction bounds a reconstruction's canonical JSON: room for a
	// game of 180 full deal records, or 200 deals of scoring sheets.
	MaxReconstruction = 256 << 10
	// MaxVerdict bounds the engine's verdict on a reconstruction, which
	// grows with its deals (about 500 bytes a deal).
	MaxVerdict = 64 << 10
	// MaxDisputesPerGame bounds the disputes, open and ruled, one game may
	// have.
	MaxDisputesPerGame = 10
	// DefaultDisputeLimit and MaxDisputeLimit bound a page of disputes;
	// MaxDisputePageBytes bounds the reconstructions and verdicts one page
	// carries (a page ends early, with a next, when the next would pass it).
	DefaultDisputeLimit = 50
	MaxDisputeLimit     = 200
	MaxDisputePageBytes = 4 << 20
)

// DisputeFilter selects a page of disputes, oldest first; zero fields
// select everything. After is the ID of the last dispute of the previous
// page.
type DisputeFilter struct {
	Status DisputeStatus
	After  int64
	Limit  int
}

// DisputePage is one page of disputes; Next is the After of the next
// page, 0 on the last.
type DisputePage struct {
	Disputes []Dispute
	Next     int64
}

// Dispute is a table's or the organizer's complaint about one game, with an
// optional reconstruction (a deal or game record) and the engine's verdict
// on it.
type Dispute struct {
	ID          int64
	Key         tournament.GameKey
	Description string
	Record      json.RawMessage // the reconstruction; nil when none was given
	Verdict     json.RawMessage // the engine's result on Record; nil without a record
	ResultID    *int64          // the game's effective result when the dispute was opened
	Deal        *int            // the disputed deal (1-based), when the dispute names one
	Status      DisputeStatus
	OpenedRole  tournament.Role
	OpenedBy    string // the token id of who opened it
	CreatedAt   time.Time
	// SeenAt is when a referee or the organizer first opened the dispute
	// (nil before), SeenBy their token's id.
	SeenAt *time.Time
	SeenBy string
	Ruling *Ruling
}

// NewDispute is what opening a dispute takes.
type NewDispute struct {
	Round, Table, Game int
	Description        string
	Record             json.RawMessage // optional: a deal record or a game record
	Deal               int             // optional: the disputed deal (1-based); 0 names none
}

// Verdict is what the engine says about a dispute's reconstruction: its
// result (docs/records.md) and whether it was a deal or a game.
type Verdict struct {
	Kind   string          `json:"kind"` // "deal" or "game"
	Result json.RawMessage `json:"result"`
}

// OpenDispute opens a dispute on a game: by the table that played it or by
// the organizer, while the round is being played or its results are still
// provisional. A reconstruction, when given, is judged by the engine and
// its verdict stored with the dispute.
func (r *Service) OpenDispute(ctx context.Context, a tournament.Actor, tid string, n NewDispute) (*Dispute, error) {
	return r.OpenDisputeVia(ctx, nil, a, tid, n)
}

// Opener is the part of the store that opens a dispute, which a unit of
// work may decorate for one command (OpenVia).
type Opener interface {
	OpenDispute(ctx context.Context, d *Dispute, check func(st *State, onGame int) error) error
}

// OpenVia decorates the store's Opener for one command: the application
// layer's unit of work stores a client's key with the dispute. Nil
// leaves it as it is.
type OpenVia func(Opener) Opener

// OpenDisputeVia is OpenDispute with the store's Opener decorated by via.
func (r *Service) OpenDisputeVia(ctx context.Context, via OpenVia, a tournament.Actor, tid string, n NewDispute) (*Dispute, error) {
	if err := a.RequireTable(n.Round, n.Table); err != nil {
		return nil, err
	}
	desc := strings.TrimSpace(n.Description)
	if err := tournament.CheckText("description", desc); err != nil {
		return nil, err
	}
	if n.Deal < 0 || n.Deal > MaxDealNumber {
		return nil, tournament.InvalidField("deal", "deal must be a deal number from 1 to %d, not %d", MaxDealNumber, n.Deal)
	}
	d := &Dispute{Key: tournament.GameKey{TournamentID: tid, Round: n.Round, Table: n.Table, Game: n.Game},
		Description: desc, Status: DisputeOpen, OpenedRole: a.Role, OpenedBy: a.AuditName(), CreatedAt: r.svc.Now()}
	if n.Deal > 0 {
		d.Deal = &n.Deal
	}
	if rec := RawOrNil(n.Record); rec != nil {
		canon, verdict, err := Judge(rec)
		if err != nil {
			return nil, err
		}
		d.Record, d.Verdict = canon, verdict
	}
	var opener Opener = r.store
	if via != nil {
		opener = via(opener)
	}
	err := opener.OpenDispute(tournament.AuditAs(ctx, a), d, func(st *State, onGame int) error {
		if _, err := gameOf(st, d.Key); err != nil {
			return err
		}
		if onGame >= MaxDisputesPerGame {
			return tournament.Errorf(tournament.KindConflict, tournament.CodeTooManyDisputes,
				"game %d of table %d in round %d already has %d disputes, the most one game may have; add to a dispute already open instead",
				d.Key.Game, d.Key.Table, d.Key.Round, onGame)
		}
		if err := windowOf(st, d.Key.Round).admits(d.CreatedAt); err != nil {
			return err
		}
		if res := effective(&st.State, d.Key); res != nil {
			d.ResultID = &res.ID
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// Judge lets the engine judge a reconstruction: a game record (it has
// "deals") or a deal record. A record that is not JSON is a 400; the
// engine's errors are part of the verdict, not a refusal, since the referee
// needs to see them.
func Judge(rec json.RawMessage) (canon, verdict json.RawMessage, err error) {
	canon, err = tournament.CanonicalJSON(rec)
	if err != nil {
		return nil, nil, tournament.InvalidField("record", "record is not JSON")
	}
	if err := tournament.Storable(canon); err != nil {
		return nil, nil, err
	}
	if len(canon) > MaxReconstruction {
		return nil, nil, tournament.Errorf(tournament.KindTooLarge, tournament.CodeRecordTooLarge,
			"the reconstruction takes %d KiB; a dispute's reconstruction may take at most %d KiB: send only the disputed deals",
			kib(len(canon)), MaxReconstruction>>10)
	}
	if n := dealsIn(canon); n > engine.MaxGameDeals {
		return nil, nil, tournament.Errorf(tournament.KindTooLarge, tournament.CodeTooManyDeals,
			"the reconstruction holds %d deals; a game holds at most %d", n, engine.MaxGameDeals)
	}
	out := engine.Validate(canon, engine.GameOptions{})
	if out.Syntax {
		return nil, nil, tournament.InvalidField("record", "record is not a JSON object")
	}
	v := Verdict{Kind: "deal"}
	if out.Game {
		v.Kind = "game"
	}
	if v.Result, err = json.Marshal(out.Result()); err != nil {
		return nil, nil, fmt.Errorf("encoding the engine's verdict: %w", err)
	}
	if verdict, err = json.Marshal(v); err != nil {
		return nil, nil, err
	}
	if len(verdict) > MaxVerdict {
		return nil, nil, tournament.Errorf(tournament.KindTooLarge, tournament.CodeVerdictTooLarge,
			"the engine's verdict on this reconstruction would take %d KiB, more than the %d KiB a dispute keeps: send only the disputed deals",
			kib(len(verdict)), MaxVerdict>>10)
	}
	return canon, verdict, nil
}

// kib is n bytes in KiB, rounded up.
func kib(n int) int { return (n + 1023) >> 10 }

// dealsIn counts the deals of a game record ("deals" an array); 0 for a
// deal record or anything else.
func dealsIn(canon json.RawMessage) int {
	var g struct {
		Deals []json.RawMessage `json:"deals"`
	}
	if json.Unmarshal(canon, &g) != nil {
		return 0
	}
	return len(g.Deals)
}

// gameOf finds the table of a game and checks the game number.
func gameOf(st *State, k tournament.GameKey) (tournament.Table, error) {
	r, err := play.FindRound(&st.State, k.Round)
	if err != nil {
		return tournament.Table{}, err
	}
	tb, ok := r.Table(k.Table)
	if !ok {
		return tournament.Table{}, tournament.Errorf(tournament.KindNotFound, tournament.CodeTableNotFound, "round %d has no table %d", k.Round, k.Table)
	}
	if games := st.Tournament.Settings.GamesIn(r.Final); k.Game < 1 || k.Game > games {
		return tournament.Table{}, tournament.Errorf(tournament.KindNotFound, tournament.CodeGameNotFound,
			"a table plays games 1 to %d in this round; there is no game %d", games, k.Game)
	}
	return tb, nil
}

// effective returns the effective result of a game, or nil.
func effective(st *tournament.State, k tournament.GameKey) *tournament.GameResult {
	for i := range st.Results {
		r := &st.Results[i]
		if r.Key.Round == k.Round && r.Key.Table == k.Table && r.Key.Game == k.Game {
			return r
		}
	}
	return nil
}

// Disputes returns a page of a tournament's disputes, open and ruled or
// those of f.Status, oldest first: at most f.Limit disputes and, past the
// first, no more than MaxDisputePageBytes of reconstructions and verdicts.
func (r *Service) Disputes(ctx context.Context, a tournament.Actor, tid string, f DisputeFilter) (*DisputePage, error) {
	if err := a.RequireReferee(); err != nil {
		return nil, err
	}
	if f.Limit == 0 {
		f.Limit = DefaultDisputeLimit
	}
	if f.Limit < 1 || f.Limit > MaxDisputeLimit {
		return nil, tournament.InvalidParameter("limit", "limit must be between 1 and %d", MaxDisputeLimit)
	}
	if f.After < 0 {
		return nil, tournament.InvalidParameter("after", "after must be the id of a dispute")
	}
	if f.Status != "" && f.Status != DisputeOpen && f.Status != DisputeRuled {
		return nil, tournament.InvalidParameter("status", "status must be %q or %q", DisputeOpen, DisputeRuled)
	}
	if _, err := r.svc.Tournament(ctx, tid); err != nil {
		return nil, err
	}
	limit := f.Limit
	f.Limit++ // one more tells whether there is a next page
	ds, err := r.store.Disputes(ctx, tid, f)
	if err != nil {
		return nil, err
	}
	return pageOf(ds, limit), nil
}

// pageOf cuts ds to a page: at most limit disputes, and at most
// MaxDisputePageBytes of records and verdicts after the first.
func pageOf(ds []Dispute, limit int) *DisputePage {
	p := &DisputePage{Disputes: ds}
	size := 0
	for i := range ds {
		size += len(ds[i].Record) + len(ds[i].Verdict)
		if ds[i].Ruling != nil {
			size += len(ds[i].Ruling.Verdict)
		}
		if i == limit || i > 0 && size > MaxDisputePageBytes {
			p.Disputes, p.Next = ds[:i], ds[i-1].ID
			break
		}
	}
	return p
}

// Dispute returns one dispute with its verdict and ruling.
func (r *Service) Dispute(ctx context.Context, a tournament.Actor, tid string, id int64) (*Dispute, error) {
	if err := a.RequireReferee(); err != nil {
		return nil, err
	}
	return r.store.Dispute(ctx, tid, id)
}
