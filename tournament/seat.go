package tournament

import (
	"errors"
	"slices"

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

// maxPlanned is the largest field seated from a whole-tournament plan; the
// plan is recomputed at each draw, so it must stay quick.
const maxPlanned = 100

// plannedRound seats a Swiss "mixed" round from a plan of all the
// tournament's rounds made in one go (seating.Plan), which reaches schedules
// a round-by-round search cannot (16 players over 5 rounds without a
// repeat meeting). It applies while the field is the same as in round 1 and
// every earlier round followed the plan; the plan's seed is round 1's, and
// each planned round stores it. ok is false when the plan does not apply.
func plannedRound(st *State, active []string, given *int64, seed int64) (tables []Table, planSeed int64, ok bool) {
	t := &st.Tournament
	k := len(st.Rounds)
	if t.Format != FormatSwiss || t.Settings.Seating != SeatingMixed || len(active) > maxPlanned || t.Settings.Rounds < 2 {
		return nil, 0, false
	}
	planSeed = seed
	if k > 0 {
		planSeed = st.Rounds[0].Seed
	}
	if given != nil && *given != planSeed {
		return nil, 0, false
	}
	sched, err := seating.Plan(len(active), t.Settings.Rounds, seating.Options{Mode: seating.Mixed, Seed: uint64(planSeed)})
	if err != nil || sched.TimedOut || k >= len(sched.Rounds) {
		return nil, 0, false
	}
	for i := range k {
		if st.Rounds[i].Seed != planSeed || !sameTables(st.Rounds[i].Tables, tablesOf(sched.Rounds[i], active)) {
			return nil, 0, false
		}
	}
	return tablesOf(sched.Rounds[k], active), planSeed, true
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

func sameTables(a, b []Table) bool {
	return slices.EqualFunc(a, b, func(x, y Table) bool {
		return x.FirstDealer == y.FirstDealer && slices.Equal(x.Players, y.Players)
	})
}
