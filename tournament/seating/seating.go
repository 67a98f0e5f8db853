// Package seating draws the tables of a Chicago tournament: tables of 4,
// with tables of 3 only as many as needed, as few repeat meetings as
// possible, nobody at a table of 3 twice while others have not been, and
// every player's seats spread evenly, with the first dealer in seat 1.
//
// Round seats one round given the rounds already played (what the
// tournament service needs); Plan seats a whole schedule offline (what
// `revisor seat` prints). Both are pure functions of their input and a
// seed (math/rand/v2 PCG, never the global source): the same seed, players
// and history give the same tables. The search behind them is bounded by
// work, counted in evaluated swaps, and by stopping rules that count
// iterations (a lower bound reached, restarts without progress), never by
// the clock, so it is deterministic; a time budget (default 2 s) is only a
// safety cap, checked every 64 iterations, and a result cut short by it says
// so in TimedOut and records in Steps how many iterations it ran: the same
// call with that count in Params.Steps (Options.Steps) stops there without
// reading the clock and gives the same tables on any machine. The defaults finish well inside the budget on a 2020s
// server core. Memory grows linearly with the number of players: meeting
// counts are kept only for the pairs that met once a field passes 1,024
// players (about 110 MB allocated in all for a draw of 10,000 players).
//
// Plan spreads seats exactly (every player's count in each seat differs by
// at most one) by colouring a bipartite graph; Round cannot change seats
// already played and keeps the spread small by an exact seat choice per
// table, cost-free regrouping of the players of two or three tables and
// cost-free swaps (in a small field, searching a few more times for an
// equally good seating with better seats), or exactly when it follows a
// plan (Params.Rounds). In fields up to 256 players the round's search
// also weighs seats, above repeat meetings, and the seats of each round are
// chosen so that the players' least-used seats stay balanced for the next
// round: the tight rounds (round 4, when every player has one least-used
// seat) then give everyone such a seat (16 players: a spread of at most 1
// in every round of 16 runs of 8 rounds, at the price of 6 repeats instead
// of 4 in round 4).
//
// Where combinatorics allow, whole schedules come from known designs with
// no repeated pair: the affine plane of order 4 (16 players, 5 rounds) and
// AG(3,4) (64 × 21), resolvable transversal designs over GF(q) (4q players,
// q rounds, q a prime power: 20 × 5, 36 × 9, 44 × 11, 52 × 13), a
// resolvable (v,4,1) designs for v = 28, 40, 52 (28 × 9, 40 × 13,
// 52 × 17), resolvable 4-GDDs of type 3^u (24 × 7, 36 × 11, 48 × 15,
// 60 × 19) and 2^u (32 × 10, the social golfer instance 8-4-10, 44 × 14,
// 56 × 18), all but AG and 2^16 developed from one base round over
// Z_m × 3 levels plus fixed points, and these minus one player (one table
// of 3 per round, nobody at one twice) or minus a whole group of a 4-GDD
// (2 or 3 tables of 3 per round, in an order of rounds that keeps the
// tables of 3 fair, where one exists: 42 × 14). Fewer rounds take a
// design's first rounds. Everything else, and every round past
// a design, comes from a greedy seating improved by tabu search that swaps
// two players of one round between tables.
//
// The tabu search's inner loop (pickMove, conflicts, partner, delta,
// deltaParts, deltaSeats, deltaCons, allowed, swap, grid.get, grid.add,
// grid.slot) is marked //go:norace: it reads and writes only
// the search's own state, in the one goroutine of the call (this package
// starts none: scripts/test.sh fails the run if it does, and runs its tests
// without -race), and under -race its instrumented reads took about three
// quarters of a planned draw's CPU in the tests of the packages that draw
// (TestSwissRegistrationBetweenRounds: 3.29 s of CPU with them,
// 0.80 s without; cmd/revisor's TestE2ESeason 10.3 s, 8.1 s; 7 December). internal/racecheck's TestNoRaceOnlyInPurePackages
// keeps the mark to this package and the others of pure computation.
package seating

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// Empty marks the seat left free at a table of 3.
const Empty = -1

// DefaultBudget is the time budget used when none is given.
const DefaultBudget = 2 * time.Second

// Mode says what a round's seating aims for besides avoiding repeats.
type Mode int

// The seating modes.
const (
	// Mixed seats as few repeat meetings as possible (Swiss "mixed").
	Mixed Mode = iota
	// ByStandings seats players of similar standing together (groups of
	// neighbours in the standings, Swiss style) while avoiding repeats:
	// a repeat weighs more than any gap in standings at one table.
	ByStandings
	// Draw is the Chicago-SM draw: a random seating among good ones,
	// avoiding pairs who met in earlier rounds.
	Draw
)

// String returns the mode's name as used by the API and the command line.
func (m Mode) String() string {
	switch m {
	case Mixed:
		return "mixed"
	case ByStandings:
		return "by_standings"
	case Draw:
		return "sm"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// ParseMode returns the mode named s ("mixed", "by_standings" or "sm").
func ParseMode(s string) (Mode, error) {
	for _, m := range []Mode{Mixed, ByStandings, Draw} {
		if m.String() == s {
			return m, nil
		}
	}
	return 0, fmt.Errorf("unknown seating mode %q: want mixed, by_standings or sm", s)
}

// Table is one table of a round: the player at each seat, seat 1 first.
// Seat 1 deals first. At a table of 3 one seat is Empty.
type Table struct {
	Seats [4]int
}

// Players returns the table's players in seat order.
func (t Table) Players() []int {
	out := make([]int, 0, 4)
	for _, p := range t.Seats {
		if p != Empty {
			out = append(out, p)
		}
	}
	return out
}

// Dealer returns the first dealer: the player in the lowest occupied seat.
func (t Table) Dealer() int {
	return t.Players()[0]
}

// Seating is one round's tables, tables of 4 first.
type Seating struct {
	Tables []Table
}

// Past is a round already played: for each table, the player ids by seat
// (seat 1 first), "" for a seat left empty.
type Past [][4]string

// Params describe the round to seat.
type Params struct {
	// Players lists the ids of the players to seat, in a stable order
	// (for example by registration). Tables refer to players by index.
	Players []string
	// History holds the rounds already played. Players in it who are not
	// in Players (withdrawn, eliminated) are ignored.
	History []Past
	// Mode is what the seating aims for.
	Mode Mode
	// Standings lists the ids of Players, best first, for ByStandings;
	// nil means the order of Players.
	Standings []string
	// Seed makes the draw reproducible.
	Seed uint64
	// Rounds, when set, is the tournament's number of rounds (Swiss). In
	// Mixed mode Round then follows a plan of the whole tournament (see
	// Plan), which reaches the known zero-repeat schedules that seating
	// round by round cannot, for as long as the earlier rounds followed it
	// (same players, same tables) and the field has at most 100 players
	// (the plan is recomputed every round). Otherwise Round seats the
	// round on its own.
	Rounds int
	// PlanSeed seeds that plan together with the player ids and Rounds; it
	// must be the same in every round of the tournament (for example the
	// first round's seed). Seed is not used while the plan is followed.
	PlanSeed uint64
	// Budget caps the time spent; zero means DefaultBudget.
	Budget time.Duration
	// Now reads the clock for the budget; nil means time.Now.
	Now func() time.Time
	// Steps, when positive, replays a round the clock cut short
	// (Result.Steps): the searches stop after that many iterations and
	// never read the clock, so they give the same tables.
	Steps int
	// Replay marks a replay of a published round (a verifier's, with
	// Steps 0 when the round's search was not cut): the searches never
	// read the clock, so a slow machine cannot cut a replay short where
	// the draw itself ran to its work bound.
	Replay bool
	// Constraints are the organizer's requirements (fixed tables, players
	// kept apart, partnerships). A round with constraints is seated on its
	// own, never from a plan.
	Constraints Constraints
}

// Result is a seated round.
type Result struct {
	Seating
	// Repeats counts the pairs at this round's tables who met before.
	Repeats int
	// Together counts the pairs of one Constraints.Apart group seated at
	// one table (zero unless a group has more players than there are
	// tables, or the search found no way around it).
	Together int
	// PartnersAgain counts the partnerships of this round (with
	// Constraints.Partners) who partnered before.
	PartnersAgain int
	// TimedOut reports that the budget (or Params.Steps) cut a search
	// short (the plan's, making the round seated on its own, or the
	// round's); Steps is then the iterations run up to the cut, which
	// Params.Steps replays. Zero when nothing was cut.
	TimedOut bool
	Steps    int
}

// IDs returns the round's tables as player ids by seat, "" for an empty seat.
func (s Seating) IDs(players []string) Past {
	out := make(Past, len(s.Tables))
	for i, t := range s.Tables {
		for seat, p := range t.Seats {
			if p != Empty {
				out[i][seat] = players[p]
			}
		}
	}
	return out
}

// ErrDuplicate reports a player id given twice.
var ErrDuplicate = errors.New("seating: duplicate player id")

// Round seats one round of p.Players given p.History. Counts that cannot be
// split into tables of 3 and 4 give a *SplitError.
func Round(p Params) (*Result, error) {
	n := len(p.Players)
	sizes, err := SplitTables(n)
	if err != nil {
		return nil, err
	}
	index := make(map[string]int, n)
	for i, id := range p.Players {
		if _, dup := index[id]; dup {
			return nil, fmt.Errorf("%w %q", ErrDuplicate, id)
		}
		index[id] = i
	}
	h := readHistory(n, index, p.History)
	cons, err := readConstraints(p.Constraints, index, sizes, p.History)
	if err != nil {
		return nil, err
	}
	c := &cut{replay: p.Steps, noClock: p.Replay || p.Steps > 0}
	if cons == nil {
		if res, ok := followPlan(p, index, h, c); ok {
			return res, nil
		}
	}
	model := costModel{convex: true, repW: 1}
	if p.Mode == ByStandings {
		if model.rank, err = ranks(index, p.Players, p.Standings); err != nil {
			return nil, err
		}
		model.repW = n
	}
	rng := newRNG(p.Seed)
	s := newSearch(n, sizes, model, rng, h.meet, h.c3)
	s.cons = cons
	if n <= maxSeatSearch {
		// A swap changes at most 6 pairs, each by at most the rounds played.
		s.seatCounts, s.seatScale = h.seats, 12*(len(p.History)+1)
	}
	s.extend(nil, 1)
	basePairs := s.pairs - roundRepeats(s)
	lim := roundLimits(n, p.Budget, p.Now, c)
	lim.target = model.repW * basePairs
	if model.rank != nil {
		lim.target += n - len(sizes) // every table spans at least size-1 ranks
		lim.settled = basePairs + 1
		lim.stall = 100
	}
	s.seatAgain(lim, h.seats)
	res := &Result{TimedOut: c.at > 0, Steps: c.at, Repeats: roundRepeats(s)}
	for _, ps := range s.tables[0] {
		res.Tables = append(res.Tables, s.seatTable(ps, h.seats))
	}
	s.balanceSeats(res.Tables, h.seats)
	res.Together, res.PartnersAgain = cons.broken(res.Tables)
	return res, nil
}

// maxSeatSearch is the largest field whose round search also weighs seats,
// above repeat meetings, so that a tight round finds tables where every
// player gets a least-used seat (at the price of a few repeats in round 4
// of 16 players: 6 instead of 4). Larger fields keep the cost-free
// regrouping and swaps of seatAgain only.
const maxSeatSearch = 256

// roundRepeats counts the pairs at the first free round's tables who met
// before.
func roundRepeats(s *search) int {
	c := 0
	for _, ps := range s.tables[0] {
		for i, a := range ps {
			for _, b := range ps[i+1:] {
				if s.baseMeet.get(a, b) > 0 {
					c++
				}
			}
		}
	}
	return c
}

// history is what earlier rounds tell about the present players.
type history struct {
	meet  meetings // meetings per pair
	c3    []int32  // tables of 3
	seats [][4]int // seat counts
}

func readHistory(n int, index map[string]int, past []Past) history {
	h := history{meet: newMeetings(n), c3: make([]int32, n), seats: make([][4]int, n)}
	for _, round := range past {
		for _, table := range round {
			var ps []int
			occupied := 0
			for seat, id := range table {
				if id == "" {
					continue
				}
				occupied++
				if i, ok := index[id]; ok {
					ps = append(ps, i)
					h.seats[i][seat]++
				}
			}
			for i, a := range ps {
				if occupied == 3 {
					h.c3[a]++
				}
				for _, b := range ps[i+1:] {
					h.meet.add(a, b, 1)
				}
			}
		}
	}
	return h
}

// ranks turns standings into a rank per player index.
func ranks(index map[string]int, players, standings []string) ([]int, error) {
	if standings == nil {
		standings = players
	}
	if len(standings) != len(players) {
		return nil, fmt.Errorf("seating: standings list %d players, want the %d being seated", len(standings), len(players))
	}
	rank := make([]int, len(players))
	seen := make([]bool, len(players))
	for r, id := range standings {
		i, ok := index[id]
		if !ok || seen[i] {
			return nil, fmt.Errorf("seating: standings entry %d (%q) is not a distinct player being seated", r+1, id)
		}
		seen[i] = true
		rank[i] = r
	}
	return rank, nil
}

// newRNG returns the seeded generator every draw uses.
func newRNG(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// roundLimits bounds the search for one round of n players.
func roundLimits(n int, budget time.Duration, now func() time.Time, c *cut) limits {
	lim := limits{work: 2_000_000 + 2000*n, stall: 200, restarts: 10, cut: c}
	lim.deadline, lim.now = c.clock(budget, now)
	return lim
}
