package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/revisor-sm/revisor/tournament/seating"
)

// seatOutput is what `revisor seat --json` prints. Players are numbered
// from 1.
type seatOutput struct {
	Players    int         `json:"players"`
	Rounds     int         `json:"rounds"`
	Seed       uint64      `json:"seed"`
	Mode       string      `json:"mode"`
	Method     string      `json:"method"`
	Repeats    int         `json:"repeats"`
	LowerBound int         `json:"lower_bound"`
	SeatSpread int         `json:"seat_spread"`
	TimedOut   bool        `json:"timed_out"`
	Schedule   []seatRound `json:"schedule"`
}

type seatRound struct {
	Round  int         `json:"round"`
	Tables []seatTable `json:"tables"`
}

// seatTable lists a table's players in seat order; seats holds the player
// at seats 1 to 4, null for the seat left empty at a table of 3.
type seatTable struct {
	Table   int    `json:"table"`
	Players []int  `json:"players"`
	Seats   []*int `json:"seats"`
	Dealer  int    `json:"dealer"`
}

// runSeat plans a whole seating offline with the same code the tournament
// service uses and prints it.
func runSeat(_ context.Context, args []string, _ func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("seat", stderr)
	players := fs.Int("players", 0, "number of `players` (at least 3, not 5)")
	rounds := fs.Int("rounds", 0, "number of `rounds`")
	seed := fs.Uint64("seed", 1, "`seed` of the draw; the same seed gives the same seating")
	mode := fs.String("mode", "mixed", "mixed or by_standings (players ranked by number)")
	budget := fs.Duration("budget", seating.DefaultBudget, "time `budget` for the search (a safety cap)")
	asJSON := fs.Bool("json", false, "print JSON")
	draw := fs.String("draw", "", "verify a tournament round's draw: `file` or URL of GET …/rounds/{n}/draw (- for stdin)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: revisor seat --players N --rounds R [--seed S] [--mode mixed|by_standings] [--budget 2s] [--json]")
		fmt.Fprintln(stderr, "       revisor seat --draw FILE   (recompute and verify a tournament round's draw)")
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if *draw != "" {
		return verifyDraw(*draw, stdin, stdout)
	}
	m, err := seating.ParseMode(*mode)
	switch {
	case err != nil || m == seating.Draw:
		return seatUsage(stderr, "--mode %q: want mixed or by_standings", *mode)
	case *rounds < 1 || *players < 1:
		return seatUsage(stderr, "give --players N and --rounds R, both at least 1")
	case fs.NArg() > 0:
		return seatUsage(stderr, "unexpected argument %q", fs.Arg(0))
	}
	s, err := seating.Plan(*players, *rounds, seating.Options{Mode: m, Seed: *seed, Budget: *budget})
	if err != nil {
		return err
	}
	out := toSeatOutput(s, *seed, m)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	return printSeatText(stdout, out)
}

// seatUsage prints a command-line mistake and returns the usage error
// (main prints nothing more for those).
func seatUsage(stderr io.Writer, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintln(stderr, "revisor seat:", msg)
	return fmt.Errorf("%w: %s", errUsage, msg)
}

func toSeatOutput(s *seating.Schedule, seed uint64, m seating.Mode) seatOutput {
	out := seatOutput{Players: s.Players, Rounds: len(s.Rounds), Seed: seed, Mode: m.String(), Method: s.Method,
		Repeats: s.Repeats, LowerBound: s.LowerBound, SeatSpread: s.SeatSpread, TimedOut: s.TimedOut,
		Schedule: []seatRound{}}
	for r, round := range s.Rounds {
		sr := seatRound{Round: r + 1}
		for t, table := range round.Tables {
			st := seatTable{Table: t + 1, Dealer: table.Dealer() + 1, Seats: make([]*int, 4)}
			for seat, p := range table.Seats {
				if p != seating.Empty {
					num := p + 1
					st.Players = append(st.Players, num)
					st.Seats[seat] = &num
				}
			}
			sr.Tables = append(sr.Tables, st)
		}
		out.Schedule = append(out.Schedule, sr)
	}
	return out
}

func printSeatText(w io.Writer, out seatOutput) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d players, %d rounds, mode %s, seed %d (%s)\n", out.Players, out.Rounds, out.Mode, out.Seed, out.Method)
	for _, r := range out.Schedule {
		fmt.Fprintf(&b, "round %d:", r.Round)
		for _, t := range r.Tables {
			fmt.Fprintf(&b, " [%s]", joinInts(t.Players))
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "repeats %d (lower bound %d), seat spread %d", out.Repeats, out.LowerBound, out.SeatSpread)
	if out.TimedOut {
		fmt.Fprintf(&b, ", search cut short by the time budget")
	}
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, " ")
}
