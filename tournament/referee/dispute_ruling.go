package referee

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
)

// The decisions of a ruling.
const (
	DecisionUpheld   = "upheld"
	DecisionRejected = "rejected"
)

// maxAdjustment bounds one adjustment's points either way.
const maxAdjustment = 1000

// Ruling is a referee's (or the organizer's) decision of a dispute.
type Ruling struct {
	ID           int64
	DisputeID    int64
	Decision     string
	Reason       string
	CorrectionID *int64          // the result row the corrected record became
	Verdict      json.RawMessage // the engine's result on the corrected record
	Disqualified []string
	Adjustments  []tournament.Adjustment
	RuledRole    tournament.Role
	RuledBy      string
	CreatedAt    time.Time
}

// NewRuling is what a ruling takes.
type NewRuling struct {
	Decision    string
	Reason      string
	Adjustments []NewAdjustment
	Disqualify  []string
	Record      json.RawMessage // a corrected game record (upheld only)
}

// NewAdjustment is one point adjustment of a ruling.
type NewAdjustment struct {
	Player string
	Points int
	Scale  string // "" means placement points
	Reason string // "" means the ruling's reason
}

// RulingChange is everything a ruling writes.
type RulingChange struct {
	Ruling     *Ruling
	Correction *tournament.GameResult // the corrected result; nil when the record stands
	Disqualify []string               // players who become disqualified
	// Outcomes replaces the recorded outcomes of the dispute's round when
	// the round is closed and advancement changes; nil leaves them.
	Outcomes  []tournament.Outcome
	Statuses  map[string]tournament.PlayerStatus // other player status changes (eliminated ↔ active)
	Champion  *string                            // a new champion after a ruling on the final
	Note      string                             // why advancement was left as it was, when it was
	Standings []tournament.Standing              // the standings after the ruling
}

// Rule decides a dispute: upheld or rejected with a reason; point
// adjustments; disqualifications; a corrected game record that becomes the
// game's effective result while the original stays. The standings and,
// for a closed round that is still the latest, who advances follow at once.
func (r *Service) Rule(ctx context.Context, a tournament.Actor, tid string, id int64, n NewRuling) (*RulingChange, error) {
	if err := a.RequireReferee(); err != nil {
		return nil, err
	}
	if err := n.Validate(); err != nil {
		return nil, err
	}
	now := r.svc.Now()
	ctx = tournament.AuditBecause(ctx, a, n.Reason)
	return r.store.Rule(ctx, tid, id, func(st *State, d *Dispute) (*RulingChange, error) {
		return decideRuling(st, d, n, a, now)
	})
}

func (n *NewRuling) Validate() error {
	n.Reason = strings.TrimSpace(n.Reason)
	if n.Decision != DecisionUpheld && n.Decision != DecisionRejected {
		return tournament.InvalidField("decision", "decision must be %q or %q, not %q", DecisionUpheld, DecisionRejected, n.Decision)
	}
	if err := tournament.CheckText("reason", n.Reason); err != nil {
		return err
	}
	n.Record = RawOrNil(n.Record)
	if n.Record != nil && n.Decision != DecisionUpheld {
		return tournament.InvalidField("record", "a corrected record comes only with an upheld dispute")
	}
	if len(n.Adjustments) > 16 || len(n.Disqualify) > 4 {
		return tournament.InvalidField("adjustments", "at most 16 adjustments and 4 disqualifications per ruling")
	}
	for i := range n.Adjustments {
		if err := n.Adjustments[i].normalize(n.Reason); err != nil {
			return err
		}
	}
	return nil
}

func (a *NewAdjustment) normalize(reason string) error {
	a.Reason = strings.TrimSpace(a.Reason)
	if a.Reason == "" {
		a.Reason = reason
	}
	if a.Scale == "" {
		a.Scale = tournament.ScalePlacementPoints
	}
	switch {
	case a.Player == "":
		return tournament.InvalidField("adjustments", "each adjustment names a player")
	case a.Points == 0 || a.Points < -maxAdjustment || a.Points > maxAdjustment:
		return tournament.InvalidField("adjustments", "an adjustment's points must be non-zero and between -%d and %d", maxAdjustment, maxAdjustment)
	case a.Scale != tournament.ScalePlacementPoints && a.Scale != tournament.ScaleGamePoints:
		return tournament.InvalidField("adjustments", "scale must be %q or %q", tournament.ScalePlacementPoints, tournament.ScaleGamePoints)
	}
	return tournament.CheckText("adjustments", a.Reason)
}

// decideRuling makes the change a ruling writes, on the locked state.
func decideRuling(st *State, d *Dispute, n NewRuling, a tournament.Actor, now time.Time) (*RulingChange, error) {
	if d.Status != DisputeOpen {
		return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeDisputeRuled, "dispute %d was already ruled", d.ID)
	}
	if n.Decision == DecisionUpheld && n.Record == nil && len(n.Adjustments) == 0 && len(n.Disqualify) == 0 {
		// Upholding a dispute says the result was wrong: the ruling must say what replaces it.
		return nil, tournament.Errorf(tournament.KindRejected, tournament.CodeRemedyRequired,
			"an upheld dispute needs a remedy: a corrected record, a point adjustment or a disqualification")
	}
	tb, err := gameOf(st, d.Key)
	if err != nil {
		return nil, err
	}
	ru := &Ruling{DisputeID: d.ID, Decision: n.Decision, Reason: n.Reason, RuledRole: a.Role, RuledBy: a.AuditName(), CreatedAt: now}
	ch := &RulingChange{Ruling: ru}
	if n.Record != nil {
		if ch.Correction, ru.Verdict, err = correction(st, d.Key, tb, n.Record, a, now); err != nil {
			return nil, err
		}
	}
	for _, adj := range n.Adjustments {
		if !slices.Contains(tb.Players, adj.Player) {
			return nil, tournament.InvalidField("adjustments", "%s did not play at table %d of round %d", adj.Player, d.Key.Table, d.Key.Round)
		}
		ru.Adjustments = append(ru.Adjustments, tournament.Adjustment{Key: d.Key, Player: adj.Player, Points: adj.Points,
			Scale: adj.Scale, Reason: adj.Reason, CreatedAt: now})
	}
	status := tournament.PlayerStatuses(st.Players)
	for _, p := range n.Disqualify {
		if _, ok := status[p]; !ok {
			return nil, tournament.InvalidField("disqualify", "%s is not a player of this tournament", p)
		}
		if !slices.Contains(ru.Disqualified, p) {
			ru.Disqualified = append(ru.Disqualified, p)
		}
		if status[p] != tournament.PlayerDisqualified && !slices.Contains(ch.Disqualify, p) {
			ch.Disqualify = append(ch.Disqualify, p)
		}
	}
	after := applyRuling(&st.State, ch)
	follow(after, d.Key.Round, ch)
	ch.Standings = tournament.Standings(after)
	return ch, nil
}

// correction checks a corrected game record as a submission is checked and
// makes the result row that supersedes the game's effective result.
func correction(st *State, k tournament.GameKey, tb tournament.Table, rec json.RawMessage, a tournament.Actor, now time.Time) (*tournament.GameResult, json.RawMessage, error) {
	res, err := play.JudgeResult(rec, tb, k, &st.Tournament, tournament.ResultCorrection, a.AuditName(), now)
	if err != nil {
		return nil, nil, err
	}
	if err := tournament.Storable(res.Record); err != nil {
		return nil, nil, err
	}
	if prev := effective(&st.State, k); prev != nil {
		id := prev.ID
		res.Supersedes = &id
	} else {
		res.Kind = tournament.ResultSubmission // a game without a result gets the referee's as its first
	}
	return res, res.Result, nil
}

// applyRuling returns a copy of st with the ruling's effects: the
// correction as the game's effective result, the adjustments, the
// disqualifications.
func applyRuling(st *tournament.State, ch *RulingChange) *tournament.State {
	out := *st
	out.Results = slices.Clone(st.Results)
	if c := ch.Correction; c != nil {
		if prev := effective(&out, c.Key); prev != nil {
			*prev = *c
		} else {
			out.Results = append(out.Results, *c)
		}
	}
	out.Adjustments = append(slices.Clone(st.Adjustments), ch.Ruling.Adjustments...)
	out.Players = slices.Clone(st.Players)
	for i := range out.Players {
		if slices.Contains(ch.Disqualify, out.Players[i].ID) {
			out.Players[i].Status = tournament.PlayerDisqualified
		}
	}
	return &out
}

// follow re-decides who advances from round n when it is closed and still
// the latest round, writing the differences into ch (and into st, so the
// standings show them).
func follow(st *tournament.State, n int, ch *RulingChange) {
	r := &st.Rounds[n-1]
	if r.Status != tournament.RoundClosed {
		return // advancement is decided when the round closes
	}
	if n < len(st.Rounds) {
		ch.Note = fmt.Sprintf("round %d is already drawn; advancement from round %d stands", n+1, n)
		return
	}
	t := &st.Tournament
	quota := t.AdvanceQuota(r)
	outcomes, ties := tournament.DecideRound(undoElimination(st, r), r, quota)
	if len(ties) > 0 {
		ch.Note = fmt.Sprintf("the ruling leaves a tie at the advancement line of round %d that the tiebreaks do not break; advancement stands as recorded", n)
		return
	}
	ch.Outcomes, ch.Statuses = outcomes, map[string]tournament.PlayerStatus{}
	status := tournament.PlayerStatuses(st.Players)
	for _, o := range outcomes {
		switch {
		case t.Format == tournament.FormatSM && r.Final && o.Advanced && t.Champion != o.Player:
			champ := o.Player
			ch.Champion, t.Champion = &champ, champ
		case t.Format == tournament.FormatSM && !r.Final && o.Advanced && status[o.Player] == tournament.PlayerEliminated:
			ch.Statuses[o.Player] = tournament.PlayerActive
		case t.Format == tournament.FormatSM && !r.Final && !o.Advanced && status[o.Player] == tournament.PlayerActive:
			ch.Statuses[o.Player] = tournament.PlayerEliminated
		}
	}
	st.Outcomes = append(slices.DeleteFunc(slices.Clone(st.Outcomes), func(o tournament.Outcome) bool { return o.Round == n }), outcomes...)
	for i := range st.Players {
		if s, ok := ch.Statuses[st.Players[i].ID]; ok {
			st.Players[i].Status = s
		}
	}
}

// undoElimination returns st with the players that round r eliminated
// active again, so that deciding r anew may let them go on.
func undoElimination(st *tournament.State, r *tournament.Round) *tournament.State {
	out := *st
	out.Players = slices.Clone(st.Players)
	for i, p := range out.Players {
		if _, seated := r.TableOf(p.ID); seated && p.Status == tournament.PlayerEliminated {
			out.Players[i].Status = tournament.PlayerActive
		}
	}
	return &out
}
