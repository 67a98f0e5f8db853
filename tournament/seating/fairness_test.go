package seating_test

import (
	"math"
	"testing"

	"github.com/revisor-sm/revisor/tournament/seating"
)

// chiSquare returns Pearson's statistic for how often each player sat at
// each table over many round-1 draws, against the uniform expectation
// (draws × table size / players).
func chiSquare(n, draws int, round1 func(seed uint64) seating.Seating) float64 {
	sizes, _ := seating.SplitTables(n)
	obs := make([][]int, n)
	for p := range obs {
		obs[p] = make([]int, len(sizes))
	}
	for seed := range uint64(draws) {
		for t, tb := range round1(seed + 1).Tables {
			for _, p := range tb.Players() {
				obs[p][t]++
			}
		}
	}
	chi := 0.0
	for p := range obs {
		for t, o := range obs[p] {
			exp := float64(draws*sizes[t]) / float64(n)
			chi += (float64(o) - exp) * (float64(o) - exp) / exp
		}
	}
	return chi
}

// chiCritical is the 0.999 quantile of the chi-square distribution with
// n·(tables-1) degrees of freedom (the cells of each player's row, less
// one; the row and column sums being fixed only lowers the true degrees of
// freedom, so this is conservative), from the Wilson–Hilferty approximation.
func chiCritical(df int) float64 {
	const z = 3.0902 // standard normal 0.999 quantile
	k := float64(df)
	a := 1 - 2/(9*k) + z*math.Sqrt(2/(9*k))
	return k * a * a * a
}

// TestFairnessRoundOne: over a fixed set of 2000 seeds (250 with -short), every player is
// equally likely to sit at any table in round 1, both in the round-by-round
// draw of the tournament service and in a planned schedule (a design with
// its points labelled at random, or greedy).
func TestFairnessRoundOne(t *testing.T) {
	t.Parallel()
	draws := 2000
	if testing.Short() {
		// The quick tier: the same test on fewer seeds (at least 30 a
		// player and table expected), as likely to pass by chance.
		draws = 250
	}
	for _, n := range []int{7, 13, 16, 20, 22} {
		sizes, _ := seating.SplitTables(n)
		crit := chiCritical(n * (len(sizes) - 1))
		for _, mode := range []seating.Mode{seating.Draw, seating.Mixed} {
			chi := chiSquare(n, draws, func(seed uint64) seating.Seating {
				res, err := seating.Round(seating.Params{Players: ids(n), Mode: mode, Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				return res.Seating
			})
			t.Logf("Round(%d players, %v): chi-square %.1f (critical %.1f)", n, mode, chi, crit)
			if chi > crit {
				t.Errorf("Round(%d players, %v) over %d seeds: chi-square %.1f, want <= %.1f", n, mode, draws, chi, crit)
			}
		}
		if n == 13 || n == 16 {
			rounds := 1 // a longer plan would search for each of the 2000 draws
			if n == 16 {
				rounds = 5 // the affine plane: no search
			}
			chi := chiSquare(n, draws, func(seed uint64) seating.Seating {
				res, err := seating.Round(seating.Params{Players: ids(n), Rounds: rounds, PlanSeed: seed})
				if err != nil {
					t.Fatal(err)
				}
				return res.Seating
			})
			if chi > crit {
				t.Errorf("Round(%d players, following a plan) over %d plan seeds: chi-square %.1f, want <= %.1f", n, draws, chi, crit)
			}
		}
		chi := chiSquare(n, draws, func(seed uint64) seating.Seating {
			s, err := seating.Plan(n, 1, seating.Options{Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			return s.Rounds[0]
		})
		if chi > crit {
			t.Errorf("Plan(%d, 1) over %d seeds: chi-square %.1f, want <= %.1f", n, draws, chi, crit)
		}
	}
}

// TestChiSquareDetectsBias makes sure the statistic above can fail: a draw
// that always puts player 0 at table 1 is caught.
func TestChiSquareDetectsBias(t *testing.T) {
	t.Parallel()
	n := 13
	sizes, _ := seating.SplitTables(n)
	chi := chiSquare(n, 2000, func(seed uint64) seating.Seating {
		res, _ := seating.Round(seating.Params{Players: ids(n), Seed: seed})
		for i, tb := range res.Tables {
			for s, p := range tb.Seats {
				if p == 0 && i != 0 {
					// swap player 0 with someone at table 1
					q := res.Tables[0].Seats[0]
					res.Tables[0].Seats[0], res.Tables[i].Seats[s] = 0, q
				}
			}
		}
		return res.Seating
	})
	if crit := chiCritical(n * (len(sizes) - 1)); chi <= crit {
		t.Errorf("biased draw: chi-square %.1f, want > %.1f", chi, crit)
	}
}
