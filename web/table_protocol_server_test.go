package web_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/internal/racecheck"
	"github.com/revisor-sm/revisor/tournament"
)

// protocolSlot is one game a night of the randomized protocol test plays:
// the table's code and the game's number, its own so that the nights run
// side by side.
type protocolSlot struct {
	Tournament string `json:"tid"`
	Table      int    `json:"table"`
	Code       string `json:"code"`
	Game       int    `json:"game"`
}

// TestTableProtocolServer drives the phone's queue (web/static/tablequeue.js)
// against this real server over at least 200 random nights
// (web/jstest/tablequeue_server.test.js, run by node): phones log in with
// the table's code, send deals and corrections to the table page's
// endpoints and read the page's live part, with offline periods, lost
// answers, late reads, reloads and decisions; the invariants of
// docs/table-protocol.md are checked against what the server stores. A
// failing night names its seed (SEED=s runs it alone, SEEDS=n more).
func TestTableProtocolServer(t *testing.T) {
	if racecheck.Enabled {
		t.Skip("the nights run without -race: scripts/test.sh runs this test on its own, and every server path it takes runs under -race in the page tests")
	}
	if testing.Short() {
		t.Skip("minutes of nights: not in -short")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed (scripts/test.sh installs it)")
	}
	s := newSite(t)
	ctx := context.Background()
	rounds, games := 3, 4
	c, err := s.svc.CreateTournament(ctx, admin, tournament.NewTournament{Name: "Nights", Format: tournament.FormatSwiss, Rounds: &rounds, GamesPerRound: &games})
	if err != nil {
		t.Fatal(err)
	}
	nps := make([]tournament.NewPlayer, 200)
	for i := range nps {
		nps[i] = tournament.NewPlayer{Name: playerName(i)}
	}
	if _, err := s.svc.AddPlayers(ctx, org, c.Tournament.ID, nps); err != nil {
		t.Fatal(err)
	}
	seed := int64(1)
	r, err := s.plays.DrawRound(ctx, org, c.Tournament.ID, &seed)
	if err != nil {
		t.Fatal(err)
	}
	codes, err := s.plays.TableCodes(ctx, org, c.Tournament.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	var slots []protocolSlot
	for g := 1; g <= games; g++ {
		for _, tb := range r.Tables {
			slots = append(slots, protocolSlot{Tournament: c.Tournament.ID, Table: tb.Number, Code: codes[tb.Number], Game: g})
		}
	}
	cfg, _ := json.Marshal(map[string]any{"url": s.URL, "slots": slots})
	path := filepath.Join(t.TempDir(), "protocol.json")
	if err := os.WriteFile(path, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "--test", "--test-reporter=spec", "jstest/tablequeue_server.test.js")
	cmd.Env = append(os.Environ(), "REVISOR_PROTOCOL="+path)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	t.Logf("%d nights' games available; node ran %s", len(slots), time.Since(start).Round(time.Millisecond))
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	if testing.Verbose() {
		t.Logf("%s", out)
	}
	m := regexp.MustCompile(`nights: (\d+) of (\d+) passed, deals stored: (\d+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("node ran no nights:\n%s", out)
	}
	t.Logf("nights: %s of %s passed, deals stored: %s", m[1], m[2], m[3])
	if n, _ := strconv.Atoi(string(m[2])); n < 200 && os.Getenv("SEED") == "" && os.Getenv("SEEDS") == "" {
		t.Errorf("node ran %d nights, want at least 200", n)
	}
}
