// Package sim plays random games of Chicago and writes them as engine
// records. Given a seed and a rule set it deals shuffled decks, plays three
// exchange rounds with a simple strategy (keep pairs, draw to flushes),
// announces, declares Chicago now and then, plays the tricks following suit
// and plays whole games to the target with the deal passing clockwise.
//
// Play is legal unless Options ask for violations: false announcements,
// revokes, unshown breaks and exchanges after the exchange stop each have a
// probability that defaults to 0. The same seed and rules always give the
// same records. Tests, benchmarks, demo data and load tests use it.
package sim

import (
	"math/rand/v2"

	"github.com/revisor-sm/revisor/engine"
)

// Options tune the simulated players. The zero value is clean, plain play;
// DefaultOptions is livelier.
type Options struct {
	// OpenCard is the probability that a player exchanging one card asks
	// for the open card (when the rules allow it).
	OpenCard float64
	// Chicago is the probability that a player allowed to declare Chicago
	// with a strong hand (two aces, or three aces and kings) declares; with
	// any other hand the probability is a tenth of it.
	Chicago float64
	// ListIdle is the probability that a player who keeps all five cards is
	// listed with an empty exchange rather than left out.
	ListIdle float64
	// NoDeck leaves the deck out of the records: the engine then checks only
	// that no card is in two places at once.
	NoDeck bool
	// MaxDeals caps a game; a game that reaches it without a winner is
	// ended by time. 0 means 200.
	MaxDeals int

	// Bluff is the probability, at each announcement, of announcing a
	// category above the one held (a false announcement).
	Bluff float64
	// Revoke is the probability that a player able to follow suit plays
	// another suit.
	Revoke float64
	// UnshownBreak is the probability that a player who must show a
	// combination before breaking it does not.
	UnshownBreak float64
	// ExchangeAfterStop is the probability that a player under the exchange
	// stop exchanges anyway.
	ExchangeAfterStop float64
}

// DefaultOptions are the options New uses: open cards, Chicago
// declarations and idle entries now and then, no violations.
func DefaultOptions() Options {
	return Options{OpenCard: 0.4, Chicago: 0.5, ListIdle: 0.3}
}

// Sim is a seeded simulator for one rule set. It is not safe for concurrent
// use; make one per goroutine.
type Sim struct {
	rng   *rand.Rand
	rules engine.Rules
	opt   Options
}

// New returns a simulator with DefaultOptions. The seed fixes every random
// choice.
func New(seed uint64, rules engine.Rules) *Sim {
	return NewWithOptions(seed, rules, DefaultOptions())
}

// NewWithOptions returns a simulator with the given options.
func NewWithOptions(seed uint64, rules engine.Rules, opt Options) *Sim {
	if opt.MaxDeals <= 0 {
		opt.MaxDeals = 200
	}
	return &Sim{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), rules: rules, opt: opt}
}

// Rules returns the simulator's rule set.
func (s *Sim) Rules() engine.Rules { return s.rules }

// Scores returns random start scores for players, 0 to top inclusive; with
// negative scores allowed some are below 0.
func (s *Sim) Scores(players []string, top int) map[string]int {
	out := make(map[string]int, len(players))
	for _, p := range players {
		v := s.rng.IntN(top + 1)
		if s.rules.NegativeScores && s.chance(0.2) {
			v = -v
		}
		out[p] = v
	}
	return out
}

// chance reports true with probability p.
func (s *Sim) chance(p float64) bool { return p > 0 && s.rng.Float64() < p }

// Players returns n player ids "p1" ... "pn".
func Players(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "p" + string(rune('1'+i))
	}
	return out
}
