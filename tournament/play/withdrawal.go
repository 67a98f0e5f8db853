package play

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/revisor-sm/revisor/tournament"
)

// Withdrawal is the organizer's request to withdraw a player during a game.
type Withdrawal struct {
	Player   string
	Handling tournament.WithdrawalHandling
	Reason   string
}

// WithdrawDuringGame withdraws a player of table t of round n during the
// game in progress there (the first of the table's games without a
// result), with the organizer's choice of how that game counts and why.
// The player is withdrawn from the tournament in the same transaction. The
// game's result, when the table enters it, and the table's later games in
// the round place the player as the choice says (placesWithWithdrawals).
func (s *Service) WithdrawDuringGame(ctx context.Context, a tournament.Actor, tid string, n, t int, w Withdrawal) (*tournament.GameWithdrawal, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	w.Reason = strings.TrimSpace(w.Reason)
	if err := tournament.CheckLine("reason", w.Reason, tournament.MaxReason, true); err != nil {
		return nil, err
	}
	if w.Handling != tournament.WithdrawFinish && w.Handling != tournament.WithdrawForfeit {
		return nil, tournament.InvalidField("handling", "handling must be \"finish\" (the others finish the game) or \"forfeit\", not %q", w.Handling)
	}
	if strings.TrimSpace(w.Player) == "" {
		return nil, tournament.InvalidField("player", "player is required")
	}
	ctx = tournament.AuditBecause(ctx, a, w.Reason)
	return s.store.WithdrawDuringGame(ctx, tid, n, t, w.Player,
		func(tn *tournament.Tournament, r *tournament.Round, played []int, p tournament.Player) (*tournament.GameWithdrawal, error) {
			return planWithdrawal(tn, r, played, p, w, a.AuditName(), s.clock())
		})
}

// planWithdrawal checks a withdrawal against the round, the games of the
// table that have a result (played) and the player as they are, and makes
// its record.
func planWithdrawal(t *tournament.Tournament, r *tournament.Round, played []int, p tournament.Player, w Withdrawal, by string, now time.Time) (*tournament.GameWithdrawal, error) {
	if err := roundOpen(r); err != nil {
		return nil, err
	}
	if t.Format == tournament.FormatBridge {
		return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeInvalidStatusChange, "a bridge match cannot go on without a player; withdraw %s after the match", p.Name)
	}
	tb := r.Tables[0]
	if !slices.Contains(tb.Players, p.ID) {
		return nil, tournament.Errorf(tournament.KindConflict, tournament.CodePlayerNotAtTable, "%s does not play at table %d in round %d", p.Name, tb.Number, r.Number)
	}
	if p.Status != tournament.PlayerActive {
		return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeInvalidStatusChange, "%s is %s already", p.Name, p.Status)
	}
	if len(tb.Players)-len(tb.Withdrawals) <= 2 {
		return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeTooFewPlayers,
			"table %d would have fewer than two players left to finish the game; withdraw %s after the table's games", tb.Number, p.Name)
	}
	game := 0
	for g := 1; g <= t.Settings.GamesIn(r.Final); g++ {
		if !slices.Contains(played, g) {
			game = g
			break
		}
	}
	if game == 0 {
		return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeNoGameInProgress,
			"every game of table %d in round %d has its result; %s can be withdrawn from the next round on the players page", tb.Number, r.Number, p.Name)
	}
	return &tournament.GameWithdrawal{Player: p.ID, Round: r.Number, Table: tb.Number, Game: game, Handling: w.Handling,
		Reason: w.Reason, By: by, CreatedAt: now}, nil
}

// placesWithWithdrawals places the players withdrawn during game g (or
// before it, in the same round) after everybody who stayed: the others keep
// their order and close up (a player who stayed is placed one better for
// each withdrawn player the engine had put ahead of them); the withdrawn
// share the last place. In the game they left, under "finish" they keep
// their total and get the last place's points; under "forfeit", and in
// every later game (which they did not play), no points and no game points.
func placesWithWithdrawals(places []tournament.GamePlace, gone []tournament.GameWithdrawal, g int, s tournament.Settings) []tournament.GamePlace {
	if len(gone) == 0 {
		return places
	}
	handling := make(map[string]tournament.GameWithdrawal, len(gone))
	for _, w := range gone {
		handling[w.Player] = w
	}
	out := slices.Clone(places)
	stayed := 0
	for i, p := range out {
		if _, ok := handling[p.Player]; ok {
			continue
		}
		stayed++
		better := 0
		for _, q := range places {
			if _, ok := handling[q.Player]; !ok && q.Place < p.Place {
				better++
			}
		}
		out[i].Place = better + 1
		out[i].Points = s.PointsFor(out[i].Place)
	}
	for i, p := range out {
		w, ok := handling[p.Player]
		if !ok {
			continue
		}
		out[i].Place = stayed + 1
		if w.Handling == tournament.WithdrawFinish && w.Game == g {
			out[i].Points = s.PointsFor(out[i].Place)
			continue
		}
		out[i].Points, out[i].Score, out[i].Forfeit = 0, 0, w.Handling == tournament.WithdrawForfeit
	}
	slices.SortStableFunc(out, func(a, b tournament.GamePlace) int { return a.Place - b.Place })
	return out
}
