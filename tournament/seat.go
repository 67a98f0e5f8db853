package tournament

import (
	"errors"

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
// lowest occupied seat.
func drawTables(t *Tournament, players []string, history []Round, order []string, seed int64) ([]Table, error) {
	p := seating.Params{Players: players, History: pastRounds(history), Mode: seatingMode(t),
		Standings: order, Seed: uint64(seed)}
	if p.Mode == seating.Mixed && t.Format == FormatSwiss {
		p.Rounds, p.PlanSeed = t.Settings.Rounds, uint64(seed)
		if len(history) > 0 {
			p.PlanSeed = uint64(history[0].Seed)
		}
	}
	res, err := seating.Round(p)
	if err != nil {
		var se *seating.SplitError
		if errors.As(err, &se) {
			return nil, Errorf(KindConflict, "cannot_split", "%s", se.Error())
		}
		return nil, err
	}
	return tablesOf(res.Seating, players), nil
}

// pastRounds turns earlier rounds into the seating's history.
func pastRounds(rounds []Round) []seating.Past {
	out := make([]seating.Past, len(rounds))
	for i, r := range rounds {
		out[i] = make(seating.Past, len(r.Tables))
		for j, t := range r.Tables {
			copy(out[i][j][:], t.Players)
		}
	}
	return out
}

// seatingMode is the seating a round of t asks for.
func seatingMode(t *Tournament) seating.Mode {
	switch {
	case t.Format == FormatSM:
		return seating.Draw
	case t.Settings.Seating == SeatingByStandings:
		return seating.ByStandings
	}
	return seating.Mixed
}

// tablesOf names a seating's tables by player id.
func tablesOf(s seating.Seating, players []string) []Table {
	out := make([]Table, len(s.Tables))
	for i, t := range s.Tables {
		ids := make([]string, 0, 4)
		for _, p := range t.Players() {
			ids = append(ids, players[p])
		}
		out[i] = Table{Number: i + 1, Players: ids, FirstDealer: players[t.Dealer()]}
	}
	return out
}
