package play

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/json"
	"math/rand/v2"
	"slices"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/bridge"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/seating"
)

// A bridge_chicago tournament (docs/bridge.md, "The tournament"): every
// round, tables of four play one Chicago each with partners the seating
// has not paired before; when the count leaves two over they play draw
// bridge at a table of two; one player left beyond that sits out (a bye,
// in turn). A player's score for a round is their side's total minus the
// other side's; a bye scores 0, the average of every round's scores.

// planBridgeRound draws a bridge round: byes first (one player when the
// count is 1 or 3 more than a multiple of four, the one with the fewest
// byes so far), then a table of two when two are left over (those who
// played draw bridge least), then tables of four seated with partnerships
// that do not repeat while that is possible.
func planBridgeRound(st *tournament.State, active []string, seed int64) (*tournament.Round, error) {
	if len(active) < 2 {
		return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeTooFewPlayers,
			"%d active player(s); a bridge table needs at least 2. Register or reinstate players", len(active))
	}
	tables, err := bridgeTables(st.Rounds, active, seed)
	if err != nil {
		return nil, err
	}
	return &tournament.Round{TournamentID: st.Tournament.ID, Number: len(st.Rounds) + 1, Seed: seed,
		Status: tournament.RoundOpen, Tables: tables}, nil
}

// bridgeTables seats one bridge round of players after history.
func bridgeTables(history []tournament.Round, players []string, seed int64) ([]tournament.Table, error) {
	byes, twos := map[string]int{}, map[string]int{}
	for _, r := range history {
		seated := map[string]bool{}
		for _, t := range r.Tables {
			for _, p := range t.Players {
				seated[p] = true
				if len(t.Players) == 2 {
					twos[p]++
				}
			}
		}
		for _, p := range players {
			if !seated[p] {
				byes[p]++
			}
		}
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x627269646765))
	order := slices.Clone(players)
	rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	rest := order
	if len(rest)%2 == 1 { // one bye: the fewest byes so far, then by lot
		slices.SortStableFunc(rest, func(a, b string) int { return cmp.Compare(byes[a], byes[b]) })
		rest = rest[1:]
	}
	var two []string
	if len(rest)%4 == 2 { // a table of two: who played draw bridge least
		slices.SortStableFunc(rest, func(a, b string) int { return cmp.Compare(twos[a], twos[b]) })
		two, rest = slices.Clone(rest[:2]), rest[2:]
	}
	var tables []tournament.Table
	if len(rest) > 0 {
		fours := slices.Clone(rest)
		slices.Sort(fours) // the seating's input order is part of the seed's meaning
		res, err := seating.Round(seating.Params{Players: fours, History: pastRounds(history), Mode: seating.Mixed,
			Seed: uint64(seed), Constraints: seating.Constraints{Partners: true}})
		if err != nil {
			return nil, err
		}
		tables = tablesOf(res.Seating, fours)
	}
	if two != nil {
		tables = append(tables, tournament.Table{Number: len(tables) + 1, Players: two, Seats: []int{1, 2}, FirstDealer: two[0]})
	}
	return tables, nil
}

// checkMatch decodes a bridge match record submitted for table tb, checks
// that it belongs to the table and that the bridge engine accepts it and
// (unless inProgress) that it is over, and prepares what is stored.
func checkMatch(data []byte, tb tournament.Table, s tournament.Settings, inProgress bool) (*checkedGame, error) {
	res, err := judgeMatch(data, tb, s, inProgress)
	if err != nil {
		return nil, err
	}
	canon, err := tournament.CanonicalJSON(data)
	if err != nil {
		return nil, err
	}
	h := sha256.Sum256(canon)
	return &checkedGame{record: canon, hash: h[:], json: res.AppendJSON(nil), places: matchPlaces(tb, res)}, nil
}

// judgeMatch is checkMatch without preparing what is stored.
func judgeMatch(data []byte, tb tournament.Table, s tournament.Settings, inProgress bool) (*bridge.Result, error) {
	rec, err := bridge.Decode(data)
	if err != nil {
		return nil, tournament.DecodeErrorOf(err, tournament.CodeInvalidRecord, "the match record cannot be read")
	}
	if err := matchBridgeTable(rec, tb, s); err != nil {
		return nil, err
	}
	res := bridge.Check(rec)
	if !res.Valid {
		return nil, tournament.ProblemsError(tournament.CodeInvalidRecord, "the bridge engine rejects the match record: "+firstProblem(res.Errors), res.Errors)
	}
	if !inProgress && !res.Complete && !rec.EndedByTime {
		return nil, mismatch(tournament.CodeMatchNotFinished, engine.PartDeals,
			"the match is not over: a Chicago has four deals, a rubber ends when a player has two games (or ended_by \"time\")")
	}
	return res, nil
}

// matchBridgeTable checks that a match record belongs to table tb: its
// game by the table's size, its players in seat order, its first dealer
// and the tournament's rules. A record without rules gets them.
func matchBridgeTable(rec *bridge.Record, tb tournament.Table, s tournament.Settings) error {
	game := bridge.GameChicago
	if len(tb.Players) == 2 {
		game = bridge.GameDraw
	}
	if rec.Game != game {
		return mismatch(tournament.CodeGameMismatch, engine.PartWhole, "this table plays %s, not %s", game, rec.Game)
	}
	if !slices.Equal(rec.Players, tb.Players) {
		return mismatch(tournament.CodePlayersMismatch, engine.PartPlayers, "players must be the table's player ids in seat order")
	}
	if rec.FirstDealer != tb.FirstDealer {
		return mismatch(tournament.CodeFirstDealerMismatch, engine.PartFirstDealer,
			"the first dealer at this table is %s, not %s", tb.FirstDealer, rec.FirstDealer)
	}
	want, _ := tournament.BridgeRules(s.Rules) // checked at creation
	if rec.Rules.Vulnerability == "" {
		rec.Rules.Vulnerability = want.Vulnerability
	}
	if normVul(rec.Rules.Vulnerability) != normVul(want.Vulnerability) {
		return mismatch(tournament.CodeRulesMismatch, engine.PartRules, "the record's rules differ from the tournament's; leave rules out")
	}
	return nil
}

func normVul(v string) string {
	if v == "" {
		return bridge.VulDealer
	}
	return v
}

// matchPlaces gives each player of a match the round's score: the own
// side's total minus the other side's, as score and as points; place 1 to
// the winners (both sides on a draw, counted as a match won by each, as a
// shared first place is in the card game), 2 to the others.
func matchPlaces(tb tournament.Table, res *bridge.Result) []tournament.GamePlace {
	out := make([]tournament.GamePlace, len(tb.Players))
	for i, p := range tb.Players {
		side := i % 2
		diff := res.Totals[side] - res.Totals[1-side]
		place := 2
		if res.Drawn || res.Winner == res.Sides[side] {
			place = 1
		}
		out[i] = tournament.GamePlace{Player: p, Place: place, Score: diff, Points: diff}
	}
	return out
}

// appendMatchDeal is AppendDealAt for a bridge table: the deal is entered
// as on a score sheet (contract, declarer, tricks; or passed out) or as a
// record's deal with its auction, checked live against the deals before
// it, and stored as a record's deal. The deal that ends the match makes
// the table's result.
func (s *Service) appendMatchDeal(ctx context.Context, gs tournament.GameStore, a tournament.Actor, k tournament.GameKey, n int, e *loadedEntry, data []byte) (*tournament.DealProgress, error) {
	t, tb := e.Tournament, e.Round.Tables[0]
	deals, over, err := s.store.Deals(ctx, k)
	if err != nil {
		return nil, err
	}
	idx := len(deals)
	switch {
	case n > 0 && n <= len(deals):
		idx = n - 1
	case over:
		return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeGameOver, "this match already has a result; no more deals can be added")
	case n > len(deals)+1:
		return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeDealOutOfOrder,
			"this match has %d deal(s); deal %d cannot be entered before deal %d", len(deals), n, len(deals)+1)
	}
	before, err := s.judgeDeals(tb, t.Settings, deals[:idx])
	if err != nil {
		return nil, err
	}
	if before.Complete {
		return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeGameOver, "this match is over; no more deals can be added")
	}
	deal, err := enteredDeal(data, tb, before.NextDealer)
	if err != nil {
		return nil, err
	}
	if idx < len(deals) {
		stored, err := tournament.CanonicalJSON(deals[idx])
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(stored, deal) {
			return nil, tournament.DealExists(idx+1, stored, "match")
		}
	}
	all := append(slices.Clone(deals[:idx]), deal)
	res, err := s.judgeDeals(tb, t.Settings, all)
	if err != nil {
		return nil, err
	}
	p := &tournament.DealProgress{Deal: idx + 1, Match: res, MatchDeal: &res.Deals[idx], Repeat: idx < len(deals)}
	if p.Repeat {
		if res.Complete {
			if p.Final, err = s.Game(ctx, k); err != nil {
				return nil, err
			}
		}
		return p, nil
	}
	if res.Complete {
		g, err := checkMatch(composeMatch(tb, all), tb, t.Settings, false)
		if err != nil {
			return nil, err
		}
		p.Final = &tournament.GameResult{Key: k, Kind: tournament.ResultSubmission, Record: g.record, RecordHash: g.hash, Result: g.json,
			Places: g.places, SubmittedBy: a.String(), CreatedAt: s.clock()}
	}
	w := e.write(k, len(deals), deal, s.clock(), p)
	w.Final = p.Final
	if err := commitDeal(ctx, gs, a, w); err != nil {
		return nil, err
	}
	return p, nil
}

// judgeDeals checks a bridge table's match as far as deals go.
func (s *Service) judgeDeals(tb tournament.Table, st tournament.Settings, deals []json.RawMessage) (*bridge.Result, error) {
	return judgeMatch(composeMatch(tb, deals), tb, st, true)
}

// composeMatch builds the match record of a bridge table from its deals.
func composeMatch(tb tournament.Table, deals []json.RawMessage) []byte {
	game := bridge.GameChicago
	if len(tb.Players) == 2 {
		game = bridge.GameDraw
	}
	rec := struct {
		Game        string            `json:"game"`
		Players     []string          `json:"players"`
		FirstDealer string            `json:"first_dealer"`
		Deals       []json.RawMessage `json:"deals"`
	}{game, tb.Players, tb.FirstDealer, deals}
	if rec.Deals == nil {
		rec.Deals = []json.RawMessage{}
	}
	b, _ := json.Marshal(rec) // strings and raw JSON already checked: cannot fail
	return b
}

// enteredDeal reads a deal entered at a bridge table whose next dealer is
// dealer and returns it as a record's deal in canonical JSON.
func enteredDeal(data []byte, tb tournament.Table, dealer string) ([]byte, error) {
	e, d, full, err := bridge.DecodeEntry(data)
	if err != nil {
		return nil, tournament.DecodeErrorOf(err, tournament.CodeInvalidDeal, "the deal cannot be read")
	}
	if !full {
		var probs []engine.Problem
		d, probs = bridge.EntryDeal(e, tb.Players, max(slices.Index(tb.Players, dealer), 0))
		if probs != nil {
			return nil, tournament.ProblemsError(tournament.CodeInvalidDeal, "the deal cannot be entered: "+firstProblem(probs), probs)
		}
	}
	return tournament.CanonicalJSON(d.AppendJSON(nil))
}

// SheetDeal is one row of a printed Chicago bridge score sheet: the deal's
// number, its dealer and which sides (0: seats 1 and 3, 1: seats 2 and 4)
// are vulnerable. A table of two has no fixed vulnerability (a player is
// vulnerable after a game): both are false there.
type SheetDeal struct {
	Deal       int
	Dealer     string
	Vulnerable [2]bool
}

// BridgeSheet returns the rows of a bridge table's score sheet: the four
// deals of a Chicago, or rows enough for a rubber of draw bridge, the
// dealer rotating (a passed-out Chicago deal, dealt again by the same
// dealer, takes no row of its own).
func BridgeSheet(s tournament.Settings, tb tournament.Table) []SheetDeal {
	first := max(slices.Index(tb.Players, tb.FirstDealer), 0)
	n := len(tb.Players)
	rows := 4
	if n == 2 {
		rows = 8
	}
	rules, _ := tournament.BridgeRules(s.Rules)
	out := make([]SheetDeal, rows)
	for k := range out {
		seat := (first + k) % n
		out[k] = SheetDeal{Deal: k + 1, Dealer: tb.Players[seat]}
		if n == 4 {
			out[k].Vulnerable = bridge.ChicagoVulnerable(k+1, seat, rules)
		}
	}
	return out
}
