package main

import (
	"bytes"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/referee"
)

// drawFile is the public inputs of one round's draw as
// GET /api/v1/tournaments/{tid}/rounds/{n}/draw answers them.
type drawFile struct {
	Format    string      `json:"format"`
	Seating   string      `json:"seating"`
	Rounds    int         `json:"rounds"`
	Round     int         `json:"round"`
	Seed      *int64      `json:"seed"`
	Players   []string    `json:"players"`
	History   []drawRound `json:"history"`
	Standings []string    `json:"standings"`
	// Constraints are the fixed tables and players kept apart of the draw.
	Constraints *tournament.ExportConstraints `json:"constraints"`
	Tables      []drawTable                   `json:"tables"`
	Commitment  *struct {
		SHA256    string `json:"sha256"`
		CreatedAt string `json:"created_at"`
	} `json:"commitment"`
	// SearchSteps is where the clock cap cut the server's seating search;
	// the replay stops there too. Absent when the search was not cut.
	SearchSteps int `json:"search_steps"`
}

type drawRound struct {
	Number int         `json:"number"`
	Seed   int64       `json:"seed"`
	Tables []drawTable `json:"tables"`
}

type drawTable struct {
	Number      int      `json:"number"`
	Players     []string `json:"players"`
	Seats       []int    `json:"seats"` // absent: seats 1, 2, … in order
	FirstDealer string   `json:"first_dealer"`
}

// verifyDraw recomputes a round's tables from the public inputs at path (a
// file, "-" for stdin, or the http(s) URL of GET …/rounds/{n}/draw) and
// checks them, and the seed against its commitment. It prints what it
// checked; a mismatch is an error.
func verifyDraw(path string, stdin io.Reader, stdout io.Writer) error {
	data, err := readDraw(path, stdin)
	if err != nil {
		return err
	}
	var f drawFile
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&f); err != nil {
		return fmt.Errorf("%w: %s is not the JSON of GET …/rounds/{n}/draw: %v", errUsage, path, err)
	}
	if f.Seed == nil || len(f.Players) == 0 {
		return fmt.Errorf("%w: %s has no seed or no players", errUsage, path)
	}
	in := f.inputs()
	got, err := referee.ReplayDraw(in)
	if err != nil {
		return fmt.Errorf("recomputing the draw: %w", err)
	}
	fmt.Fprintf(stdout, "round %d, %d players, seed %d (%s)\n", f.Round, len(f.Players), *f.Seed, f.Format)
	if f.SearchSteps > 0 {
		fmt.Fprintf(stdout, "search: the server's clock cut it after %d iterations; replayed to the same point\n", f.SearchSteps)
	}
	var problems []string
	if f.Commitment != nil {
		if ok, msg := checkCommitment(*f.Seed, f.Commitment.SHA256); ok {
			fmt.Fprintf(stdout, "commitment: SHA-256 of %q matches %s (published %s)\n", fmt.Sprint(*f.Seed), f.Commitment.SHA256, f.Commitment.CreatedAt)
		} else {
			problems = append(problems, msg)
		}
	} else {
		fmt.Fprintln(stdout, "commitment: none was published for this round")
	}
	for i, t := range got {
		fmt.Fprintf(stdout, "table %d: %s (first dealer %s)\n", t.Number, strings.Join(t.Players, " "), t.FirstDealer)
		if i >= len(f.Tables) || !slices.Equal(f.Tables[i].Players, t.Players) || f.Tables[i].FirstDealer != t.FirstDealer ||
			!slices.Equal(f.Tables[i].table().SeatNumbers(), t.SeatNumbers()) {
			problems = append(problems, fmt.Sprintf("table %d differs from the published draw", t.Number))
		}
	}
	if len(got) != len(f.Tables) {
		problems = append(problems, fmt.Sprintf("%d tables recomputed, %d published", len(got), len(f.Tables)))
	}
	if len(problems) > 0 {
		return fmt.Errorf("the draw does not verify: %s", strings.Join(problems, "; "))
	}
	fmt.Fprintln(stdout, "verified: the published tables are the ones these inputs give")
	return nil
}

// maxDrawFile bounds what is read of a draw's inputs.
const maxDrawFile = 16 << 20

// readDraw reads the inputs from a file, stdin or a URL.
func readDraw(path string, stdin io.Reader) ([]byte, error) {
	switch {
	case path == "-":
		return io.ReadAll(io.LimitReader(stdin, maxDrawFile))
	case strings.HasPrefix(path, "http://") || strings.HasPrefix(path, "https://"):
		client := &http.Client{Timeout: 30 * time.Second}
		resp, err := client.Get(path)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("GET %s: %s", path, resp.Status)
		}
		return io.ReadAll(io.LimitReader(resp.Body, maxDrawFile))
	}
	return os.ReadFile(path)
}

func (f *drawFile) inputs() referee.DrawInputs {
	in := referee.DrawInputs{Format: tournament.Format(f.Format), Seating: f.Seating, Rounds: f.Rounds, Round: f.Round,
		Seed: *f.Seed, Players: f.Players, Standings: f.Standings, Constraints: f.Constraints.Constraints(), SearchSteps: f.SearchSteps}
	for _, r := range f.History {
		rd := tournament.Round{Number: r.Number, Seed: r.Seed}
		for _, t := range r.Tables {
			rd.Tables = append(rd.Tables, t.table())
		}
		in.History = append(in.History, rd)
	}
	return in
}

func (t drawTable) table() tournament.Table {
	return tournament.Table{Number: t.Number, Players: t.Players, Seats: t.Seats, FirstDealer: t.FirstDealer}
}

// checkCommitment compares SHA-256 of the seed's decimal digits with the
// published commitment.
func checkCommitment(seed int64, published string) (bool, string) {
	want, err := hex.DecodeString(published)
	got := referee.SeedHash(seed)
	if err != nil || subtle.ConstantTimeCompare(want, got) != 1 {
		return false, fmt.Sprintf("SHA-256 of the seed %d is %x, not the published commitment %s", seed, got, published)
	}
	return true, ""
}
