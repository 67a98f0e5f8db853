package seating_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/tournament/seating"
)

func ids(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("p%03d", i)
	}
	return out
}

// playRounds seats rounds one by one with Round, each round's result
// becoming history for the next, and returns them by player index. Tests
// give Round a long budget so that the work bound, not the clock, ends its
// search: results stay deterministic on a busy machine or under -race.
func playRounds(t testing.TB, players []string, rounds int, mode seating.Mode, seed uint64) ([]seating.Seating, []seating.Past) {
	t.Helper()
	var got []seating.Seating
	var hist []seating.Past
	for w := range rounds {
		res, err := seating.Round(seating.Params{Players: players, History: hist, Mode: mode, Seed: seed + uint64(w), Budget: time.Minute})
		if err != nil {
			t.Fatalf("Round %d: %v", w+1, err)
		}
		got = append(got, res.Seating)
		hist = append(hist, res.IDs(players))
	}
	return got, hist
}

func TestRoundProperties(t *testing.T) {
	t.Parallel()
	sizes := []int{3, 4, 6, 7, 9, 10, 13, 17, 22, 41}
	if testing.Short() {
		sizes = sizes[:7] // the quick tier: fields of up to 13 players
	}
	for _, n := range sizes {
		for _, mode := range []seating.Mode{seating.Mixed, seating.ByStandings, seating.Draw} {
			players := ids(n)
			rounds, _ := playRounds(t, players, 6, mode, uint64(n))
			for w, r := range rounds {
				checkRound(t, fmt.Sprintf("Round(%d players, %v) round %d", n, mode, w+1), n, r)
			}
			if got := threeTableSpread(n, rounds); got > 1 {
				t.Errorf("Round(%d players, %v) x6: tables of 3 spread %d, want <= 1", n, mode, got)
			}
		}
	}
}

// TestRoundAvoidsRepeats: round by round, 20 players get 3 rounds, 40
// players 6 and 100 players 8 without meeting anyone twice.
func TestRoundAvoidsRepeats(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ n, rounds int }{{20, 3}, {40, 6}, {100, 8}} {
		rounds, _ := playRounds(t, ids(tt.n), tt.rounds, seating.Mixed, 1)
		if got := countRepeats(tt.n, rounds); got != 0 {
			t.Errorf("Round x%d with %d players: %d repeats, want 0", tt.rounds, tt.n, got)
		}
	}
}

func TestRoundReportsRepeats(t *testing.T) {
	t.Parallel()
	players := ids(8) // 8 players: from round 3 on, repeats are unavoidable
	var hist []seating.Past
	var rounds []seating.Seating
	for w := range 4 {
		res, err := seating.Round(seating.Params{Players: players, History: hist, Seed: uint64(w), Budget: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		before := countRepeats(8, rounds)
		rounds = append(rounds, res.Seating)
		// A pair meeting for the third time adds one to the metric too.
		if got := countRepeats(8, rounds) - before; res.Repeats != got {
			t.Errorf("round %d: Result.Repeats = %d, want %d", w+1, res.Repeats, got)
		}
		hist = append(hist, res.IDs(players))
	}
	if got, want := countRepeats(8, rounds), seating.LowerBound(8, 4); got != want {
		t.Errorf("8 players x4 rounds by Round: %d repeats, want the bound %d", got, want)
	}
}

func TestRoundDeterministic(t *testing.T) {
	t.Parallel()
	players := ids(23)
	_, hist := playRounds(t, players, 3, seating.Mixed, 5)
	p := seating.Params{Players: players, History: hist, Seed: 99, Budget: time.Minute}
	a, _ := seating.Round(p)
	b, _ := seating.Round(p)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("Round twice with the same seed and history: %v and %v", a.Tables, b.Tables)
	}
	p.Seed = 100
	c, _ := seating.Round(p)
	if reflect.DeepEqual(a.Tables, c.Tables) {
		t.Errorf("Round with seeds 99 and 100 gave the same tables %v", a.Tables)
	}
}

// TestRoundIgnoresAbsentPlayers: players in the history who are no longer
// seated (withdrawn, eliminated) are ignored; new players are welcome.
func TestRoundIgnoresAbsentPlayers(t *testing.T) {
	t.Parallel()
	hist := []seating.Past{{{"a", "b", "c", "d"}, {"e", "f", "g", ""}}}
	players := []string{"a", "b", "x", "y", "e", "f", "z", "w"}
	res, err := seating.Round(seating.Params{Players: players, History: hist, Seed: 3, Budget: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	checkRound(t, "Round", len(players), res.Seating)
	if res.Repeats != 0 {
		t.Errorf("Round = %v with %d repeats, want 0 (a, b and e, f can be split)", res.IDs(players), res.Repeats)
	}
}

func TestRoundByStandings(t *testing.T) {
	t.Parallel()
	players := ids(16)
	res, err := seating.Round(seating.Params{Players: players, Mode: seating.ByStandings, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i, tb := range res.Tables {
		lo, hi := 16, -1
		for _, p := range tb.Players() {
			lo, hi = min(lo, p), max(hi, p)
		}
		if hi-lo != 3 {
			t.Errorf("Round(by_standings) table %d = %v, want four neighbours in the standings", i+1, tb.Players())
		}
	}
	// Standings reversed: the best player (p015) now sits with p014..p012.
	rev := make([]string, 16)
	for i := range rev {
		rev[i] = players[15-i]
	}
	hist := []seating.Past{res.IDs(players)}
	res2, err := seating.Round(seating.Params{Players: players, Mode: seating.ByStandings, Standings: rev, History: hist, Seed: 1, Budget: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if res2.Repeats != 0 {
		t.Errorf("Round(by_standings) after round 1 = %v, %d repeats, want 0", res2.IDs(players), res2.Repeats)
	}
	gaps := 0
	for _, tb := range res2.Tables {
		ps := tb.Players()
		lo, hi := 16, -1
		for _, p := range ps {
			lo, hi = min(lo, p), max(hi, p)
		}
		gaps += hi - lo
	}
	// Every table needs one player of each round-1 table, so one of ranks
	// 0-3 and one of 12-15: the gaps sum to at least (12+13+14+15)-(0+1+2+3).
	if gaps != 48 {
		t.Errorf("Round(by_standings) after round 1 = %v, standing gaps %d, want the least possible 48", res2.IDs(players), gaps)
	}
}

func TestRoundErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		p    seating.Params
		is   func(error) bool
	}{
		{"five players", seating.Params{Players: ids(5)}, func(err error) bool {
			var se *seating.SplitError
			return errors.As(err, &se)
		}},
		{"duplicate id", seating.Params{Players: []string{"a", "b", "c", "a"}}, func(err error) bool { return errors.Is(err, seating.ErrDuplicate) }},
		{"standings short", seating.Params{Players: ids(4), Mode: seating.ByStandings, Standings: ids(3)}, func(err error) bool { return err != nil }},
		{"standings unknown", seating.Params{Players: ids(4), Mode: seating.ByStandings, Standings: []string{"p000", "p001", "p002", "q"}}, func(err error) bool { return err != nil }},
		{"standings twice", seating.Params{Players: ids(4), Mode: seating.ByStandings, Standings: []string{"p000", "p001", "p002", "p002"}}, func(err error) bool { return err != nil }},
	}
	for _, tt := range tests {
		res, err := seating.Round(tt.p)
		if res != nil || !tt.is(err) {
			t.Errorf("Round(%s) = %v, %v, want the error", tt.name, res, err)
		}
	}
}

// TestRoundSeats: players who always sat in seat 1 before get other seats.
func TestRoundSeats(t *testing.T) {
	t.Parallel()
	players := []string{"a", "b", "c", "d"}
	hist := []seating.Past{
		{{"a", "b", "c", "d"}},
		{{"b", "a", "d", "c"}},
	}
	res, err := seating.Round(seating.Params{Players: players, History: hist, Seed: 1, Budget: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	got := res.IDs(players)[0]
	// a and b used seats 1 and 2, c and d seats 3 and 4.
	for seat, id := range got {
		if (id == "a" || id == "b") == (seat < 2) {
			t.Errorf("Round seats = %v, want a and b in seats 3-4 and c and d in seats 1-2", got)
			break
		}
	}
}

func TestModeNames(t *testing.T) {
	t.Parallel()
	for _, m := range []seating.Mode{seating.Mixed, seating.ByStandings, seating.Draw} {
		got, err := seating.ParseMode(m.String())
		if err != nil || got != m {
			t.Errorf("ParseMode(%q) = %v, %v, want %v", m.String(), got, err, m)
		}
	}
	if _, err := seating.ParseMode("random"); err == nil {
		t.Errorf("ParseMode(%q) = nil error, want one", "random")
	}
}

// TestConcurrentUse seats rounds from several goroutines at once (run with
// -race): the package keeps no shared state.
func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	players := ids(30)
	want, err := seating.Round(seating.Params{Players: players, Seed: 8, Budget: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			got, err := seating.Round(seating.Params{Players: players, Seed: 8, Budget: time.Minute})
			if err == nil && !reflect.DeepEqual(got, want) {
				err = fmt.Errorf("concurrent Round = %v, want %v", got.Tables, want.Tables)
			}
			if err == nil {
				_, err = seating.Plan(30, 4, seating.Options{Seed: 8, Work: 100_000})
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestRoundFollowsPlan: told the number of rounds, Swiss mixed seating
// follows a whole-tournament plan and reaches the designs' zero-repeat
// schedules (16 players over 5 rounds, 20 over 5, 28 over 9); when a
// player withdraws it goes on round by round.
func TestRoundFollowsPlan(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ n, rounds int }{{16, 5}, {20, 5}, {28, 9}, {15, 5}} {
		players := ids(tt.n)
		var hist []seating.Past
		var rounds []seating.Seating
		for w := range tt.rounds {
			res, err := seating.Round(seating.Params{Players: players, History: hist, Seed: uint64(w), Rounds: tt.rounds, Budget: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			checkRound(t, fmt.Sprintf("Round(%d players, round %d of %d)", tt.n, w+1, tt.rounds), tt.n, res.Seating)
			rounds = append(rounds, res.Seating)
			hist = append(hist, res.IDs(players))
		}
		if got := countRepeats(tt.n, rounds); got != 0 {
			t.Errorf("Round x%d with %d players and Rounds set: %d repeats, want 0", tt.rounds, tt.n, got)
		}
		if got := seating.SeatSpread(tt.n, rounds); got > 1 {
			t.Errorf("Round x%d with %d players and Rounds set: seat spread %d, want <= 1", tt.rounds, tt.n, got)
		}
	}
	// p000 withdraws after round 2: round 3 is seated on its own.
	players := ids(16)
	_, hist := playRoundsPlanned(t, players, 2, 5)
	res, err := seating.Round(seating.Params{Players: players[1:], History: hist, Seed: 3, Rounds: 5, Budget: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	checkRound(t, "Round(15 of 16 players, round 3 of 5)", 15, res.Seating)
	if res.Repeats != 0 {
		t.Errorf("Round after a withdrawal: %d repeats, want 0", res.Repeats)
	}
}

func playRoundsPlanned(t *testing.T, players []string, rounds, total int) ([]seating.Seating, []seating.Past) {
	t.Helper()
	var got []seating.Seating
	var hist []seating.Past
	for w := range rounds {
		res, err := seating.Round(seating.Params{Players: players, History: hist, Seed: uint64(w), Rounds: total, Budget: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, res.Seating)
		hist = append(hist, res.IDs(players))
	}
	return got, hist
}
