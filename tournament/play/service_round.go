package play

import (
	"context"
	"encoding/binary"
	"slices"
	"time"

	"github.com/revisor-sm/revisor/internal/tokens"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/seating"
)

// maxSeed keeps drawn seeds exact in JSON numbers (2^53).
const maxSeed = 1 << 53

// DrawRound draws the next round from the players still in. A nil seed is
// drawn at random; the round stores it, and the same seed with the same
// players and history gives the same tables.
func (s *Service) DrawRound(ctx context.Context, a tournament.Actor, tid string, seed *int64) (*tournament.Round, error) {
	return s.DrawRoundWith(ctx, a, tid, tournament.DrawOptions{Seed: seed})
}

// DrawRoundWith draws the next round as DrawRound does, under the
// organizer's constraints: fixed tables and players kept apart, stored
// with the round.
func (s *Service) DrawRoundWith(ctx context.Context, a tournament.Actor, tid string, o tournament.DrawOptions) (*tournament.Round, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	if o.Seed != nil && (*o.Seed < 0 || *o.Seed >= maxSeed) {
		return nil, tournament.InvalidField("seed", "seed must be between 0 and 2^53-1")
	}
	sd, err := s.seed(o.Seed)
	if err != nil {
		return nil, err
	}
	now := s.clock()
	// The draw ends the old round's codes here at once; other processes
	// hear of it (Heard), and the cache forgets them again after the
	// commit, for a lookup that raced with the draw.
	s.core.ForgetTableCodes(tid)
	defer s.core.ForgetTableCodes(tid)
	return s.store.DrawRound(tournament.AuditAs(ctx, a), tid, func(st *tournament.State) (*tournament.Round, error) {
		cons, err := o.Constraints(st.Players)
		if err != nil {
			return nil, err
		}
		r, err := planRound(st, sd, cons, s.seatClock)
		if err != nil {
			return nil, err
		}
		r.CreatedAt = now
		return r, nil
	})
}

func (s *Service) seed(given *int64) (int64, error) {
	if given != nil {
		return *given, nil
	}
	b, err := tokens.NewSecret(s.core.Rand(), 8)
	if err != nil {
		return 0, err
	}
	return int64(binary.BigEndian.Uint64(b) % maxSeed), nil
}

// planRound decides the next round of st: who plays, whether it is the sm
// final, and the seating.
func planRound(st *tournament.State, seed int64, cons *tournament.DrawConstraints, clock func() time.Time) (*tournament.Round, error) {
	t := &st.Tournament
	if err := canDraw(st); err != nil {
		return nil, err
	}
	active := activePlayers(st.Players)
	n := len(active)
	final := t.Format == tournament.FormatSM && (n <= t.Settings.FinalSize || n <= 4)
	if t.Format == tournament.FormatBridge {
		return planBridgeRound(st, active, seed)
	}
	if n < 3 {
		return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeTooFewPlayers,
			"%d active player(s); a table needs at least 3. Register or reinstate players", n)
	}
	if !final && !splittable(n) {
		return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeCannotSplit,
			"%d active players cannot be split into tables of 3 and 4; register, withdraw or reinstate a player so that the count is 3, 4 or at least 6", n)
	}
	tables, steps, err := seatTables(st, active, seed, cons, clock)
	if err != nil {
		return nil, err
	}
	return &tournament.Round{TournamentID: t.ID, Number: len(st.Rounds) + 1, Seed: seed, Constraints: cons, Final: final,
		Status: tournament.RoundOpen, Tables: tables, SearchSteps: steps}, nil
}

// seatTables seats the active players of the next round (see drawTables).
// An sm draw looks only at the meetings of the same day: the first round
// of a day is a fresh lot (Chicago-SM re-draws the players who go on to day
// 2), and later rounds of the day avoid that day's meetings. Swiss rounds
// follow one plan over all days.
func seatTables(st *tournament.State, active []string, seed int64, cons *tournament.DrawConstraints, clock func() time.Time) ([]tournament.Table, int, error) {
	var order []string // by_standings: the players from the top down
	if seatingMode(&st.Tournament) == seating.ByStandings {
		order = StandingOrder(st, active)
	}
	history := st.Rounds
	if st.Tournament.Format == tournament.FormatSM {
		first := st.Tournament.Settings.FirstRoundOfDay(len(st.Rounds) + 1)
		history = st.Rounds[first-1:]
	}
	return drawTables(&st.Tournament, active, history, order, seed, cons, searchRun{now: clock})
}

// canDraw refuses a draw while a round is open or when the tournament is over.
func canDraw(st *tournament.State) error {
	t := &st.Tournament
	if t.Status == tournament.StatusFinished {
		return tournament.Errorf(tournament.KindConflict, tournament.CodeTournamentFinished, "the tournament is finished")
	}
	if k := len(st.Rounds); k > 0 && st.Rounds[k-1].Status == tournament.RoundOpen {
		return tournament.Errorf(tournament.KindConflict, tournament.CodeRoundOpen, "round %d is still open; close it before drawing the next", k)
	}
	if t.Format.Cumulative() && len(st.Rounds) >= t.Settings.Rounds {
		return tournament.Errorf(tournament.KindConflict, tournament.CodeAllRoundsDrawn, "all %d rounds have been drawn", t.Settings.Rounds)
	}
	return nil
}

// splittable reports whether n players fill tables of 3 and 4.
func splittable(n int) bool { return n == 3 || n == 4 || n >= 6 }

func activePlayers(ps []tournament.Player) []string {
	var out []string
	for _, p := range ps {
		if p.Status == tournament.PlayerActive {
			out = append(out, p.ID)
		}
	}
	return out
}

// StandingOrder returns the active players in the order of the standings.
func StandingOrder(st *tournament.State, active []string) []string {
	in := make(map[string]bool, len(active))
	for _, p := range active {
		in[p] = true
	}
	out := make([]string, 0, len(active))
	for _, row := range tournament.Standings(st) {
		if in[row.Player.ID] {
			out = append(out, row.Player.ID)
		}
	}
	return out
}

// CloseRound ends round n: every game must have a result. In sm it decides
// who advances (the rest are eliminated) and, after the final, the
// champion; in Swiss it records the table ranks and, after the last round,
// finishes the tournament.
//
// A game whose result was entered at the table must be confirmed by all its
// players first (409 unconfirmed_games lists those that are not), unless
// the organizer closes with AcceptUnconfirmed.
func (s *Service) CloseRound(ctx context.Context, a tournament.Actor, tid string, n int, opts ...CloseOption) (*tournament.RoundChange, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	var o closeOptions
	for _, opt := range opts {
		opt(&o)
	}
	var conf *confirmedResults
	if !o.acceptUnconfirmed {
		var err error
		if conf, err = s.confirmedResults(ctx, tid, n); err != nil {
			return nil, err
		}
	}
	return s.store.CloseRound(tournament.AuditAs(ctx, a), tid, n, s.clock(), func(st *tournament.State) (*tournament.RoundChange, error) {
		ch, err := decideClose(st, n, o.askLots)
		if err != nil || conf == nil {
			return ch, err
		}
		return ch, conf.check(st, n)
	})
}

func FindRound(st *tournament.State, n int) (*tournament.Round, error) {
	if n < 1 || n > len(st.Rounds) {
		return nil, tournament.RoundNotFound(n)
	}
	return &st.Rounds[n-1], nil
}

func decideClose(st *tournament.State, n int, askLots bool) (*tournament.RoundChange, error) {
	r, err := FindRound(st, n)
	if err != nil {
		return nil, err
	}
	if r.Status != tournament.RoundOpen {
		return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeRoundClosed, "round %d is already closed", n)
	}
	if err := allGamesPlayed(st, r, nil); err != nil {
		return nil, err
	}
	t := &st.Tournament
	quota := t.AdvanceQuota(r)
	if askLots && t.Settings.Uses(tournament.TiebreakLot) {
		// The same round without the seeded lot: a tie it leaves is the organizer's to break.
		plain := *st
		plain.Tournament.Settings.Tiebreaks = slices.DeleteFunc(slices.Clone(t.Settings.Tiebreaks), func(s string) bool { return s == tournament.TiebreakLot })
		if _, ties := tournament.DecideRound(&plain, r, quota); len(ties) > 0 {
			return nil, tournament.TieError(st, ties)
		}
	}
	outcomes, ties := tournament.DecideRound(st, r, quota)
	if len(ties) > 0 {
		return nil, tournament.TieError(st, ties)
	}
	ch := &tournament.RoundChange{Outcomes: outcomes, TournamentStatus: tournament.StatusRunning}
	status := tournament.PlayerStatuses(st.Players)
	for _, o := range outcomes {
		switch {
		case t.Format == tournament.FormatSM && r.Final && o.Advanced:
			ch.Champion = o.Player
		case t.Format == tournament.FormatSM && !r.Final && !o.Advanced && status[o.Player] == tournament.PlayerActive:
			ch.Eliminated = append(ch.Eliminated, o.Player)
		}
	}
	if (t.Format == tournament.FormatSM && r.Final) || (t.Format.Cumulative() && n >= t.Settings.Rounds) {
		ch.TournamentStatus = tournament.StatusFinished
	}
	return ch, nil
}

// allGamesPlayed answers 409 naming the games of round r (of one table
// when only is set) that have no result yet.
func allGamesPlayed(st *tournament.State, r *tournament.Round, only *tournament.Table) error {
	have := map[[2]int]bool{}
	for _, res := range st.Results {
		if res.Key.Round == r.Number {
			have[[2]int{res.Key.Table, res.Key.Game}] = true
		}
	}
	var missing []map[string]any
	for _, tb := range r.Tables {
		if only != nil && tb.Number != only.Number {
			continue
		}
		for g := 1; g <= st.Tournament.Settings.GamesIn(r.Final); g++ {
			if !have[[2]int{tb.Number, g}] {
				missing = append(missing, map[string]any{"table": tb.Number, "game": g})
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	e := tournament.Errorf(tournament.KindConflict, tournament.CodeGamesMissing, "%d game(s) of round %d have no result yet, first table %v game %v",
		len(missing), r.Number, missing[0]["table"], missing[0]["game"])
	e.Details = map[string]any{"missing": missing}
	return e
}

// ResolveTie records the organizer's order for players the tiebreaks left
// tied in round n: players best first, decided by method (TieByLot or
// TieByChoice). The players must sit at one table and be tied there.
func (s *Service) ResolveTie(ctx context.Context, a tournament.Actor, tid string, n int, players []string, method, note string) (*tournament.TieResolution, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	if method != tournament.TieByLot && method != tournament.TieByChoice {
		return nil, tournament.InvalidField("method", "method must be %q or %q", tournament.TieByLot, tournament.TieByChoice)
	}
	if len(players) < 2 || len(players) > 4 {
		return nil, tournament.InvalidField("players", "a tie resolution orders 2 to 4 players")
	}
	if len(note) > 1000 {
		return nil, tournament.InvalidField("note", "note is longer than 1000 bytes")
	}
	res := &tournament.TieResolution{Round: n, Players: players, Method: method, Note: note, By: a.String(), CreatedAt: s.clock()}
	err := s.store.AddTieResolution(tournament.AuditAs(ctx, a), tid, res, func(st *tournament.State) error {
		if err := checkTie(st, n, players); err != nil {
			return err
		}
		return tieRoom(st, n, players[0])
	})
	return res, err
}

// MaxTieResolutions bounds the tie resolutions one table may have in a
// round: a tie may be resolved again while the round is open (the latest
// stands), but not without end, since every snapshot reads them all.
const MaxTieResolutions = 10

// tieRoom refuses a resolution at player's table of round n when the table
// already has MaxTieResolutions.
func tieRoom(st *tournament.State, n int, player string) error {
	r := &st.Rounds[n-1]
	tb, _ := r.TableOf(player)
	count := 0
	for _, res := range st.Resolutions {
		if res.Round == n && len(res.Players) > 0 && slices.Contains(tb.Players, res.Players[0]) {
			count++
		}
	}
	if count >= MaxTieResolutions {
		return tournament.Errorf(tournament.KindConflict, tournament.CodeTooManyTieResolutions,
			"table %d of round %d already has %d tie resolutions, the most a table may have", tb.Number, n, count)
	}
	return nil
}

// checkTie checks that players are tied at one table of round n, with all
// of that table's games played.
func checkTie(st *tournament.State, n int, players []string) error {
	r, err := FindRound(st, n)
	if err != nil {
		return err
	}
	if r.Status != tournament.RoundOpen {
		return tournament.Errorf(tournament.KindConflict, tournament.CodeRoundClosed, "round %d is closed", n)
	}
	tb, ok := r.TableOf(players[0])
	for _, p := range players {
		if !slices.Contains(tb.Players, p) || !ok {
			return tournament.InvalidField("players", "%s does not sit at the same table as %s in round %d", p, players[0], n)
		}
	}
	if dup := duplicate(players); dup != "" {
		return tournament.InvalidField("players", "%s is listed twice", dup)
	}
	if err := allGamesPlayed(st, r, &tb); err != nil {
		return err
	}
	if tournament.SplitsTie(st, n, r, tb, players) {
		return tournament.Errorf(tournament.KindConflict, tournament.CodeNotTied, "these players are not tied: their round scores and tiebreaks differ")
	}
	return nil
}

func duplicate(ps []string) string {
	seen := map[string]bool{}
	for _, p := range ps {
		if seen[p] {
			return p
		}
		seen[p] = true
	}
	return ""
}

// Redraw recomputes the tables of a draw from its public inputs with the
// code the draw used (package referee's ReplayDraw): the format, the
// seating and number of rounds of a Swiss tournament, the players seated,
// the rounds before, the standings order (by_standings), the seed, the
// constraints and where the clock cut the search (steps; 0 when it did not).
func Redraw(f tournament.Format, seating string, rounds int, players []string, history []tournament.Round, standings []string,
	seed int64, c *tournament.DrawConstraints, steps int) ([]tournament.Table, error) {
	t := &tournament.Tournament{Format: f, Settings: tournament.Settings{Rounds: rounds, Seating: seating}}
	var order []string
	if seating == tournament.SeatingByStandings && f == tournament.FormatSwiss {
		order = standings
	}
	tables, _, err := drawTables(t, players, history, order, seed, c, searchRun{steps: steps, replay: true})
	return tables, err
}
