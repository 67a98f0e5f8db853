package tournament

import (
	"context"
	"slices"
	"strings"
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
func (s *Service) ReseatTable(ctx context.Context, a Actor, tid string, n int, rs Reseat) (*Round, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	rs.Reason = strings.TrimSpace(rs.Reason)
	if err := CheckLine("reason", rs.Reason, MaxReason, true); err != nil {
		return nil, err
	}
	switch {
	case rs.Player == "":
		return nil, InvalidField("player", "player is required: the player to re-seat")
	case (rs.With == "") == (rs.Table == 0):
		return nil, InvalidField("with", "give either with (a player to swap places with) or table (a table to move to), not both")
	}
	ctx = AuditBecause(ctx, a, rs.Reason)
	return s.store.Reseat(ctx, tid, n, func(t *Tournament, r *Round, started []int) ([]Table, error) {
		return planReseat(t, r, started, rs)
	})
}

// planReseat checks a re-seating against the round as it is (started: the
// tables with a deal or a result) and returns the tables it changes.
func planReseat(t *Tournament, r *Round, started []int, rs Reseat) ([]Table, error) {
	if err := roundOpen(r); err != nil {
		return nil, err
	}
	from, ok := r.TableOf(rs.Player)
	if !ok {
		return nil, Errorf(KindConflict, CodePlayerNotAtTable, "%s is not seated in round %d", rs.Player, r.Number)
	}
	var to Table
	if rs.With != "" {
		if to, ok = r.TableOf(rs.With); !ok {
			return nil, Errorf(KindConflict, CodePlayerNotAtTable, "%s is not seated in round %d", rs.With, r.Number)
		}
		if to.Number == from.Number {
			return nil, InvalidField("with", "%s and %s already sit at table %d", rs.Player, rs.With, to.Number)
		}
	} else {
		if to, ok = r.Table(rs.Table); !ok {
			return nil, Errorf(KindNotFound, CodeTableNotFound, "round %d has no table %d", r.Number, rs.Table)
		}
		if to.Number == from.Number {
			return nil, InvalidField("table", "%s already sits at table %d", rs.Player, to.Number)
		}
		if min := minTable(t.Format); len(from.Players) <= min || len(to.Players) >= 4 {
			return nil, Errorf(KindConflict, CodeCannotSplit,
				"moving %s would leave table %d with %d players or table %d with %d; tables seat %d to 4: swap two players instead",
				rs.Player, from.Number, len(from.Players)-1, to.Number, len(to.Players)+1, min)
		}
	}
	for _, tb := range []Table{from, to} {
		if slices.Contains(started, tb.Number) || len(tb.Withdrawals) > 0 {
			return nil, Errorf(KindConflict, CodeTableHasResult,
				"table %d has started (a deal or a result is entered): a table can be re-seated only before its first result", tb.Number)
		}
	}
	if rs.With != "" {
		return []Table{from.replace(rs.Player, rs.With), to.replace(rs.With, rs.Player)}, nil
	}
	return []Table{from.without(rs.Player), to.with(rs.Player)}, nil
}

// minTable is the fewest players a table of the format seats.
func minTable(f Format) int {
	if f == FormatBridge {
		return 4
	}
	return 3
}

// replace puts player in out's seat (and deal).
func (t Table) replace(out, player string) Table {
	t.Players = slices.Clone(t.Players)
	t.Players[slices.Index(t.Players, out)] = player
	if t.FirstDealer == out {
		t.FirstDealer = player
	}
	return t
}

// without takes player from the table; the deal passes to the next seat.
func (t Table) without(player string) Table {
	seats, i := t.SeatNumbers(), slices.Index(t.Players, player)
	if t.FirstDealer == player {
		t.FirstDealer = t.Players[(i+1)%len(t.Players)]
	}
	t.Players = slices.Delete(slices.Clone(t.Players), i, i+1)
	t.Seats = slices.Delete(seats, i, i+1)
	return t
}

// with seats player in the table's first free seat.
func (t Table) with(player string) Table {
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
