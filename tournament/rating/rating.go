// Package rating rates players from the places they take in their games,
// with the Bayesian online rating of Weng and Lin (2011), "A Bayesian
// Approximation Method for Online Ranking", Journal of Machine Learning
// Research 12, Algorithm 4: the Plackett-Luce model, the one OpenSkill
// implements.
//
// Why this method: a Chicago game has three or four players and one order of
// finish, possibly with shared places; Plackett-Luce rates exactly that (a
// full ranking of any number of players, ties included) in closed form, in
// microseconds, without the factor-graph iterations TrueSkill needs, and its
// reference implementations publish values to test against. A rating is a
// belief about skill: a mean Mu and an uncertainty Sigma. Lists show the
// conservative Ordinal, Mu − 3·Sigma, so a newcomer starts at 0 and climbs as
// both results and certainty come in.
//
// The package is pure: the same games in the same order give the same
// ratings, bit for bit.
package rating

import (
	"math"
	"slices"
)

// Rating is a belief about a player's skill: mean Mu, standard deviation Sigma.
type Rating struct {
	Mu, Sigma float64
}

// Ordinal is the rating shown in lists: Mu − 3·Sigma, a skill the player
// very probably (99.7%) has at least.
func (r Rating) Ordinal() float64 { return r.Mu - 3*r.Sigma }

// Model holds the method's constants. Default returns OpenSkill's.
type Model struct {
	Mu    float64 // a new player's mean
	Sigma float64 // a new player's uncertainty
	Beta  float64 // the spread of performance around skill within one game
	Kappa float64 // the smallest factor a variance may shrink by in one game
	// Tau is added to every Sigma (in quadrature) before a game, so that
	// uncertainty grows a little between games and a rating can still move
	// after many of them (Weng-Lin's additive dynamics). 0 turns it off.
	Tau float64
}

// Default returns the model Revisor rates with: OpenSkill's defaults
// (Mu 25, Sigma 25/3, Beta 25/6, Kappa 0.0001) with Tau = 25/300.
func Default() Model {
	return Model{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Kappa: 0.0001, Tau: 25.0 / 300}
}

// New returns the rating of a player without games.
func (m Model) New() Rating { return Rating{Mu: m.Mu, Sigma: m.Sigma} }

// Rate returns the ratings after one game of players with the given ratings
// and places (1 is the winner; players with the same place shared it). The
// two slices have the same length, at least 2; the result is new.
func (m Model) Rate(ratings []Rating, places []int) []Rating {
	teams := make([][]Rating, len(ratings))
	for i, r := range ratings {
		teams[i] = []Rating{r}
	}
	out := m.RateTeams(teams, places)
	res := make([]Rating, len(out))
	for i, t := range out {
		res[i] = t[0]
	}
	return res
}

// RateTeams is Rate for teams: each team's players share its place (a
// team's strength is the sum of its players' means and variances). Bridge
// partnerships are teams of two.
func (m Model) RateTeams(teams [][]Rating, places []int) [][]Rating {
	if len(teams) != len(places) {
		panic("rating: teams and places differ in length")
	}
	if m.Tau > 0 {
		teams = m.withDynamics(teams)
	}
	n := len(teams)
	mu, sigmaSq := make([]float64, n), make([]float64, n)
	betaSq := m.Beta * m.Beta
	var cSq float64
	for i, t := range teams {
		for _, r := range t {
			mu[i] += r.Mu
			sigmaSq[i] += r.Sigma * r.Sigma
		}
		cSq += sigmaSq[i] + betaSq
	}
	c := math.Sqrt(cSq)
	// sumQ[q] sums exp(mu/c) over the teams that did not finish above q;
	// a[q] counts the teams sharing q's place.
	e := make([]float64, n)
	for i := range teams {
		e[i] = math.Exp(mu[i] / c)
	}
	sumQ, a := make([]float64, n), make([]float64, n)
	for q := range teams {
		for i := range teams {
			if places[i] >= places[q] {
				sumQ[q] += e[i]
			}
			if places[i] == places[q] {
				a[q]++
			}
		}
	}
	out := make([][]Rating, n)
	for i, t := range teams {
		var omega, delta float64
		for q := range teams {
			if places[q] > places[i] {
				continue
			}
			quot := e[i] / sumQ[q]
			if q == i {
				omega += (1 - quot) / a[q]
			} else {
				omega -= quot / a[q]
			}
			delta += quot * (1 - quot) / a[q]
		}
		gamma := math.Sqrt(sigmaSq[i]) / c
		omega *= sigmaSq[i] / c
		delta *= gamma * sigmaSq[i] / cSq
		out[i] = make([]Rating, len(t))
		for j, r := range t {
			share := r.Sigma * r.Sigma / sigmaSq[i]
			out[i][j] = Rating{
				Mu:    r.Mu + share*omega,
				Sigma: r.Sigma * math.Sqrt(math.Max(1-share*delta, m.Kappa)),
			}
		}
	}
	return out
}

func (m Model) withDynamics(teams [][]Rating) [][]Rating {
	out := make([][]Rating, len(teams))
	for i, t := range teams {
		out[i] = slices.Clone(t)
		for j := range out[i] {
			out[i][j].Sigma = math.Sqrt(out[i][j].Sigma*out[i][j].Sigma + m.Tau*m.Tau)
		}
	}
	return out
}
