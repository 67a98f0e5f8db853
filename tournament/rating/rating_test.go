package rating_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/revisor-sm/revisor/tournament/rating"
)

// noDynamics is the model the published reference values were computed with.
func noDynamics() rating.Model {
	m := rating.Default()
	m.Tau = 0
	return m
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestRateReferenceValues checks Rate against the values OpenSkill's
// Plackett-Luce implementation publishes for free-for-all games of 2 to 5
// new players (openskill.js, models/__tests__/plackett-luce.test.js).
func TestRateReferenceValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		want []rating.Rating
	}{
		{"2p", []rating.Rating{{27.63523138347365, 8.065506316323548}, {22.36476861652635, 8.065506316323548}}},
		{"3p", []rating.Rating{{27.868876552746237, 8.204837030780652}, {25.717219138186557, 8.057829747583874},
			{21.413904309067206, 8.057829747583874}}},
		{"4p", []rating.Rating{{27.795084971874736, 8.263160757613477}, {26.552824984374855, 8.179213704945203},
			{24.68943500312503, 8.083731307186588}, {20.96265504062538, 8.083731307186588}}},
		{"5p", []rating.Rating{{27.666666666666668, 8.290556877154474}, {26.833333333333332, 8.240145629781066},
			{25.72222222222222, 8.179996679645559}, {24.055555555555557, 8.111796013701358},
			{20.72222222222222, 8.111796013701358}}},
	}
	m := noDynamics()
	for _, tt := range tests {
		in := make([]rating.Rating, len(tt.want))
		places := make([]int, len(tt.want))
		for i := range in {
			in[i], places[i] = m.New(), i+1
		}
		got := m.Rate(in, places)
		for i := range got {
			if !near(got[i].Mu, tt.want[i].Mu) || !near(got[i].Sigma, tt.want[i].Sigma) {
				t.Errorf("%s: Rate(new players)[%d] = %+v, want %+v", tt.name, i, got[i], tt.want[i])
			}
		}
	}
}

// TestRateTeamsReferenceValues checks teams of unequal ratings against the
// example of the OpenSkill documentation (two teams of two) and the
// three-team example of its tests (teams of 3, 1 and 2 new players).
func TestRateTeamsReferenceValues(t *testing.T) {
	t.Parallel()
	m := noDynamics()
	got := m.RateTeams([][]rating.Rating{
		{{25, 8.333333333333334}, {32.444, 5.123}},
		{{43.381, 2.421}, {25.188, 6.211}},
	}, []int{1, 2})
	want := [][]rating.Rating{
		{{28.669648436582808, 8.071520788025197}, {33.83086971107981, 5.062772998705765}},
		{{43.071274808241974, 2.4166900452721256}, {23.149503312339064, 6.1378606973362135}},
	}
	for i := range want {
		for j := range want[i] {
			if !near(got[i][j].Mu, want[i][j].Mu) || !near(got[i][j].Sigma, want[i][j].Sigma) {
				t.Errorf("RateTeams[%d][%d] = %+v, want %+v", i, j, got[i][j], want[i][j])
			}
		}
	}
	r := m.New()
	got = m.RateTeams([][]rating.Rating{{r, r, r}, {r}, {r, r}}, []int{1, 2, 3})
	wantTeam := []rating.Rating{{25.939870821784513, 8.247641552260456}, {27.21366020491262, 8.274321317985242},
		{21.84646897330287, 8.213058173195341}}
	for i, team := range got {
		for _, p := range team {
			if !near(p.Mu, wantTeam[i].Mu) || !near(p.Sigma, wantTeam[i].Sigma) {
				t.Errorf("three teams: team %d player = %+v, want %+v", i, p, wantTeam[i])
			}
		}
	}
}

// TestRateProperties checks what must hold for any game: with equal
// uncertainties the means only move between the players (their sum stays),
// a better place never ends with a smaller gain (among equal players), uncertainty never grows
// without dynamics, and players sharing a place with equal ratings stay equal.
func TestRateProperties(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	m := noDynamics()
	for n := range 2000 {
		size := 3 + n%2
		in := make([]rating.Rating, size)
		places := make([]int, size)
		sigma := 1 + 7*rng.Float64()
		for i := range in {
			in[i] = rating.Rating{Mu: 10 + 30*rng.Float64(), Sigma: sigma}
			places[i] = 1 + rng.IntN(size)
		}
		out := m.Rate(in, places)
		var before, after float64
		for i := range in {
			before += in[i].Mu
			after += out[i].Mu
			if out[i].Sigma > in[i].Sigma+1e-12 {
				t.Fatalf("game %d: sigma of player %d grew: %v -> %v", n, i, in[i].Sigma, out[i].Sigma)
			}
		}
		if math.Abs(before-after) > 1e-9 {
			t.Fatalf("game %d: sum of means %v -> %v with equal sigmas", n, before, after)
		}
		// Equal players: gains follow the places.
		eq := make([]rating.Rating, size)
		for i := range eq {
			eq[i] = m.New()
		}
		out = m.Rate(eq, places)
		for i := range out {
			for j := range out {
				gi, gj := out[i].Mu-25, out[j].Mu-25
				// (Not strictly: with OpenSkill's treatment of ties, two
				// players sharing first gain exactly what a lone third gains.)
				if places[i] < places[j] && gi < gj-1e-12 {
					t.Fatalf("game %d: place %d gained %v, place %d gained %v", n, places[i], gi, places[j], gj)
				}
				if places[i] == places[j] && (!near(out[i].Mu, out[j].Mu) || !near(out[i].Sigma, out[j].Sigma)) {
					t.Fatalf("game %d: shared place %d rated %+v and %+v", n, places[i], out[i], out[j])
				}
			}
		}
	}
}

// TestDynamicsWidenUncertainty checks that Tau is added before the game: a
// player whose Sigma is already small keeps a Sigma of at least about Tau.
func TestDynamicsWidenUncertainty(t *testing.T) {
	t.Parallel()
	m := rating.Default()
	r := []rating.Rating{{Mu: 30, Sigma: 0.01}, {Mu: 20, Sigma: 0.01}, {Mu: 25, Sigma: 0.01}}
	for range 50 {
		r = m.Rate(r, []int{1, 2, 3})
	}
	for i, x := range r {
		if x.Sigma < m.Tau/2 {
			t.Errorf("after 50 games with Tau %v, player %d has Sigma %v", m.Tau, i, x.Sigma)
		}
	}
	if r[0].Mu <= 30 || r[2].Mu >= 25 {
		t.Errorf("with dynamics, repeated wins still move the means: %+v", r)
	}
}

func TestOrdinal(t *testing.T) {
	t.Parallel()
	if got := (rating.Rating{Mu: 25, Sigma: 25.0 / 3}).Ordinal(); math.Abs(got) > 1e-12 {
		t.Errorf("Ordinal(new) = %v, want 0", got)
	}
}

func BenchmarkRate4(b *testing.B) {
	m := rating.Default()
	in := []rating.Rating{m.New(), {27, 6}, {22, 7}, {30, 3}}
	places := []int{2, 1, 4, 2}
	for b.Loop() {
		_ = m.Rate(in, places)
	}
}
