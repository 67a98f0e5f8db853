package play

import (
	"context"
	"slices"
	"strings"

	"github.com/revisor-sm/revisor/tournament"
)

// Reseat is the organizer's correction of a wrong seating in an open
// round: Player swaps places with With (at another table), or moves to
// Table (which has a seat free). Only tables that have not started (no
// deal, no result, nobody withdrawn there) can change.
type Reseat struct {
	Player string
	With   string
	Table  int
	Reason string
}

// ReseatTable corrects the seating of round n and returns the round as it
// now is. The tables' codes stay (a code belongs to a table number); the
// tables as drawn are kept so that the draw still verifies from its seed
// (docs/tournaments.md, "Re-seating a table").
func (s *Service) ReseatTable(ctx context.Context, a tournament.Actor, tid string, n int, rs Reseat) (*tournament.Round, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	rs.Reason = strings.TrimSpace(rs.Reason)
	if err := tournament.CheckLine("reason", rs.Reason, tournament.MaxReason, true); err != nil {
		return nil, err
	}
	switch {
	case rs.Player == "":
		return nil, tournament.InvalidField("player", "player is required: the player to re-seat")
	case (rs.With == "") == (rs.Table == 0):
		return nil, tournament.InvalidField("with", "give either with (a player to swap places with) or table (a table to move to), not both")
	}
	ctx = tournament.AuditBecause(ctx, a, rs.Reason)
	return s.store.Reseat(ctx, tid, n, func(t *tournament.Tournament, r *tournament.Round, started []int) ([]tournament.Table, error) {
		return planReseat(t, r, started, rs)
	})
}

// planReseat checks a re-seating against the round as it is (started: the
// tables with a deal or a result) and returns the tables it changes.
func planReseat(t *tournament.Tournament, r *tournament.Round, started []int, rs Reseat) ([]tournament.Table, error) {
	if err := roundOpen(r); err != nil {
		return nil, err
	}
	from, ok := r.TableOf(rs.Player)
	if !ok {
		return nil, tournament.Errorf(tournament.KindConflict, tournament.CodePlayerNotAtTable, "%s is not seated in round %d", rs.Player, r.Number)
	}
	var to tournament.Table
	if rs.With != "" {
		if to, ok = r.TableOf(rs.With); !ok {
			return nil, tournament.Errorf(tournament.KindConflict, tournament.CodePlayerNotAtTable, "%s is not seated in round %d", rs.With, r.Number)
		}
		if to.Number == from.Number {
			return nil, tournament.InvalidField("with", "%s and %s already sit at table %d", rs.Player, rs.With, to.Number)
		}
	} else {
		if to, ok = r.Table(rs.Table); !ok {
			return nil, tournament.Errorf(tournament.KindNotFound, tournament.CodeTableNotFound, "round %d has no table %d", r.Number, rs.Table)
		}
		if to.Number == from.Number {
			return nil, tournament.InvalidField("table", "%s already sits at table %d", rs.Player, to.Number)
		}
		if min := minTable(t.Format); len(from.Players) <= min || len(to.Players) >= 4 {
			return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeCannotSplit,
				"moving %s would leave table %d with %d players or table %d with %d; tables seat %d to 4: swap two players instead",
				rs.Player, from.Number, len(from.Players)-1, to.Number, len(to.Players)+1, min)
		}
	}
	for _, tb := range []tournament.Table{from, to} {
		if slices.Contains(started, tb.Number) || len(tb.Withdrawals) > 0 {
			return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeTableHasResult,
				"table %d has started (a deal or a result is entered): a table can be re-seated only before its first result", tb.Number)
		}
	}
	if rs.With != "" {
		return []tournament.Table{replaced(from, rs.Player, rs.With), replaced(to, rs.With, rs.Player)}, nil
	}
	return []tournament.Table{without(from, rs.Player), with(to, rs.Player)}, nil
}

// minTable is the fewest players a table of the format seats.
func minTable(f tournament.Format) int {
	if f == tournament.FormatBridge {
		return 4
	}
	return 3
}

// replaced is t with player in out's seat (and deal).
func replaced(t tournament.Table, out, player string) tournament.Table {
	t.Players = slices.Clone(t.Players)
	t.Players[slices.Index(t.Players, out)] = player
	if t.FirstDealer == out {
		t.FirstDealer = player
	}
	return t
}

// without is t without player; the deal passes to the next seat.
func without(t tournament.Table, player string) tournament.Table {
	seats, i := t.SeatNumbers(), slices.Index(t.Players, player)
	if t.FirstDealer == player {
		t.FirstDealer = t.Players[(i+1)%len(t.Players)]
	}
	t.Players = slices.Delete(slices.Clone(t.Players), i, i+1)
	t.Seats = slices.Delete(seats, i, i+1)
	return t
}

// with is t with player in its first free seat.
func with(t tournament.Table, player string) tournament.Table {
	seats := t.SeatNumbers()
	free := 1
	for slices.Contains(seats, free) {
		free++
	}
	i, _ := slices.BinarySearch(seats, free)
	t.Players = slices.Insert(slices.Clone(t.Players), i, player)
	t.Seats = slices.Insert(seats, i, free)
	return t
}
