package sim_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/sim"
)

// randomRules picks a value for every switch of docs/game-rules.md at random.
func randomRules(t *testing.T, rng *rand.Rand) (engine.Rules, map[string]any) {
	t.Helper()
	pick := func(vs ...any) any { return vs[rng.IntN(len(vs))] }
	ov := map[string]any{
		"players":                   pick("3-4", "2-4"),
		"first_lead":                pick("left_of_dealer", "chicago_declarer"),
		"negative_scores":           pick(false, true),
		"chicago_min_score":         pick(0, 10, 15, 20, nil),
		"chicago_points":            pick(10, 15, 20),
		"chicago_stacks_last_trick": pick(false, true),
		"last_trick_points":         pick(0, 5, 7),
		"exchange_stop":             pick(30, 46, nil),
		"open_card":                 pick("on_request", "off"),
		"stock_exhaustion":          pick("reshuffle", "forbid"),
		"quads_reset_opponents":     pick(false, true),
		"win_requires_chicago":      pick(false, false, true),
		"suit_order":                pick("none", "shdc", "cdhs"),
		"royal_instant_win":         pick(false, true),
		"target":                    pick(30, 52, 70),
		"false_announcement":        pick("forfeit_game", "penalty"),
		"show_on_break":             pick(true, false),
	}
	if rng.IntN(2) == 0 {
		ov["hand_points"] = map[string]any{"pair": 2, "two_pair": 3, "three_of_a_kind": 4, "straight": 6,
			"flush": 7, "full_house": 9, "four_of_a_kind": 12, "straight_flush": 20, "royal_straight_flush": 40}
	}
	return rulesOf(t, variant{overrides: ov}), ov
}

// TestRandomRuleSets plays whole games under random rule sets, with some
// violations, and checks each game as the other property tests do: valid,
// violations as an independent replay finds them, awards as recomputed,
// scores adding up, placements, and the score sheet scoring the same when
// nobody forfeited.
func TestRandomRuleSets(t *testing.T) {
	t.Parallel()
	const games = 100
	rng := rand.New(rand.NewPCG(2026, 11))
	deals, violations, byTime, forfeits := 0, 0, 0, 0
	for i := 0; i < games; i++ {
		r, ov := randomRules(t, rng)
		n := r.MinPlayers + rng.IntN(r.MaxPlayers-r.MinPlayers+1)
		opt := sim.DefaultOptions()
		opt.MaxDeals = 60
		opt.NoDeck = rng.IntN(3) == 0
		if rng.IntN(2) == 0 {
			opt.Revoke, opt.UnshownBreak, opt.ExchangeAfterStop, opt.Bluff = 0.05, 0.3, 0.2, 0.01
		}
		seed := uint64(i + 1)
		name := fmt.Sprintf("rules %v, %d players, options %+v", ov, n, opt)
		s := sim.NewWithOptions(seed, r, opt)
		players := sim.Players(n)
		g := s.Game(players, players[rng.IntN(n)])
		res := engine.CheckGame(g, engine.GameOptions{})
		if !res.Valid {
			t.Fatalf("%s: CheckGame invalid %+v", name, res.Errors)
		}
		var got, want []string
		for k, gd := range g.Deals {
			for _, v := range res.Deals[k].Violations {
				got = append(got, fmt.Sprintf("%d %s %s %s", k, v.Code, v.Path, v.Player))
			}
			for _, v := range expectedViolations(gd.Deal) {
				want = append(want, fmt.Sprintf("%d %s", k, v))
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: violations %q, want %q", name, got, want)
		}
		checkGameScores(t, name, seed, g, res)
		checkPlacements(t, name, seed, res)
		checkGameRoundTrip(t, name, seed, g, res)
		if len(res.Forfeits) == 0 {
			checkSheetGame(t, name, seed, s, g, res)
		}
		deals += len(g.Deals)
		violations += len(res.Violations)
		forfeits += len(res.Forfeits)
		if g.EndedBy == engine.EndedByTime {
			byTime++
		}
	}
	t.Logf("%d games, %d deals, %d violations, %d forfeits, %d ended by time", games, deals, violations, forfeits, byTime)
	if violations == 0 || byTime == games {
		t.Errorf("the random rule sets do not exercise violations or finished games")
	}
}
