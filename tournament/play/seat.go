package play

import (
	"errors"
	"time"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/seating"
)

// drawTables seats players for the round after history with the seating
// package: the sm draw, or the Swiss mixed or by-standings seating (order
// lists the players best first for by_standings). The seed is the round's
// own. A Swiss mixed round passes the tournament's number of rounds and
// round 1's seed as the plan seed, so that the seating follows one plan of
// the whole tournament while the field and the earlier tables are those of
// that plan (16 players over 5 rounds without a repeat meeting), and seats
// the round on its own otherwise. The first dealer is the player in the
// lowest occupied seat. cons, when set, are the organizer's fixed tables
// and players kept apart (the round is then seated on its own). The steps
// returned are where the clock cut the search short (Round.SearchSteps), 0
// when it did not.
func drawTables(t *tournament.Tournament, players []string, history []tournament.Round, order []string, seed int64, cons *tournament.DrawConstraints, run searchRun) ([]tournament.Table, int, error) {
	p := seating.Params{Players: players, History: pastRounds(history), Mode: seatingMode(t),
		Standings: order, Seed: uint64(seed), Constraints: cons.Seating(), Steps: run.steps, Replay: run.replay, Now: run.now}
	if p.Mode == seating.Mixed && t.Format == tournament.FormatSwiss {
		p.Rounds, p.PlanSeed = t.Settings.Rounds, uint64(seed)
		if len(history) > 0 {
			p.PlanSeed = uint64(history[0].Seed)
		}
	}
	res, err := seating.Round(p)
	if err != nil {
		var se *seating.SplitError
		if errors.As(err, &se) {
			return nil, 0, tournament.Errorf(tournament.KindConflict, tournament.CodeCannotSplit, "%s", se.Error())
		}
		var ce *seating.ConstraintError
		if errors.As(err, &ce) {
			return nil, 0, tournament.Errorf(tournament.KindConflict, tournament.CodeCannotFixTable, "%s", ce.Error())
		}
		return nil, 0, err
	}
	return tablesOf(res.Seating, players), res.Steps, nil
}

// searchRun is how a draw's seating search is bounded besides its work:
// a replay of a published draw (replay), which never reads the clock and
// stops where the clock cut the draw's search (steps, Round.SearchSteps,
// when positive) or at its work bound as the draw did; or the clock its
// time budget reads (nil: time.Now).
type searchRun struct {
	steps  int
	replay bool
	now    func() time.Time
}

// pastRounds turns earlier rounds into the seating's history, each
// player in the seat they sat in (a table of 3 keeps its empty seat).
func pastRounds(rounds []tournament.Round) []seating.Past {
	out := make([]seating.Past, len(rounds))
	for i, r := range rounds {
		out[i] = make(seating.Past, len(r.Tables))
		for j, t := range r.Tables {
			for k, seat := range t.SeatNumbers() {
				out[i][j][seat-1] = t.Players[k]
			}
		}
	}
	return out
}

// seatingMode is the seating a round of t asks for.
func seatingMode(t *tournament.Tournament) seating.Mode {
	switch {
	case t.Format == tournament.FormatSM:
		return seating.Draw
	case t.Settings.Seating == tournament.SeatingByStandings:
		return seating.ByStandings
	}
	return seating.Mixed
}

// tablesOf names a seating's tables by player id, players in seat order
// with the seat each sits in.
func tablesOf(s seating.Seating, players []string) []tournament.Table {
	out := make([]tournament.Table, len(s.Tables))
	for i, t := range s.Tables {
		tb := tournament.Table{Number: i + 1, Players: make([]string, 0, 4), Seats: make([]int, 0, 4), FirstDealer: players[t.Dealer()]}
		for seat, p := range t.Seats {
			if p != seating.Empty {
				tb.Players = append(tb.Players, players[p])
				tb.Seats = append(tb.Seats, seat+1)
			}
		}
		out[i] = tb
	}
	return out
}
