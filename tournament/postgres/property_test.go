package postgres_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/internal/racecheck"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// TestRandomTournaments plays random tournaments with the engine's
// simulator and checks, after every round: the standings equal a
// recomputation from the stored records (each re-checked by the engine),
// and in sm everyone who advanced had a round at least as good as everyone
// at the same table who did not (equal only where the lot decided).
func TestRandomTournaments(t *testing.T) {
	t.Parallel()
	racecheck.OutOfRace(t) // the draw's search
	runs := 6
	if testing.Short() {
		runs = 2
	}
	for run := range runs {
		rng := rand.New(rand.NewPCG(uint64(run), 99))
		e := newEnv(t)
		format := []tournament.Format{tournament.FormatSM, tournament.FormatSwiss}[run%2]
		nt := tournament.NewTournament{Name: "random", Format: format, GamesPerRound: intp(1 + rng.IntN(3))}
		if format == tournament.FormatSwiss {
			nt.Rounds = intp(2 + rng.IntN(3))
		}
		n := 7 + rng.IntN(16) // at least 6 left after a withdrawal
		c, ps := e.mustTournament(t, nt, n)
		tid := c.Tournament.ID
		if rng.IntN(2) == 0 { // someone withdraws before round 1
			w := tournament.PlayerWithdrawn
			if _, err := e.svc.UpdatePlayer(e.ctx, org, tid, ps[rng.IntN(n)].ID, tournament.PlayerUpdate{Status: &w}); err != nil {
				t.Fatal(err)
			}
		}
		games, rounds := *nt.GamesPerRound, 0
		for round := 1; ; round++ {
			r, err := e.plays.DrawRound(e.ctx, org, tid, nil)
			if err != nil {
				if code := tournament.ErrorCode(err); code == "tournament_finished" || code == "cannot_split" {
					break
				}
				t.Fatalf("run %d: DrawRound %d: %v", run, round, err)
			}
			sheets := rng.Float64()
			e.playRound(t, tid, r, games, func(tb tournament.Table, g int) []byte {
				return tournamenttest.SimGame(rng.Uint64(), tb.Players, tb.FirstDealerOf(g), sheets)
			})
			rounds++
			ch, err := e.plays.CloseRound(e.ctx, org, tid, r.Number)
			if err != nil {
				t.Fatalf("run %d: CloseRound %d: %v", run, round, err)
			}
			checkStandings(t, e, tid)
			if format == tournament.FormatSM {
				checkAdvancement(t, e, tid, r, ch)
			}
			if ch.TournamentStatus == tournament.StatusFinished {
				break
			}
		}
		t.Logf("run %d: %s, %d players, %d games a round, %d rounds played", run, format, n, games, rounds)
		tt, err := e.svc.Tournament(e.ctx, tid)
		if err != nil || tt.Status != tournament.StatusFinished || (format == tournament.FormatSM) != (tt.Champion != "") {
			t.Errorf("run %d (%s, %d players): tournament %+v, %v; want finished (with a champion in sm)", run, format, n, tt, err)
		}
	}
}

// checkStandings recomputes every player's totals from the stored records
// through the engine and compares them with the standings.
func checkStandings(t *testing.T, e *env, tid string) {
	t.Helper()
	tt, rows, err := e.svc.Standings(e.ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	results, err := e.store.Results(e.ctx, tid, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]*tournament.Stats{}
	for _, res := range results {
		g, err := engine.DecodeGame(res.Record)
		if err != nil {
			t.Fatalf("stored record of %+v does not decode: %v", res.Key, err)
		}
		out := engine.CheckGame(g, engine.GameOptions{})
		for _, p := range out.Placements {
			s := want[p.Player]
			if s == nil {
				s = &tournament.Stats{}
				want[p.Player] = s
			}
			s.PlacementPoints += tt.Settings.PlacementPoints[p.Place-1]
			s.GamePoints += p.Score
			s.GamesPlayed++
			if p.Place == 1 {
				s.GamesWon++
			}
			s.BestGame = max(s.BestGame, p.Score)
		}
	}
	for _, row := range rows {
		w := want[row.Player.ID]
		if w == nil {
			w = &tournament.Stats{}
		}
		if row.Stats != *w {
			t.Errorf("standings of %s = %+v, recomputed %+v", row.Player.ID, row.Stats, *w)
		}
	}
	if tt.Format == tournament.FormatSwiss {
		for i := 1; i < len(rows); i++ {
			a, b := rows[i-1], rows[i]
			ka := []int{a.PlacementPoints, a.GamePoints, a.GamesWon, a.BestGame}
			kb := []int{b.PlacementPoints, b.GamePoints, b.GamesWon, b.BestGame}
			if slices.Compare(ka, kb) < 0 || (slices.Equal(ka, kb) != (a.Rank == b.Rank)) {
				t.Errorf("swiss standings out of order at %d: %+v then %+v", i, a, b)
			}
		}
	}
}

// checkAdvancement checks the sm advancement property of round r.
func checkAdvancement(t *testing.T, e *env, tid string, r *tournament.Round, ch *tournament.RoundChange) {
	t.Helper()
	st, err := e.store.State(e.ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	key := map[string][]int{}
	for _, res := range st.Results {
		if res.Key.Round != r.Number {
			continue
		}
		for _, p := range res.Places {
			k := key[p.Player]
			if k == nil {
				k = make([]int, 4)
			}
			k[0] += p.Points
			k[1] += p.Score
			if p.Place == 1 {
				k[2]++
			}
			k[3] = max(k[3], p.Score)
			key[p.Player] = k
		}
	}
	status := map[string]tournament.PlayerStatus{}
	for _, p := range st.Players {
		status[p.ID] = p.Status
	}
	for _, tb := range r.Tables {
		var in, out []string
		for _, o := range ch.Outcomes {
			switch {
			case o.Table != tb.Number:
			case o.Advanced:
				in = append(in, o.Player)
			case status[o.Player] != tournament.PlayerWithdrawn:
				out = append(out, o.Player)
			}
		}
		quota := st.Tournament.Settings.AdvanceIn(r.Number)
		if r.Final {
			quota = 1
		}
		if len(in) != min(quota, len(in)+len(out)) {
			t.Errorf("round %d table %d: %d advanced, want %d", r.Number, tb.Number, len(in), quota)
		}
		for _, a := range in {
			if status[a] == tournament.PlayerWithdrawn {
				t.Errorf("withdrawn %s advanced", a)
			}
			for _, b := range out {
				if slices.Compare(key[a], key[b]) < 0 {
					t.Errorf("round %d table %d: %s advanced with %v over %s with %v", r.Number, tb.Number, a, key[a], b, key[b])
				}
			}
		}
	}
}
