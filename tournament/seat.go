package tournament

import (
	"errors"

	"github.com/revisor-sm/revisor/tournament/seating"
)

// seatRound seats players for a round with the seating package: the sm
// draw, or the Swiss mixed or by-standings seating when order (the players
// best first) is given or the format asks for it. history holds the
// earlier rounds' tables. The first dealer is the player in seat 1.
//
// Tables of 3 are stored without their empty seat, so the history the
// seating reads puts the empty seat of an earlier table of 3 last.
func seatRound(players []string, history []seating.Past, mode seating.Mode, order []string, seed int64) ([]Table, error) {
	res, err := seating.Round(seating.Params{Players: players, History: history, Mode: mode,
		Standings: order, Seed: uint64(seed)})
	if err != nil {
		var se *seating.SplitError
		if errors.As(err, &se) {
			return nil, Errorf(KindConflict, "cannot_split", "%s", se.Error())
		}
		return nil, err
	}
	tables := make([]Table, len(res.Tables))
	for i, t := range res.Tables {
		ids := make([]string, 0, 4)
		for _, p := range t.Players() {
			ids = append(ids, players[p])
		}
		tables[i] = Table{Number: i + 1, Players: ids, FirstDealer: players[t.Dealer()]}
	}
	return tables, nil
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
