package play

import (
	"context"
	"slices"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/tournament"
)

// The table protocol's rules on the server's side (docs/table-protocol.md):
// a conflict is answered with the deal the game holds, so that the phone
// can show both versions; a player withdrawn during a game scores nothing
// after leaving.

// withdrawnIn returns the players withdrawn from table tb during game g or
// before it: they take no part in g after leaving.
func withdrawnIn(tb tournament.Table, g int) []string {
	var out []string
	for _, w := range tb.WithdrawnFrom(g) {
		out = append(out, w.Player)
	}
	return out
}

// refuseWithdrawnScore refuses deal dr of game g when it gives points to
// a player withdrawn from the table during g or before: after "the others
// finish the game" the player's seat scores nothing (docs/tournaments.md).
// The message names the player.
func (s *Service) refuseWithdrawnScore(ctx context.Context, tid string, tb tournament.Table, g int, dr *engine.DealResult) error {
	gone := withdrawnIn(tb, g)
	if len(gone) == 0 || dr == nil {
		return nil
	}
	i := slices.IndexFunc(dr.Awards, func(a engine.Award) bool { return a.Points != 0 && slices.Contains(gone, a.Player) })
	if i < 0 {
		return nil
	}
	pid := dr.Awards[i].Player
	name := pid
	if ps, err := s.store.Players(ctx, tid); err == nil {
		if j := slices.IndexFunc(ps, func(p tournament.Player) bool { return p.ID == pid }); j >= 0 {
			name = ps[j].Name
		}
	}
	e := tournament.Errorf(tournament.KindConflict, tournament.CodePlayerWithdrawn, "%s was withdrawn during game %d and scores nothing after leaving; enter the deal without %s's points", name, withdrawalGame(tb, pid), name)
	e.Details = map[string]any{"player": pid, "name": name}
	return e
}

// withdrawalGame is the game player pid left table tb in (0: none).
func withdrawalGame(tb tournament.Table, pid string) int {
	for _, w := range tb.Withdrawals {
		if w.Player == pid {
			return w.Game
		}
	}
	return 0
}
